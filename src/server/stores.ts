/**
 * Where the request check's accepted submissions go: the queue, drained by the Worker's one paced
 * writer (queue-writer.ts). In every mode (`vite`, `vite preview`, `wrangler dev`, production) the
 * queue is Cloudflare Queues or the local stand-in of Cloudflare's Vite plugin: one write path.
 */
import { AirtableError } from './airtable-client.ts';
import type { Submission } from './submission.ts';

/** One key per submission: its emails keep it, so a retried send is the same email. */
export const submissionMailKey = (submission: Submission) =>
  `${submission.table}:${submission.email}:${submission.acceptedAt}`;

/** Where one submission came from, as the store needs it. */
export interface SaveContext {
  /** The site's origin as the visitor reached it, for the links of the emails it causes. */
  origin?: string;
}

/** Where accepted submissions go. */
export interface SubmissionStore {
  /** Resolves once queued; rejects with an AirtableError the visitor is told of. */
  save(submission: Submission, context?: SaveContext): Promise<void>;
}

/** A submission as queued: with the site's origin the visitor reached, for its emails' links. */
export interface QueuedSubmission extends Submission {
  readonly origin?: string;
}

/** The queue accepted submissions go to (a Cloudflare Queue's producer). */
export interface SubmissionQueue {
  send(submission: QueuedSubmission): Promise<void>;
}

/** Queues each submission for the one paced writer; answers as soon as the queue has it. */
export function createQueueStore(
  queue: SubmissionQueue,
  warn: (message: string) => void = (message) => console.warn(message),
): SubmissionStore {
  return {
    async save(submission, context = {}) {
      try {
        await queue.send(context.origin ? { ...submission, origin: context.origin } : submission);
      } catch (error) {
        warn(
          `Airtable relay: the queue refused a submission (${error instanceof Error ? error.message : 'unknown'})`,
        );
        throw new AirtableError(503, 'SERVICE_UNAVAILABLE', 'Could not accept the submission; try again');
      }
    },
  };
}
