/**
 * One email the Worker's queue writer decided to send, as a message on the mail queue
 * (wrangler.jsonc `MAIL_JOBS`): built, signed and counted against the recipient's limits when its
 * record was written, sent later by the mail queue's consumer (mail-queue.ts). One job per email,
 * so a retried send never repeats the emails of its submission that already went out.
 */
import type { MailMessage } from './message.ts';
import type { LinkForm } from './signed-link.ts';

export interface MailJob {
  readonly kind: 'mail';
  /** The message as it will be sent; its idempotency key is the submission's key and the email's kind. */
  readonly message: MailMessage;
  /** The submission's address (the contact's, for the schools team's notification): erasure finds it by this. */
  readonly email: string;
  readonly form: LinkForm;
  /** When the write that caused it was done (ISO 8601). */
  readonly queuedAt: string;
}

const isText = (value: unknown): value is string => typeof value === 'string';

/** Whether a value is a whole mail message (a job's, or one posted to the local outbox). */
export function isMailMessage(value: unknown): value is MailMessage {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as Partial<MailMessage>;
  return (
    isText(message.to) &&
    isText(message.subject) &&
    isText(message.text) &&
    isText(message.html) &&
    isText(message.idempotencyKey) &&
    typeof message.from === 'object' &&
    message.from !== null &&
    isText(message.from.email) &&
    typeof message.headers === 'object' &&
    message.headers !== null
  );
}

/** Whether a queue message's body is a mail job (rather than a submission). */
export function isMailJob(body: unknown): body is MailJob {
  if (typeof body !== 'object' || body === null) return false;
  const job = body as Partial<MailJob>;
  return (
    job.kind === 'mail' &&
    isText(job.email) &&
    (job.form === 'waitlist' || job.form === 'quote') &&
    isText(job.queuedAt) &&
    isMailMessage(job.message)
  );
}
