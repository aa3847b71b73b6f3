/**
 * No mail bombing: an inbox (inboxKey) gets at most one email per 10 minutes and 3 per 24 hours, from
 * whoever, on whichever form. Send times in KV (MAIL_LEDGER, else memory), reserved as a write's mail is
 * planned: by the desk (one thread, so it reads its own writes) or a pressed link. Also the sent marks, the
 * erasure marks (an email queued before its address's erasure is not sent) and the team inbox's held notices.
 */
import { keyedSerialiser, normaliseEmail } from '#src/lib/forms/submission.ts';

/**
 * Providers that deliver many spellings to one inbox: their domains as one, and what their user names ignore.
 * Gmail ignores dots (googlemail.com is gmail.com); Proton dots, hyphens and underscores on all its domains;
 * iCloud's three domains are one account. Fastmail's subdomains ('anything@ana.fastmail.com') are read below.
 */
const ONE_INBOX: readonly { domains: readonly string[]; ignored: RegExp }[] = [
  { domains: ['gmail.com', 'googlemail.com'], ignored: /\./g },
  { domains: ['proton.me', 'protonmail.com', 'protonmail.ch', 'pm.me'], ignored: /[._-]/g },
  { domains: ['icloud.com', 'me.com', 'mac.com'], ignored: /(?!)/g },
];
const FASTMAIL_SUBDOMAIN = /^([^.]+)\.(fastmail\.(?:com|fm))$/;

/**
 * The inbox a stored address (canonicalEmail's form) delivers to, for the per-email limits only: no '+tag'
 * (Gmail, Outlook, iCloud, Fastmail, Proton and most others deliver 'ana+x@' to 'ana@'), and ONE_INBOX's
 * providers one domain each, without the characters they ignore: 'A.na+1@googlemail.com' counts as
 * 'ana@gmail.com', 'a_n-a@pm.me' as 'ana@proton.me', 'x@ana.fastmail.com' as 'ana@fastmail.com'. What is
 * stored stays what was typed.
 */
export function inboxKey(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return email;
  let [local, domain] = [email.slice(0, at), email.slice(at + 1)];
  const fastmail = FASTMAIL_SUBDOMAIN.exec(domain);
  if (fastmail) [, local = local, domain = domain] = fastmail;
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  const provider = ONE_INBOX.find((candidate) => candidate.domains.includes(domain));
  if (provider) {
    domain = provider.domains[0] ?? domain;
    local = local.replace(provider.ignored, '') || local;
  }
  return `${local}@${domain}`;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Emails to one visitor's inbox: at least `minGapMs` between two, at most `perWindow` in any `windowMs`. */
export const MAIL_LIMITS = { minGapMs: 10 * 60 * 1000, perWindow: 3, windowMs: DAY_MS };

type MailLimits = typeof MAIL_LIMITS;

/** The team's emails about one contact (new, held, confirmed): a real one causes one or two, a loop five a day. */
export const TEAM_MAIL_LIMITS: MailLimits = { minGapMs: 0, perWindow: 5, windowMs: DAY_MS };

/** Where mail went at `sentAt` (ms since epoch), the sends still counted with one more at `now`; none if refused. */
export function withOneMore(sentAt: readonly number[], now: number, limits: MailLimits = MAIL_LIMITS) {
  const recent = sentAt.filter((at) => now - at < limits.windowMs);
  const allowed = recent.length < limits.perWindow && recent.every((at) => now - at >= limits.minGapMs);
  return allowed ? [...recent, now] : undefined;
}

/** The part of a Workers KV namespace the ledger uses. */
export interface MailLedgerKv {
  get(key: string): Promise<string | null>;
  put(key: string, value: string, options?: { expirationTtl?: number; expiration?: number }): Promise<void>;
}

const KV_PREFIX = 'mail-ledger:';
const SENT_PREFIX = 'mail-sent:';
/** How long a sent mark is kept: far longer than a job's retries, and any replay of its dead letter. */
const SENT_MARK_TTL_SECONDS = 30 * 24 * 60 * 60;
const ERASED_PREFIX = 'mail-erased:';
/** Cloudflare Queues' default retention: nothing queued before an erasure outlives its mark. */
export const ERASURE_MEMORY_MS = 4 * 24 * 60 * 60_000;

/** The key's SHA-256, so no address is a KV key of its own. */
export async function digest(key: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key)));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** KV, a key per inbox expiring a window after its last send, reserved one at a time (atomic per isolate). */
export function kvMailLedger(kv: MailLedgerKv) {
  const read = async (key: string): Promise<number[]> => {
    const parsed: unknown = await kv
      .get(key)
      .then((text) => JSON.parse(text ?? '[]'))
      .catch(() => []);
    return Array.isArray(parsed) ? parsed.filter((value): value is number => typeof value === 'number') : [];
  };
  const oneAtATime = keyedSerialiser();
  const erasedKey = async (email: string) => ERASED_PREFIX + (await digest(normaliseEmail(email)));
  return {
    kv,
    /** Records a send to `inbox` at `now` and answers true, or answers false and records nothing. */
    reserve(inbox: string, now: Date, limits: MailLimits = MAIL_LIMITS): Promise<boolean> {
      const key = KV_PREFIX + inbox;
      const at = now.getTime();
      return oneAtATime(key, async () => {
        const counted = withOneMore(await read(key), at, limits);
        if (!counted) return false;
        await kv.put(key, JSON.stringify(counted), {
          expirationTtl: Math.ceil(limits.windowMs / 1000),
        });
        return true;
      });
    },
    hasSent: async (key: string) => (await kv.get(SENT_PREFIX + (await digest(key)))) !== null,
    markSent: async (key: string) =>
      kv.put(SENT_PREFIX + (await digest(key)), '1', { expirationTtl: SENT_MARK_TTL_SECONDS }),
    /** Remembers that `email` was erased at `at`: the emails queued for it (or about it) before then are not sent. */
    markErased: async (email: string, at: Date) =>
      kv.put(await erasedKey(email), String(at.getTime()), { expirationTtl: ERASURE_MEMORY_MS / 1000 }),
    /** When `email` was last erased (ms since epoch), if within ERASURE_MEMORY_MS. */
    erasedAt: async (email: string): Promise<number | undefined> => {
      const at = Number(await kv.get(await erasedKey(email)));
      return at > 0 ? at : undefined;
    },
  };
}

export type MailLedger = ReturnType<typeof kvMailLedger>;

/** A ledger in this isolate's memory (tests, and a Worker without MAIL_LEDGER). Never expires. */
export function memoryMailLedger() {
  const values = new Map<string, string>();
  return kvMailLedger({
    get: async (key) => values.get(key) ?? null,
    put: async (key, value) => void values.set(key, value),
  });
}
