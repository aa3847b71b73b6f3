/**
 * The mail consumer's send loop: each job of a batch sent once (the sent marks), none sent whose
 * address was erased after it was queued, a failure retried or, for good, kept as a dead letter.
 */
import type { MailLedger } from './ledger.ts';
import { errorMessage, type MailJob, MailFailure, type Mailer } from './message.ts';
import { backoffSeconds, type QueueMessage } from '#src/server/queues/messages.ts';

/** A mail queue's message, as the send loop acks or retries it, and its job. */
type Delivery = { message: Pick<QueueMessage, 'attempts' | 'ack' | 'retry'>; job: MailJob };

/** Emails sent at once within a batch. */
const SEND_CONCURRENCY = 6;

/** Sends one batch of mail jobs; every message is acked or retried before it returns. */
export async function sendMailJobs(
  messages: readonly Delivery[],
  options: {
    mailer: Mailer;
    ledger: Pick<MailLedger, 'hasSent' | 'markSent' | 'erasedAt'>;
    /** Where an email no retry can send goes (the dead letters); without it, the queue's DLQ. */
    deadLetter?: (job: MailJob, reason: string) => Promise<void>;
    log?: (message: string) => void;
  },
) {
  const log = options.log ?? ((line: string) => console.log(line));
  // For the log; alreadySent: redelivered after it went out; erased: queued before its erasure, so unsent.
  const report = { sent: 0, alreadySent: 0, erased: 0, retried: 0, deadLettered: 0 };
  const settle = async (job: MailJob, attempts: number): Promise<keyof typeof report> => {
    const [sent, erasedAt] = await Promise.all([
      options.ledger.hasSent(job.message.idempotencyKey),
      options.ledger.erasedAt(job.email),
    ]);
    if (sent) return 'alreadySent';
    // A job without a readable time is older than any erasure.
    if (erasedAt !== undefined && !(Date.parse(job.queuedAt) > erasedAt)) return 'erased';
    try {
      await options.mailer.send(job.message);
      return 'sent';
    } catch (error) {
      const reason = errorMessage(error);
      if (error instanceof MailFailure && !error.retryable && options.deadLetter) {
        await options.deadLetter(job, reason);
        log(`Mailer: an email could not be sent (${reason}); kept as a dead letter`);
        return 'deadLettered';
      }
      log(`Mailer: an email failed (attempt ${attempts}: ${reason}); retrying`);
      return 'retried';
    }
  };
  const sendOne = async ({ message, job }: Delivery) => {
    const outcome = await settle(job, message.attempts);
    report[outcome] += 1;
    if (outcome === 'retried') message.retry({ delaySeconds: backoffSeconds(message.attempts) });
    else message.ack();
    // The email went out: should its mark fail, a redelivery may send it again, as a retry would for sure.
    if (outcome === 'sent')
      await options.ledger.markSent(job.message.idempotencyKey).catch((error: unknown) => {
        log(`Mailer: an email went out but could not be marked sent (${String(error)})`);
      });
  };
  const queue = [...messages];
  const workers = Array.from({ length: SEND_CONCURRENCY }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await sendOne(next);
  });
  await Promise.all(workers);
  return report;
}
