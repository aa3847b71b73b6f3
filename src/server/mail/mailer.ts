/**
 * The one small mailer: every email the site sends goes through `Mailer.send`, whichever host
 * carries it. This module holds the interface and the Worker's two transports: Cloudflare's
 * `send_email` binding on a deploy, and the local outbox (the emulator writes `.eml` files) in
 * local runs.
 */
import { cleanedForSending, headerAddress, headerText, type MailMessage } from './message.ts';

export type MailerKind = 'cloudflare' | 'outbox';

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
 * message (`EmailMessageBuilder`: the binding builds the MIME itself), as Cloudflare documents it
 * (developers.cloudflare.com/email-service/api/send-emails/workers-api/). Custom headers must be
 * on Cloudflare's allowlist: List-Unsubscribe (with an https URI) and List-Unsubscribe-Post are.
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

/**
 * The binding's error codes no retry can fix for this message (a bad payload, a refused or
 * suppressed recipient, an unverified sender): straight to the dead letters, where the owner
 * sees them and replays them once the sending domain is fixed. Every other code (a rate or daily
 * limit, an internal error, a delivery failure) and an error with no code are retried.
 */
const PERMANENT_SEND_ERRORS = new Set([
  'E_VALIDATION_ERROR',
  'E_FIELD_MISSING',
  'E_TOO_MANY_RECIPIENTS',
  'E_SENDER_NOT_VERIFIED',
  'E_RECIPIENT_NOT_ALLOWED',
  'E_RECIPIENT_SUPPRESSED',
  'E_SENDER_DOMAIN_NOT_AVAILABLE',
  'E_CONTENT_TOO_LARGE',
  'E_HEADER_NOT_ALLOWED',
  'E_HEADER_USE_API_FIELD',
  'E_HEADER_VALUE_INVALID',
  'E_HEADER_VALUE_TOO_LONG',
  'E_HEADER_NAME_INVALID',
  'E_HEADERS_TOO_LARGE',
  'E_HEADERS_TOO_MANY',
]);

/** The `code` Cloudflare's binding puts on the errors it throws, if any. */
function sendErrorCode(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
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
        // The Worker's mail queue retries what may pass later and dead-letters the rest, so a
        // message is never lost silently.
        const code = sendErrorCode(error);
        throw new MailFailure(
          `send_email failed${code ? ` (${code})` : ''}: ${error instanceof Error ? error.message : String(error)}`,
          !(code && PERMANENT_SEND_ERRORS.has(code)),
        );
      }
    },
  };
}

/**
 * The Worker's mailer in local runs (`vite`, `vite preview`, tests): each message is posted to the
 * local outbox (MAIL_OUTBOX_URL, the emulator's `/__emulator/outbox`), which writes it as one
 * `.eml` file. Never set on a deploy (`npm run launch-check` fails it).
 */
export function localOutboxMailer(url: string, fetcher: typeof fetch = fetch): Mailer {
  return {
    kind: 'outbox',
    async send(message) {
      readyToSend(message);
      let response: Response;
      try {
        response = await fetcher(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(message),
        });
      } catch (error) {
        throw new MailFailure(`The local outbox did not answer: ${String(error)}`, true);
      }
      if (!response.ok)
        throw new MailFailure(`The local outbox answered ${response.status}`, response.status >= 500);
      const { id } = (await response.json()) as { id?: unknown };
      return { id: typeof id === 'string' ? id : '' };
    },
  };
}
