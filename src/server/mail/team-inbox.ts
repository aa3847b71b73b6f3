/**
 * The team inbox's ceiling (docs/consent.md): at most TEAM_NOTICES_PER_HOUR notices an hour, all contacts
 * together, besides TEAM_MAIL_LIMITS. A notice past it is held, never lost: its request is stored, and
 * after its clock hour one digest, keyed by the hour (sent once), lists the hour's held notices.
 * They wait in the mail ledger's KV, a key per hour: a hold writes only the current hour's, a digest
 * reads only hours ended DIGEST_SETTLE_MS ago (KV settles within a minute), never the same key. The next
 * team notice and the hourly cron (TEAM_DIGEST_CRON) send digests: only then is this loaded.
 */
import { keyedSerialiser, normaliseEmail } from '#src/lib/forms/submission.ts';
import { FORM_LIST } from '#src/lib/forms/forms.ts';
import { type HeldHour, type HeldNotice, teamDigest } from './emails.ts';
import type { MailLedger, MailLedgerKv } from './ledger.ts';
import { errorMessage, type MailAddress, type MailJob } from './message.ts';

/** The most notices the team gets in any hour (a digest after that). */
export const TEAM_NOTICES_PER_HOUR = 30;

const HOUR_MS = 60 * 60 * 1000;
/** The ceiling as mail limits, counted in the ledger under TEAM_INBOX. */
const TEAM_HOURLY_LIMITS = { minGapMs: 0, perWindow: TEAM_NOTICES_PER_HOUR, windowMs: HOUR_MS };
const TEAM_INBOX = 'team-inbox';

/** The Cron Trigger that sends the digests (wrangler.jsonc `triggers.crons`): five past every hour. */
export const TEAM_DIGEST_CRON = '5 * * * *';

/** How long after its hour ends a held list is read: every hold in it has settled in KV. */
const DIGEST_SETTLE_MS = 2 * 60 * 1000;
/** How many ended hours a digest run looks back over (the cron runs every hour). */
const LOOKBACK_HOURS = 6;
/** The most notices one digest lists; it counts the rest (all are in the base). */
const MAX_LISTED = 500;
const HELD_PREFIX = 'team-held:';
const HELD_TTL_SECONDS = 2 * 24 * 60 * 60;

const hourOf = (at: number) => Math.floor(at / HOUR_MS);

/** The held notices in the mail ledger's KV, one key per clock hour. */
export function heldNotices(kv: MailLedgerKv) {
  const read = async (hour: number): Promise<{ notices: HeldNotice[]; more: number }> => {
    try {
      const parsed = JSON.parse((await kv.get(HELD_PREFIX + hour)) ?? '{}') as Partial<HeldHour>;
      return { notices: Array.isArray(parsed.notices) ? parsed.notices : [], more: Number(parsed.more) || 0 };
    } catch {
      return { notices: [], more: 0 };
    }
  };
  const write = (hour: number, held: { notices: HeldNotice[]; more: number }) =>
    kv.put(HELD_PREFIX + hour, JSON.stringify(held), { expirationTtl: HELD_TTL_SECONDS });
  // An hour's list rewritten later keeps the expiry it had (its hour's end plus HELD_TTL_SECONDS),
  // or a minute from now, the soonest KV takes.
  const rewrite = (hour: number, held: { notices: HeldNotice[]; more: number }, now: Date) =>
    kv.put(HELD_PREFIX + hour, JSON.stringify(held), {
      expiration: Math.max(
        ((hour + 1) * HOUR_MS) / 1000 + HELD_TTL_SECONDS,
        Math.ceil(now.getTime() / 1000) + 60,
      ),
    });
  const oneAtATime = keyedSerialiser();
  // Hours before this one this store has read since they ended (and sent their digests).
  let readBefore = 0;
  return {
    hold: (notice: HeldNotice, at: Date) => {
      const hour = hourOf(at.getTime());
      return oneAtATime(String(hour), async () => {
        const held = await read(hour);
        if (held.notices.length < MAX_LISTED) held.notices.push(notice);
        else held.more += 1;
        await write(hour, held);
      });
    },
    /** The ended hours that hold notices, oldest first; `sent(hour)` once its digest is queued. */
    async ended(now: Date) {
      const last = hourOf(now.getTime() - DIGEST_SETTLE_MS) - 1;
      const found: (HeldHour & { hour: number })[] = [];
      for (let hour = Math.max(readBefore, last - LOOKBACK_HOURS + 1); hour <= last; hour += 1) {
        const held = await read(hour);
        const startsAt = new Date(hour * HOUR_MS).toISOString();
        if (held.notices.length + held.more > 0) found.push({ hour, startsAt, ...held });
      }
      readBefore = last + 1;
      return found;
    },
    sent: (hour: number) => write(hour, { notices: [], more: 0 }),
    /** Erasure (Article 17): drops `contact`'s notices from every hour still kept; how many went. */
    async erase(contact: string, now: Date): Promise<number> {
      const address = normaliseEmail(contact);
      const last = hourOf(now.getTime());
      let erased = 0;
      for (let hour = last - (HELD_TTL_SECONDS * 1000) / HOUR_MS; hour <= last; hour += 1)
        await oneAtATime(String(hour), async () => {
          const held = await read(hour);
          const notices = held.notices.filter((notice) => normaliseEmail(notice.contact) !== address);
          if (notices.length === held.notices.length) return;
          erased += held.notices.length - notices.length;
          await rewrite(hour, { ...held, notices }, now);
        });
      return erased;
    },
  };
}

// One store per ledger (a ledger's KV namespace, or its memory), as the ledger's own lifetime.
const stores = new WeakMap<MailLedger, ReturnType<typeof heldNotices>>();
function heldOf(ledger: MailLedger) {
  const store = stores.get(ledger) ?? heldNotices(ledger.kv);
  stores.set(ledger, store);
  return store;
}

/** Erasure (Article 17): `contact`'s notices held for a digest, dropped from the ledger's KV; how many. */
export function eraseHeldNotices(kv: MailLedgerKv, contact: string, now: Date): Promise<number> {
  return heldNotices(kv).erase(contact, now);
}

/** Whether the team's inbox takes one more notice now; if not, it is held for its hour's digest. */
export async function admitNotice(ledger: MailLedger, notice: HeldNotice, at: Date): Promise<boolean> {
  if (await ledger.reserve(TEAM_INBOX, at, TEAM_HOURLY_LIMITS)) return true;
  await heldOf(ledger).hold(notice, at);
  return false;
}

/** What queueing a digest needs of the Worker's mail (setup.ts's WorkerMail). */
interface DigestMail {
  settings: { from: MailAddress; schoolsTeamEmail: string };
  ledger: MailLedger;
  enqueue(job: MailJob): Promise<void>;
  deadLetter?: ((job: MailJob, reason: string) => Promise<void>) | undefined;
}

/**
 * Queues the digest of every ended hour with held notices (at most one per hour), then empties its
 * list. A digest that cannot be queued is kept as a dead letter; with nowhere to keep it, its
 * list stays for the next run.
 */
export async function queueTeamDigests(
  mail: DigestMail,
  now: Date,
  log: (line: string) => void = (line) => console.error(line),
): Promise<number> {
  const { from, schoolsTeamEmail } = mail.settings;
  // The job's form, for the dead letters' listing: the one that tells the team.
  const form = FORM_LIST.find((candidate) => candidate.conduct.tellsTeam)?.name ?? '';
  const store = heldOf(mail.ledger);
  const queuedAt = now.toISOString();
  let queued = 0;
  for (const held of await store.ended(now)) {
    const message = await teamDigest({ from }, schoolsTeamEmail, held, TEAM_NOTICES_PER_HOUR);
    const job: MailJob = { kind: 'mail', message, email: schoolsTeamEmail, form, queuedAt };
    try {
      await mail.enqueue(job);
      queued += 1;
    } catch (error) {
      const reason = `could not be queued: ${errorMessage(error)}`;
      log(
        `Mailer: the schools team's digest ${reason}; kept ${mail.deadLetter ? 'as a dead letter' : 'for the next run'}`,
      );
      if (!mail.deadLetter) continue;
      await mail.deadLetter(job, reason).catch(() => undefined);
    }
    await store.sent(held.hour);
  }
  return queued;
}
