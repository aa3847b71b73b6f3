/**
 * No mail bombing: one inbox gets at most one email from the site per 10 minutes and at most 3
 * in any 24 hours, however many clients submit it and whichever form they use. Counted per inbox
 * (`inboxKey`: `+tags`, Gmail's dots and googlemail.com are one inbox), since that is whose
 * letterbox fills up.
 *
 * The rule is a pure function of the times already sent; a ledger keeps those times where the
 * the Worker can: in KV (MAIL_LEDGER; the Vite plugin's local stand-in in local runs), read and
 * written by the queue consumer, which runs one batch at a time (`max_concurrency: 1`), so its
 * reads see its own writes; in memory where KV is not bound (tests).
 */

export const MAIL_LIMITS = {
  /** The least time between two emails to one inbox. */
  minGapMs: 10 * 60 * 1000,
  /** At most this many emails to one inbox... */
  perWindow: 3,
  /** ...in any window this long. */
  windowMs: 24 * 60 * 60 * 1000,
} as const;

/** Whether one more email may go to an inbox that was sent mail at `sentAt` (ms since epoch). */
export function mayEmail(sentAt: readonly number[], now: number): boolean {
  const recent = sentAt.filter((at) => now - at < MAIL_LIMITS.windowMs);
  if (recent.length >= MAIL_LIMITS.perWindow) return false;
  return recent.every((at) => now - at >= MAIL_LIMITS.minGapMs);
}

/** The send times still worth keeping at `now` (those inside the window). */
export function stillCounted(sentAt: readonly number[], now: number): number[] {
  return sentAt.filter((at) => now - at < MAIL_LIMITS.windowMs);
}

/** `sentAt` with one entry equal to `at` removed. */
function withoutOne(sentAt: readonly number[], at: number): number[] {
  const index = sentAt.indexOf(at);
  return index < 0 ? [...sentAt] : [...sentAt.slice(0, index), ...sentAt.slice(index + 1)];
}

/** Where the send times per inbox are kept. */
export interface MailLedger {
  /** Records a send to `inbox` at `now` and answers true, or answers false and records nothing. */
  reserve(inbox: string, now: Date): Promise<boolean>;
  /** Gives back a reservation made at `now` whose email did not go out, so its retry may send. */
  release(inbox: string, now: Date): Promise<void>;
}

/** A ledger in this process's memory. */
export function memoryMailLedger(): MailLedger {
  const sent = new Map<string, number[]>();
  return {
    async reserve(inbox, now) {
      const at = now.getTime();
      const kept = stillCounted(sent.get(inbox) ?? [], at);
      if (!mayEmail(kept, at)) {
        sent.set(inbox, kept);
        return false;
      }
      sent.set(inbox, [...kept, at]);
      return true;
    },
    async release(inbox, now) {
      sent.set(inbox, withoutOne(sent.get(inbox) ?? [], now.getTime()));
    },
  };
}

/** The part of a Workers KV namespace the ledger uses. */
export interface MailLedgerKv {
  get(key: string): Promise<string | null>;
  put(key: string, value: string, options?: { expirationTtl?: number }): Promise<void>;
}

const KV_PREFIX = 'mail-ledger:';

/** A ledger in Workers KV: one key per inbox, expiring a day after its last send. */
export function kvMailLedger(kv: MailLedgerKv): MailLedger {
  const read = async (key: string): Promise<number[]> => {
    try {
      const parsed: unknown = JSON.parse((await kv.get(key)) ?? '[]');
      return Array.isArray(parsed)
        ? parsed.filter((value): value is number => typeof value === 'number')
        : [];
    } catch {
      return [];
    }
  };
  const write = (key: string, sent: readonly number[]) =>
    kv.put(key, JSON.stringify(sent), { expirationTtl: Math.ceil(MAIL_LIMITS.windowMs / 1000) });
  return {
    async reserve(inbox, now) {
      const key = KV_PREFIX + inbox;
      const at = now.getTime();
      const kept = stillCounted(await read(key), at);
      if (!mayEmail(kept, at)) return false;
      await write(key, [...kept, at]);
      return true;
    },
    async release(inbox, now) {
      const key = KV_PREFIX + inbox;
      await write(key, withoutOne(await read(key), now.getTime()));
    },
  };
}
