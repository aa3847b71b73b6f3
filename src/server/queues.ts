/**
 * What the Worker's two queue consumers share (the submissions' writer, queue-writer.ts, and the
 * mail's sender, mail.ts): the messages Cloudflare Queues hands them, the backoff of a retry, and
 * the dead letters a message ends as when it cannot be delivered.
 */
import { AIRTABLE_RATE_LIMIT_PENALTY_MS } from './pacer.ts';
import {
  ADMIN_ATTEMPTS_PER_MINUTE,
  clientLimitKey,
  createWindowLimiter,
  type Limiter,
} from './client-limits.ts';
import type { Submission } from '#src/lib/forms/submission.ts';
import type { MailJob } from './mail.ts';
import { normaliseEmail } from '#src/lib/airtable/schema.ts';
import { FORMS } from '#src/lib/forms/forms.ts';

/** The parts of Cloudflare's MessageBatch the writer uses. */
export interface QueueMessage {
  readonly id: string;
  readonly body: unknown;
  readonly attempts: number;
  ack(): void;
  retry(options?: { delaySeconds?: number }): void;
}
export interface QueueBatch {
  readonly queue: string;
  readonly messages: readonly QueueMessage[];
}

/** Backoff for transient failures, in seconds: 2, 4, 8 … capped at 5 minutes. */
export function retryDelaySeconds(attempts: number, rateLimited: boolean): number {
  if (rateLimited) return Math.ceil(AIRTABLE_RATE_LIMIT_PENALTY_MS / 1000);
  return Math.min(300, 2 ** Math.max(1, attempts));
}

/**
 * Dead letters: submissions the queue's writer could not store (a field the base lacks, a
 * token without write access) or whose retries ran out, and emails the mail queue could not
 * send (a refused sender or recipient, retries run out). They are kept in a KV namespace bound
 * as DEAD_LETTERS, listed and replayed by the owner through the Worker's admin endpoint
 * (`npm run dead-letters`), which needs the ADMIN_TOKEN secret. They hold emails: the endpoint
 * answers nothing without the token, and a replayed letter is deleted.
 */

/** wrangler.jsonc names the dead-letter queue after the submissions queue plus this suffix. */
export const DEAD_LETTER_QUEUE_SUFFIX = '-dead';
/** Where the admin endpoint answers, on the site's origin. */
export const DEAD_LETTERS_PATH = '/api/dead-letters';
const KEY_PREFIX = 'dead:';

/** A submission that was not stored, or an email that was not sent (its record was). */
export type DeadLetter =
  | { submission: Submission; reason: string; failedAt: string }
  | { mail: MailJob; reason: string; failedAt: string };

/** What the owner's listing shows of a letter: the table and address it is about. */
function describeLetter(letter: DeadLetter) {
  return 'mail' in letter
    ? { kind: 'mail', table: FORMS[letter.mail.form].table, email: letter.mail.email }
    : { kind: 'submission', table: letter.submission.table, email: letter.submission.email };
}

/** Every address a letter holds (a team notification's contact, too), as the site matches emails. */
function addressesOf(letter: DeadLetter): string[] {
  if (!('mail' in letter)) return [normaliseEmail(letter.submission.email)];
  const { message } = letter.mail;
  return [letter.mail.email, message.to, ...(message.replyTo ? [message.replyTo] : [])].map(normaliseEmail);
}

/** The parts of a Cloudflare KV namespace used here. */
export interface DeadLetterStore {
  put(key: string, value: string): Promise<void>;
  get(key: string): Promise<string | null>;
  delete(key: string): Promise<void>;
  list(options?: { prefix?: string; cursor?: string }): Promise<{
    keys: { name: string }[];
    list_complete: boolean;
    cursor?: string;
  }>;
}

export async function keepDeadLetter(store: DeadLetterStore, letter: DeadLetter): Promise<void> {
  const suffix = crypto.randomUUID();
  await store.put(`${KEY_PREFIX}${letter.failedAt}:${suffix}`, JSON.stringify(letter));
}

export async function listDeadLetters(
  store: DeadLetterStore,
): Promise<{ key: string; letter: DeadLetter }[]> {
  const found: { key: string; letter: DeadLetter }[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.list({ prefix: KEY_PREFIX, cursor });
    for (const { name } of page.keys) {
      const value = await store.get(name);
      if (value) found.push({ key: name, letter: JSON.parse(value) as DeadLetter });
    }
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return found;
}

/** Constant-time comparison, so the token cannot be guessed by timing. */
function sameToken(given: string, expected: string): boolean {
  const a = new TextEncoder().encode(given);
  const b = new TextEncoder().encode(expected);
  let difference = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) difference |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return difference === 0;
}

/** Shortest ADMIN_TOKEN the endpoint accepts: a token a person picks is guessed, a random one is not. */
export const ADMIN_TOKEN_MIN_LENGTH = 32;
/** How long a wrong token waits for its answer: a guesser gets one try a second at best. */
export const ADMIN_FAILURE_DELAY_MS = 1_000;

/** Why the configured token is refused, or null when it is strong enough. */
export function adminTokenProblem(token: string | undefined): string | null {
  const length = token?.trim().length ?? 0;
  return length > 0 && length < ADMIN_TOKEN_MIN_LENGTH
    ? `ADMIN_TOKEN is ${length} characters; use at least ${ADMIN_TOKEN_MIN_LENGTH} random ones (openssl rand -hex 32)`
    : null;
}

// Per isolate where the Worker has no ADMIN_LIMITER binding: attempts per address (an IPv6 one per /64).
// Made on first use: this module and the request check import each other.
let fallbackAdminLimiter: Limiter | undefined;

export interface DeadLetterAdminOptions {
  clientAddress: string;
  /** Counts attempts per address (the Worker's ADMIN_LIMITER binding). */
  limiter?: Limiter;
  /** How long a failed attempt waits (tests pass 0). */
  failureDelayMs?: number;
  /** Puts an unsent email back on the mail queue; without it, mail letters are kept on replay. */
  requeueMail?: (job: MailJob) => Promise<void>;
}

export interface DeadLetterAdminEnv {
  ADMIN_TOKEN?: string;
  DEAD_LETTERS?: DeadLetterStore;
}

/**
 * GET  /api/dead-letters         → { count, letters: [{ key, kind, table, email, reason, failedAt }] }
 *                                  (kind: 'submission' not stored, or 'mail' not sent)
 * POST /api/dead-letters/replay  → re-queues every letter (a submission to the writer, an email
 *                                  to the mail queue), deletes it; { replayed }
 * POST /api/dead-letters/erase   { email } → deletes that email's letters; { erased }
 * Without ADMIN_TOKEN configured the endpoint does not exist (404); a wrong token gets 401.
 */
export async function handleDeadLetterAdmin(
  request: Request,
  env: DeadLetterAdminEnv,
  requeue: (submission: Submission) => Promise<void>,
  options: DeadLetterAdminOptions = { clientAddress: 'unknown' },
): Promise<Response> {
  const expected = env.ADMIN_TOKEN?.trim();
  const store = env.DEAD_LETTERS;
  if (!expected || !store) return new Response('Not found', { status: 404 });
  const weak = adminTokenProblem(expected);
  if (weak) {
    console.warn(`Dead-letter admin is off: ${weak}`);
    return Response.json({ error: 'ADMIN_TOKEN is too short; the endpoint is off' }, { status: 503 });
  }
  // Every attempt counts (the owner's command makes one or two): past the limit even the right
  // token waits, so a guesser cannot learn anything from the answers of its later tries.
  const allowed = await (
    options.limiter ?? (fallbackAdminLimiter ??= createWindowLimiter({ limit: ADMIN_ATTEMPTS_PER_MINUTE }))
  ).take(clientLimitKey(options.clientAddress));
  if (!allowed.ok)
    return Response.json(
      { error: 'too many attempts' },
      { status: 429, headers: { 'retry-after': String(allowed.retryAfterSeconds) } },
    );
  const given = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1] ?? '';
  if (!sameToken(given, expected)) {
    const delay = options.failureDelayMs ?? ADMIN_FAILURE_DELAY_MS;
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    return Response.json({ error: 'unauthorized' }, { status: 401 });
  }
  const { pathname } = new URL(request.url);
  const letters = await listDeadLetters(store);
  if (request.method === 'GET' && pathname === DEAD_LETTERS_PATH) {
    return Response.json({
      count: letters.length,
      letters: letters.map(({ key, letter }) => ({
        key,
        ...describeLetter(letter),
        reason: letter.reason,
        failedAt: letter.failedAt,
      })),
    });
  }
  if (request.method === 'POST' && pathname === `${DEAD_LETTERS_PATH}/erase`) {
    // Erasure (Article 17): the email's letters go too, matched as the site matches emails.
    // Not JSON: no email, nothing erased.
    const posted = (await request.json().catch(() => null)) as { email?: unknown } | null;
    const email = String(posted?.email ?? '');
    if (!email.trim()) return Response.json({ error: 'email required' }, { status: 400 });
    const target = normaliseEmail(email);
    let erased = 0;
    for (const { key, letter } of letters) {
      if (!addressesOf(letter).includes(target)) continue;
      await store.delete(key);
      erased += 1;
    }
    return Response.json({ erased });
  }
  if (request.method === 'POST' && pathname === `${DEAD_LETTERS_PATH}/replay`) {
    let replayed = 0;
    for (const { key, letter } of letters) {
      if ('mail' in letter) {
        if (!options.requeueMail) continue;
        await options.requeueMail(letter.mail);
      } else await requeue(letter.submission);
      await store.delete(key);
      replayed += 1;
    }
    return Response.json({ replayed });
  }
  return Response.json({ error: 'not found' }, { status: 404 });
}
