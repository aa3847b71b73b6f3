/**
 * The owner's dead-letter endpoint (`npm run dead-letters`, the privacy commands): lists, replays and
 * erases the dead letters (dead-letters.ts) behind ADMIN_TOKEN; loaded when asked, never on a sign-up's path.
 */
import { normaliseEmail } from '#src/lib/forms/submission.ts';
import { formNamed } from '#src/lib/forms/forms.ts';
import type { DeskErasure } from '#src/server/desk/erasure.ts';
import {
  ADMIN_ATTEMPTS_PER_MINUTE,
  clientLimitKey,
  createWindowLimiter,
  type Limiter,
} from '#src/server/doors/limiters.ts';
import type { WorkerMailEnv } from '#src/server/mail/setup.ts';
import { adminTokenProblem } from '#src/server/settings.ts';
import { type DeadLetter, listDeadLetters } from './dead-letters.ts';
import type { SubmissionQueue } from './messages.ts';

/** Where the admin endpoint answers, on the site's origin. */
export const DEAD_LETTERS_PATH = '/api/dead-letters';

/**
 * What a letter is about: its kind, and the table and address the owner's listing shows; and every
 * address it holds (a team notification's contact, too), to be matched as the site matches emails.
 */
function aboutLetter(letter: DeadLetter) {
  if ('mail' in letter) {
    const { form, email, message } = letter.mail;
    const addresses = [email, message.to, ...(message.replyTo ? [message.replyTo] : [])];
    return { kind: 'mail', table: formNamed(form)?.table ?? '', email, addresses };
  }
  if ('submission' in letter) {
    const { table, email } = letter.submission;
    return { kind: 'submission', table, email, addresses: [email] };
  }
  const email = (letter.unreadable as { email?: unknown } | null)?.email;
  return { kind: 'unreadable', table: '', email: '', addresses: typeof email === 'string' ? [email] : [] };
}

/** Constant-time comparison, so the token cannot be guessed by timing. */
function sameToken(given: string, expected: string): boolean {
  const a = new TextEncoder().encode(given);
  const b = new TextEncoder().encode(expected);
  let difference = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) difference |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return difference === 0;
}

/** How long a wrong token waits for its answer: a guesser gets one try a second at best. */
export const ADMIN_FAILURE_DELAY_MS = 1_000;

// Per isolate where the Worker has no ADMIN_LIMITER binding: attempts per address (an IPv6 one per /64).
const fallbackAdminLimiter = createWindowLimiter({ limit: ADMIN_ATTEMPTS_PER_MINUTE });

export interface DeadLetterAdminOptions {
  clientAddress: string;
  /** Counts attempts per address (the Worker's ADMIN_LIMITER binding). */
  limiter?: Limiter;
  /** How long a failed attempt waits (tests pass 0). */
  failureDelayMs?: number;
  /** Erasure's reach into the desk: its waiting submissions of the email (desk/erasure.ts's eraseAddress). */
  eraseWaiting?: (email: string) => Promise<DeskErasure>;
  /** Erasure's reach into the mail (ledger.ts's mark, team-inbox.ts's held notices); `teamNotices`: how many. */
  eraseMail?: (email: string) => Promise<{ teamNotices: number }>;
}

export interface DeadLetterAdminEnv extends Pick<WorkerMailEnv, 'DEAD_LETTERS' | 'MAIL_JOBS'> {
  ADMIN_TOKEN?: string;
  SUBMISSIONS?: SubmissionQueue;
}

/**
 * GET  /api/dead-letters         → { count, letters: [{ key, kind, table, email, reason, failedAt }] }
 *                                  (kind: 'submission' not stored, 'mail' not sent, or 'unreadable')
 * POST /api/dead-letters/replay  → re-queues and deletes each letter it can (a submission to SUBMISSIONS,
 *                                  for the writer; an email to MAIL_JOBS while bound); { replayed }
 * POST /api/dead-letters/erase   { email } → deletes that email's letters, its submissions waiting
 *                                  to be written and its team notices held for a digest, and stops
 *                                  its emails still queued; { erased, waiting, stillWriting, teamNotices }
 * Without ADMIN_TOKEN or the SUBMISSIONS queue the endpoint does not exist (404); a wrong token gets 401.
 */
export async function handleDeadLetterAdmin(
  request: Request,
  env: DeadLetterAdminEnv,
  options: DeadLetterAdminOptions = { clientAddress: 'unknown' },
): Promise<Response> {
  const { DEAD_LETTERS: store, SUBMISSIONS: queue, MAIL_JOBS: jobs } = env;
  const expected = env.ADMIN_TOKEN?.trim();
  if (!expected || !store || !queue) return new Response('Not found', { status: 404 });
  const weak = adminTokenProblem(expected);
  if (weak) {
    console.warn(`Dead-letter admin is off: ${weak}`);
    return Response.json({ error: 'ADMIN_TOKEN is too short; the endpoint is off' }, { status: 503 });
  }
  // Every attempt counts (the owner's command makes one or two): past the limit even the right
  // token waits, so a guesser cannot learn anything from the answers of its later tries.
  const allowed = await (options.limiter ?? fallbackAdminLimiter).take(clientLimitKey(options.clientAddress));
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
  // Each route lists the store when it needs it (erasure after the writer's wait), once.
  if (request.method === 'GET' && pathname === DEAD_LETTERS_PATH) {
    const letters = (await listDeadLetters(store)).map(({ key, letter }) => {
      const { kind, table, email } = aboutLetter(letter);
      return { key, kind, table, email, reason: letter.reason, failedAt: letter.failedAt };
    });
    return Response.json({ count: letters.length, letters });
  }
  if (request.method === 'POST' && pathname === `${DEAD_LETTERS_PATH}/erase`) {
    // Erasure (Article 17): its letters go too, matched as the site matches emails (no JSON, no email).
    const posted = (await request.json().catch(() => null)) as { email?: unknown } | null;
    const target = normaliseEmail(String(posted?.email ?? ''));
    if (!target) return Response.json({ error: 'email required' }, { status: 400 });
    // The waiting submissions first: one that fails now becomes no dead letter after this.
    const nothing = { erased: 0, stillWriting: false };
    const { erased: waiting, stillWriting } = (await options.eraseWaiting?.(target)) ?? nothing;
    const holds = (letter: DeadLetter) => aboutLetter(letter).addresses.map(normaliseEmail).includes(target);
    const gone = (await listDeadLetters(store)).filter(({ letter }) => holds(letter));
    for (const { key } of gone) await store.delete(key);
    // After the writer's rounds of it are done: the emails they queued are older than the mark.
    const mail = await options.eraseMail?.(target);
    return Response.json({ erased: gone.length, waiting, stillWriting, teamNotices: mail?.teamNotices ?? 0 });
  }
  if (request.method === 'POST' && pathname === `${DEAD_LETTERS_PATH}/replay`) {
    const json = { contentType: 'json' } as const;
    let replayed = 0;
    for (const { key, letter } of await listDeadLetters(store)) {
      if ('unreadable' in letter || ('mail' in letter && !jobs)) continue;
      await ('mail' in letter ? jobs?.send(letter.mail, json) : queue.send(letter.submission, json));
      await store.delete(key);
      replayed += 1;
    }
    return Response.json({ replayed });
  }
  return Response.json({ error: 'not found' }, { status: 404 });
}
