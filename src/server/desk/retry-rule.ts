/**
 * A submission's one retry rule and its one dead-letter path. The desk keeps a submission until its
 * round writes it; a failed write waits (waitSeconds) and is tried again, SUBMISSION_TRIES in all,
 * then becomes a dead letter (deadLetter). The queues only carry: a delivery the desk could not take
 * is retried QUEUE_RETRIES times (wrangler.jsonc; tests/unit/retry-rule.test.ts holds the two
 * together), then its dead-letter queue hands it to the desk as well. Only on that queue's last try,
 * the desk unreachable for 22 handovers over about 40 minutes, does the consumer keep it through
 * deadLetter itself: a letter the owner can replay beats a message Cloudflare deletes.
 */
import { isSubmission } from '#src/lib/forms/submission.ts';
import { AIRTABLE_RATE_LIMIT_PENALTY_MS } from '#src/server/airtable/pacer.ts';
import { MAIL_PROBLEM_RETRY_SECONDS } from '#src/server/mail/setup.ts';
import type { DeadLetterStore } from '#src/server/queues/dead-letters.ts';
import { backoffSeconds } from '#src/server/queues/messages.ts';

/** Retries of a delivery by podling-submissions, and by its dead-letter queue (wrangler.jsonc). */
export const QUEUE_RETRIES = 10;
/** A dead-letter queue's name: its queue's, and this (wrangler.jsonc names each so). */
export const DEAD_QUEUE_SUFFIX = '-dead';
/** Tries of one submission's write: as many as the queue's deliveries of one message. */
export const SUBMISSION_TRIES = QUEUE_RETRIES + 1;

/** Why a write waits for its next try: `broke-off`, its round ended unexpectedly (its writer threw). */
export type WaitCause = 'failed' | 'rate-limited' | 'mail-problem' | 'broke-off';

/** The wait, in seconds, before the next try of a write tried `attempts` times so far. */
export function waitSeconds(attempts: number, cause: WaitCause): number {
  if (cause === 'rate-limited') return Math.ceil(AIRTABLE_RATE_LIMIT_PENALTY_MS / 1000);
  if (cause === 'mail-problem') return MAIL_PROBLEM_RETRY_SECONDS;
  return cause === 'broke-off' ? 2 : backoffSeconds(attempts);
}

/**
 * The one dead-letter path of a submission (`body`: it, or what a queue message held instead): kept
 * in DEAD_LETTERS for the owner to list and replay (the store loads only on a failure), told to `log`.
 */
export async function deadLetter(
  store: DeadLetterStore | undefined,
  body: unknown,
  reason: string,
  log?: (line: string) => void,
): Promise<void> {
  const letter = isSubmission(body) ? { submission: body } : { unreadable: body };
  if (store)
    await (await import('#src/server/queues/dead-letters.ts')).keepDeadLetter(store, { ...letter, reason });
  log?.(`Airtable writer: ${reason}; ${store ? 'kept as a dead letter' : 'dropped (no DEAD_LETTERS)'}`);
}
