/**
 * What Cloudflare Queues carries (wrangler.jsonc `queues`): a submission on its way from a door to
 * the desk, or an email job on its way to the mail consumer (mail/message.ts's MailJob); the
 * message as the runtime hands it over; and a retried one's backoff.
 */
import type { Submission } from '#src/lib/forms/submission.ts';

/** A submission as queued: with the site's origin the visitor reached, for its emails' links. */
export interface QueuedSubmission extends Submission {
  readonly origin?: string;
}

/** The one paced writer's queue (Cloudflare Queues or its local stand-in); the door answers once sent. */
export interface SubmissionQueue {
  send(submission: QueuedSubmission, options?: { contentType?: 'json' }): Promise<void>;
}

/** The parts of Cloudflare's MessageBatch the consumer uses. */
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

/**
 * A retried message's wait, in seconds, after `attempts` tries: 2, 4, 8 … up to 5 minutes. A
 * queued email's and a handover's; a submission's write waits so too (desk/retry-rule.ts).
 */
export const backoffSeconds = (attempts: number) => Math.min(300, 2 ** Math.max(1, attempts));
