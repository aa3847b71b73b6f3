/**
 * Each team inbox's ceiling (docs/consent.md): at most TEAM_NOTICES_PER_HOUR notices an hour to a team
 * (conduct.tellsTeam's address setting), all contacts together, besides TEAM_MAIL_LIMITS. A notice past it is
 * held, never lost (its request is stored): a digest lists it once its clock hour ends. Held notices wait in
 * the mail ledger's KV, a list per team and hour only holds (and erasures) write. A digest is known by the
 * notices it lists, not its hour: each notice has its own id and sent mark (the ledger's), written once a
 * digest listing it is queued, so a trigger early, late, twice or after missed hours sends each in exactly
 * one digest. Only the next team notice and the hourly cron send digests (TEAM_DIGEST_CRON) and load this.
 */
import { keyedSerialiser, normaliseEmail } from '#src/lib/forms/submission.ts';
import { formTeams } from '#src/lib/forms/forms.ts';
import { type HeldHour, type HeldNotice, teamDigest, type TeamHeld } from './emails.ts';
import { digest, type MailLedger, type MailLedgerKv } from './ledger.ts';
import { errorMessage, type MailJob } from './message.ts';
import type { QueueingMail } from './setup.ts';

/** The most notices the team gets in any hour (a digest after that). */
export const TEAM_NOTICES_PER_HOUR = 30;

const HOUR_MS = 60 * 60 * 1000;
/** Key suffix, none for the first team (as in one-team days): a deploy keeps its held notices and count. */
const teamKey = (team: string) => (team === formTeams()[0]?.addressSetting ? '' : `:${team}`);
/** The ceiling as mail limits, counted in the ledger under `team-inbox` and its team's key. */
const TEAM_HOURLY_LIMITS = { minGapMs: 0, perWindow: TEAM_NOTICES_PER_HOUR, windowMs: HOUR_MS };

/** The Cron Trigger that sends the digests (wrangler.jsonc `triggers.crons`): five past every hour. */
export const TEAM_DIGEST_CRON = '5 * * * *';

/** How long after its hour ends a held list is read: every hold in it has settled in KV. */
const DIGEST_SETTLE_MS = 2 * 60 * 1000;
/** The most notices one hour's list holds; it counts the rest (all are in the base). */
const MAX_LISTED = 500;
const HELD_PREFIX = 'team-held:';
/** How long a held list is kept, and so how many hours of missed triggers a digest makes up for. */
const HELD_TTL_SECONDS = 2 * 24 * 60 * 60;
const KEPT_HOURS = (HELD_TTL_SECONDS * 1000) / HOUR_MS;
/** An hour's count of notices past MAX_LISTED that a digest has told (only digests write it). */
const TOLD_PREFIX = 'team-held-told:';
/** A held notice's sent mark (the ledger's), once a digest listing it is queued. */
const listedMark = (notice: HeldNotice) => `team-digest-listed:${notice.id}`;

const hourOf = (at: number) => Math.floor(at / HOUR_MS);

/** A team's held notices (`team`: its address setting) in the mail ledger's KV, one key per clock hour. */
export function heldNotices(kv: MailLedgerKv, team: string) {
  const heldKey = (hour: number) => `${HELD_PREFIX}${hour}${teamKey(team)}`;
  const read = async (hour: number): Promise<HeldHour> => {
    try {
      const parsed = JSON.parse((await kv.get(heldKey(hour))) ?? '{}') as Partial<HeldHour>;
      // A notice held before notices had ids: its time, contact and kind name it.
      const notices = (Array.isArray(parsed.notices) ? parsed.notices : []).map((notice) => ({
        ...notice,
        id: notice.id ?? `${notice.at} ${notice.contact} ${notice.kind}`,
      }));
      return { notices, more: Number(parsed.more) || 0 };
    } catch {
      return { notices: [], more: 0 };
    }
  };
  const oneAtATime = keyedSerialiser();
  /** Rewrites an hour's list with `change`'s answer, one change at a time (none when it answers undefined). */
  const update = (hour: number, now: Date, change: (held: HeldHour) => HeldHour | undefined) =>
    oneAtATime(String(hour), async () => {
      const changed = change(await read(hour));
      if (!changed) return;
      // A list expires HELD_TTL_SECONDS after its hour's end, or a minute from now (the soonest KV takes).
      const expiration = Math.max(
        ((hour + 1) * HOUR_MS) / 1000 + HELD_TTL_SECONDS,
        Math.ceil(now.getTime() / 1000) + 60,
      );
      await kv.put(heldKey(hour), JSON.stringify(changed), { expiration });
    });
  // Hours found fully listed, once settled by the real clock too (a trigger's may run ahead): not read again.
  const doneHours = new Set<number>();
  const done = (hour: number, now: Date) => {
    if (hour < hourOf(Math.min(now.getTime(), Date.now()) - DIGEST_SETTLE_MS)) doneHours.add(hour);
  };
  return {
    /** Holds `notice` in its hour's list, once (by its id). */
    hold: (notice: HeldNotice, at: Date) =>
      update(hourOf(at.getTime()), at, (held) => {
        if (held.notices.some((listed) => listed.id === notice.id)) return undefined;
        return held.notices.length < MAX_LISTED
          ? { ...held, notices: [...held.notices, notice] }
          : { ...held, more: held.more + 1 };
      }),
    /** The hours ended (and settled) by `now`, kept and not known done, that hold notices, oldest first. */
    async ended(now: Date) {
      const last = hourOf(now.getTime() - DIGEST_SETTLE_MS) - 1;
      const hours = Array.from({ length: KEPT_HOURS }, (_, i) => last - KEPT_HOURS + 1 + i);
      const open = hours.filter((hour) => !doneHours.has(hour));
      const lists = await Promise.all(open.map(async (hour) => ({ hour, ...(await read(hour)) })));
      const held = lists.filter((list) => list.notices.length + list.more > 0);
      // Empty hours are done too (only an hour's notices join its list): else each quote re-read 48 lists.
      for (const list of lists) if (!held.includes(list)) done(list.hour, now);
      return held;
    },
    done,
    /** Erasure (Article 17): drops `contact`'s notices from every hour still kept; how many went. */
    async erase(contact: string, now: Date): Promise<number> {
      const address = normaliseEmail(contact);
      const last = hourOf(now.getTime());
      let erased = 0;
      for (let hour = last - KEPT_HOURS; hour <= last; hour += 1)
        await update(hour, now, (held) => {
          const notices = held.notices.filter((notice) => normaliseEmail(notice.contact) !== address);
          erased += held.notices.length - notices.length;
          return notices.length < held.notices.length ? { ...held, notices } : undefined;
        });
      return erased;
    },
  };
}

// One store per team and KV namespace (a binding lives as long as its isolate) or ledger's memory, so in
// an isolate an hour's list takes one change at a time, a hold's or an erasure's (neither loses the other).
const stores = new WeakMap<MailLedgerKv, Record<string, ReturnType<typeof heldNotices>>>();
function heldOf(kv: MailLedgerKv, team: string) {
  const teams = stores.get(kv) ?? {};
  stores.set(kv, teams);
  return (teams[team] ??= heldNotices(kv, team));
}

/** Erasure (Article 17): `contact`'s notices held for any team's digest, dropped from the ledger's KV; how many. */
export async function eraseHeldNotices(kv: MailLedgerKv, contact: string, now: Date): Promise<number> {
  const teams = formTeams().map((team) => heldOf(kv, team.addressSetting).erase(contact, now));
  return (await Promise.all(teams)).reduce((sum, erased) => sum + erased, 0);
}

/** Whether its team's inbox takes one more notice now; if not, it is held for its hour's digest. */
export async function admitNotice(ledger: MailLedger, held: TeamHeld, at: Date): Promise<boolean> {
  if (await ledger.reserve(`team-inbox${teamKey(held.team)}`, at, TEAM_HOURLY_LIMITS)) return true;
  await heldOf(ledger.kv, held.team).hold(held.notice, at);
  return false;
}

/**
 * For each team, queues a digest of every ended hour's held notices no digest has listed yet (and its count
 * past MAX_LISTED not yet told), to its address in its words, then marks each listed notice sent. A digest
 * that cannot be queued is kept as a dead letter; with nowhere to keep it, its notices stay for the next run.
 */
export async function queueTeamDigests(
  mail: QueueingMail,
  now: Date,
  log: (line: string) => void = (line) => console.error(line),
): Promise<number> {
  const { ledger, settings } = mail;
  let queued = 0;
  // The job's form, for the dead letters' listing: the last form that names the team (formTeams).
  for (const { addressSetting: team, copy, form } of formTeams()) {
    const to = { email: settings.teamEmails[team] ?? '', copy };
    const store = heldOf(ledger.kv, team);
    for (const held of await store.ended(now)) {
      const listed = await Promise.all(held.notices.map((notice) => ledger.hasSent(listedMark(notice))));
      const notices = held.notices.filter((_, i) => !listed[i]);
      const toldKey = `${TOLD_PREFIX}${held.hour}${teamKey(team)}`;
      const told = Number(await ledger.kv.get(toldKey)) || 0;
      const more = Math.max(0, held.more - told);
      if (notices.length + more > 0) {
        const key = `team-digest:${await digest([...notices.map((notice) => notice.id), `${held.hour}+${told}-${held.more}`].join('\n'))}`;
        const message = teamDigest(settings, to, { notices, more }, TEAM_NOTICES_PER_HOUR, key);
        const job: MailJob = { kind: 'mail', message, email: to.email, form, queuedAt: now.toISOString() };
        try {
          await mail.enqueue(job);
          queued += 1;
        } catch (error) {
          const reason = `could not be queued: ${errorMessage(error)}`;
          const kept = mail.deadLetter ? 'as a dead letter' : 'for the next run';
          log(`Mailer: the ${team} team's digest ${reason}; kept ${kept}`);
          if (!mail.deadLetter) continue;
          await mail.deadLetter(job, reason).catch(() => undefined);
        }
        await Promise.all(notices.map((notice) => ledger.markSent(listedMark(notice))));
        if (more > 0) await ledger.kv.put(toldKey, String(held.more), { expirationTtl: HELD_TTL_SECONDS });
      }
      store.done(held.hour, now);
    }
  }
  return queued;
}
