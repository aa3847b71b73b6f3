/**
 * The schools team's inbox has a ceiling no stranger passes (docs/consent.md): at most
 * TEAM_NOTICES_PER_HOUR notices in any hour, all contacts together, besides the cap per contact
 * (mail.ts's TEAM_MAIL_LIMITS). A notice past the ceiling is held back, never lost: its quote is
 * stored as ever, and once its clock hour has ended, one digest lists every quote held back in it
 * (when, school, contact). The digest is one email, keyed by its hour, so a retried send (or a
 * second planner) is the same email, which the mail queue's sent marks send once.
 *
 * Where the held quotes wait: the mail ledger's KV (MAIL_LEDGER; in memory when unbound), one key
 * per clock hour. A hold writes only the current hour's key and a digest reads only hours that
 * ended DIGEST_SETTLE_MS ago (KV's reads settle within a minute), so the two never write the same
 * key. What sends the digest: the next write that makes a team notice, and the hourly Cron
 * Trigger (TEAM_DIGEST_CRON, worker.ts), so a held list is never stranded.
 */
import { keyedSerialiser } from '#src/lib/airtable/schema.ts';
import { teamDigest, type TeamNotice } from './emails.ts';
import type { MailJob, MailLedgerKv, WorkerMail } from './mail.ts';

/** The most notices the schools team gets in any hour (a digest after that). */
export const TEAM_NOTICES_PER_HOUR = 30;

const HOUR_MS = 60 * 60 * 1000;

/** The ceiling as mail limits (mail.ts's `reserve`), counted under TEAM_INBOX. */
export const TEAM_HOURLY_LIMITS = { minGapMs: 0, perWindow: TEAM_NOTICES_PER_HOUR, windowMs: HOUR_MS };
export const TEAM_INBOX = 'team-inbox';

/** The Cron Trigger that sends the digests (wrangler.jsonc `triggers.crons`): five past every hour. */
export const TEAM_DIGEST_CRON = '5 * * * *';

/** How long after its hour ends a held list is read: every hold in it has settled in KV. */
const DIGEST_SETTLE_MS = 2 * 60 * 1000;
/** How many ended hours a digest run looks back over (the cron runs every hour). */
const LOOKBACK_HOURS = 6;
/** The most quotes one digest lists; it counts the rest (all are in the base). */
const MAX_LISTED = 500;
const HELD_PREFIX = 'team-held:';
const HELD_TTL_SECONDS = 2 * 24 * 60 * 60;

/** One quote whose notice was held back. */
export interface HeldQuote {
  readonly school: string;
  readonly contact: string;
  /** When it was written (ISO 8601). */
  readonly at: string;
  readonly kind: TeamNotice;
}

/** One hour's held quotes: the hour's start (ISO 8601), those listed, and how many more. */
export interface HeldHour {
  readonly startsAt: string;
  readonly quotes: readonly HeldQuote[];
  readonly more: number;
}

const hourOf = (at: number) => Math.floor(at / HOUR_MS);

/** The held quotes in the mail ledger's KV, one key per clock hour. */
export function heldQuotes(kv: MailLedgerKv) {
  const read = async (hour: number): Promise<{ quotes: HeldQuote[]; more: number }> => {
    try {
      const parsed = JSON.parse((await kv.get(HELD_PREFIX + hour)) ?? '{}') as Partial<HeldHour>;
      return { quotes: Array.isArray(parsed.quotes) ? parsed.quotes : [], more: Number(parsed.more) || 0 };
    } catch {
      return { quotes: [], more: 0 };
    }
  };
  const write = (hour: number, held: { quotes: HeldQuote[]; more: number }) =>
    kv.put(HELD_PREFIX + hour, JSON.stringify(held), { expirationTtl: HELD_TTL_SECONDS });
  const oneAtATime = keyedSerialiser();
  // Hours before this one this store has read since they ended (and sent their digests).
  let readBefore = 0;
  return {
    /** Keeps a quote for its hour's digest. */
    hold: (quote: HeldQuote, at: Date) => {
      const hour = hourOf(at.getTime());
      return oneAtATime(String(hour), async () => {
        const held = await read(hour);
        if (held.quotes.length < MAX_LISTED) held.quotes.push(quote);
        else held.more += 1;
        await write(hour, held);
      });
    },
    /** The ended hours that hold quotes, oldest first; `sent(hour)` once its digest is queued. */
    async ended(now: Date) {
      const last = hourOf(now.getTime() - DIGEST_SETTLE_MS) - 1;
      const found: (HeldHour & { hour: number })[] = [];
      for (let hour = Math.max(readBefore, last - LOOKBACK_HOURS + 1); hour <= last; hour += 1) {
        const held = await read(hour);
        const startsAt = new Date(hour * HOUR_MS).toISOString();
        if (held.quotes.length + held.more > 0) found.push({ hour, startsAt, ...held });
      }
      readBefore = last + 1;
      return found;
    },
    sent: (hour: number) => write(hour, { quotes: [], more: 0 }),
  };
}

/**
 * Queues the digest of every ended hour with held quotes (at most one per hour), then empties its
 * list. A digest that cannot be queued is kept as a dead letter; with nowhere to keep it, its
 * list stays for the next run.
 */
export async function queueTeamDigests(
  mail: Pick<WorkerMail, 'settings' | 'ledger' | 'enqueue' | 'deadLetter'>,
  now: Date,
  log: (line: string) => void = (line) => console.error(line),
): Promise<number> {
  const { from, schoolsTeamEmail } = mail.settings;
  let queued = 0;
  for (const held of await mail.ledger.held.ended(now)) {
    const message = await teamDigest({ from }, schoolsTeamEmail, held, TEAM_NOTICES_PER_HOUR);
    const job: MailJob = {
      kind: 'mail',
      message,
      email: schoolsTeamEmail,
      form: 'quote',
      queuedAt: now.toISOString(),
    };
    try {
      await mail.enqueue(job);
      queued += 1;
    } catch (error) {
      const reason = `could not be queued: ${error instanceof Error ? error.message : String(error)}`;
      log(
        `Mailer: the schools team's digest ${reason}; ${mail.deadLetter ? 'kept as a dead letter' : 'kept for the next run'}`,
      );
      if (!mail.deadLetter) continue;
      await mail.deadLetter(job, reason).catch(() => undefined);
    }
    await mail.ledger.held.sent(held.hour);
  }
  return queued;
}
