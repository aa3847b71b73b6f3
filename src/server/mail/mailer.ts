/**
 * The one small mailer: every email the site sends goes through `Mailer.send`, whichever host
 * carries it. This module holds the interface and the Worker's transport (Cloudflare's
 * `send_email` binding); Resend's client (`resend-mailer.ts`) and the local outbox, which writes
 * files (`outbox.ts`), have their own modules so the Worker bundles neither.
 */
import { cleanedForSending, headerAddress, headerText, type MailMessage } from './message.ts';

export type MailerKind = 'cloudflare' | 'resend' | 'outbox';

export interface SentMail {
  /** The transport's id for the message (a file path for the outbox). */
  readonly id: string;
}

export interface Mailer {
  readonly kind: MailerKind;
  /** Sends one message; rejects with a MailFailure. A retry with the same idempotency key is the same message. */
  send(message: MailMessage): Promise<SentMail>;
}

/** A send that did not go out. `retryable`: worth trying again later (a network fault, a 429 or 5xx). */
export class MailFailure extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'MailFailure';
  }
}

/** The message cleaned for a transport, or a MailFailure no retry can fix (an unsafe address). */
export function readyToSend(message: MailMessage) {
  try {
    return {
      ...cleanedForSending(message),
      from: message.from.name
        ? { email: headerAddress(message.from.email), name: headerText(message.from.name) }
        : headerAddress(message.from.email),
    };
  } catch (error) {
    throw new MailFailure(error instanceof Error ? error.message : String(error), false);
  }
}

/**
 * The part of Cloudflare Email Service's `send_email` binding the site uses: its structured
 * message (the binding builds the MIME itself).
 */
export interface SendEmailBinding {
  send(message: {
    from: string | { email: string; name: string };
    to: string;
    replyTo?: string;
    subject: string;
    text: string;
    html: string;
    headers?: Record<string, string>;
  }): Promise<{ messageId: string }>;
}

/** The Worker's mailer: Cloudflare Email Service through the `send_email` binding. */
export function cloudflareMailer(binding: SendEmailBinding): Mailer {
  return {
    kind: 'cloudflare',
    async send(message) {
      const ready = readyToSend(message);
      try {
        const { messageId } = await binding.send(ready);
        return { id: messageId };
      } catch (error) {
        // The binding throws for a refused sender or recipient too; the queue's retries and
        // dead letters deal with both, so a message is never lost silently.
        throw new MailFailure(
          `send_email failed: ${error instanceof Error ? error.message : String(error)}`,
          true,
        );
      }
    },
  };
}
