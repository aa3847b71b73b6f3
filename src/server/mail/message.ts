/**
 * One email (MailMessage; MailJob, the mail queue's message) and `Mailer.send`, which every email passes: the
 * `send_email` binding deployed, the local outbox in local runs. Header text is text (readyToSend is the one
 * way into a header): controls, CR and LF, become spaces (nothing typed adds a header); bidirectional
 * controls go (nothing reads backwards); a value holding `=?` (an RFC 2047 encoded word shows decoded:
 * `=?utf-8?b?VVJHRU5U…?=` reads "URGENT…") is encoded whole as encoded words, decoding to the typed
 * characters, none left beside them to decode; any other, non-ASCII included, the transport encodes whole.
 */
import { BIDI_CONTROLS } from '#src/lib/forms/contract.ts';
import { formNamed } from '#src/lib/forms/forms.ts';
import type { parseMailbox } from '#src/server/settings.ts';

/** The sender: an address and, if any, a display name (MAIL_FROM, as parseMailbox reads it). */
export type MailAddress = NonNullable<ReturnType<typeof parseMailbox>>;

export interface MailMessage {
  readonly from: MailAddress;
  /** One recipient: the site never sends one message to two people. */
  readonly to: string;
  /** Where a reply goes (the team's notification: the contact's address). */
  readonly replyTo?: string;
  readonly subject: string;
  readonly text: string;
  /** Every value in it was escaped where it was built. */
  readonly html: string;
  /** Further headers (List-Unsubscribe and List-Unsubscribe-Post). */
  readonly headers: Readonly<Record<string, string>>;
  /** The submission and what the message is for: the sent marks and the outbox send a key once. */
  readonly idempotencyKey: string;
}

/** Built, signed and counted at the write; one per email, so a retry never repeats one that went out. */
export interface MailJob {
  readonly kind: 'mail';
  readonly message: MailMessage;
  /** The submission's address (the contact's, for the team's notification): erasure finds it by this. */
  readonly email: string;
  /** The form's name (any form in FORM_LIST). */
  readonly form: string;
  /** When the write that caused it was done (ISO 8601). */
  readonly queuedAt: string;
}

const isText = (value: unknown): value is string => typeof value === 'string';
export const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;
export const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Whether a value is a whole mail message (a job's, or one posted to the local outbox). */
export function isMailMessage(value: unknown): value is MailMessage {
  const message: Partial<MailMessage> = isObject(value) ? value : {};
  return (
    (['to', 'subject', 'text', 'html', 'idempotencyKey'] as const).every((key) => isText(message[key])) &&
    isObject(message.from) &&
    isText(message.from.email) &&
    isObject(message.headers)
  );
}

/** Whether a queue message's body is a mail job (rather than a submission), for one of the forms. */
export function isMailJob(body: unknown): body is MailJob {
  const job: Partial<MailJob> = isObject(body) ? body : {};
  return (
    job.kind === 'mail' &&
    isText(job.email) &&
    isText(job.form) &&
    formNamed(job.form) !== undefined &&
    isText(job.queuedAt) &&
    isMailMessage(job.message)
  );
}

export interface Mailer {
  /** Resolves with the transport's id for it (the outbox's: a file path); rejects with a MailFailure. */
  send(message: MailMessage): Promise<{ readonly id: string }>;
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

/** Any control character, CR and LF included: none may reach a header. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/g;

/** A header value with every control turned into a space and every bidirectional control removed. */
export function headerText(value: string): string {
  return value.replace(BIDI_CONTROLS, '').replace(CONTROL, ' ').replace(/ {2,}/g, ' ').trim();
}

/** The longest run of UTF-8 bytes in one encoded word: 60 base64 characters, 72 in all (RFC 2047: at most 75). */
const WORD_BYTES = 45;

/** headerText, then, when it holds `=?`, as RFC 2047 B-encoded UTF-8 words (never splitting a character). */
export function headerValue(value: string): string {
  const text = headerText(value);
  if (!text.includes('=?')) return text;
  let word: number[] = [];
  const words = [word];
  for (const char of text) {
    const encoded = new TextEncoder().encode(char);
    if (word.length + encoded.length > WORD_BYTES) words.push((word = []));
    word.push(...encoded);
  }
  return words.map((bytes) => `=?utf-8?b?${btoa(String.fromCharCode(...bytes))}?=`).join(' ');
}

/** An address that may appear in a header: no controls, spaces, angle brackets, commas or quotes. */
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const HEADER_SAFE_ADDRESS = /^[^\s<>,;"()\\\u0000-\u001f\u007f]+@[^\s<>,;"()\\@\u0000-\u001f\u007f]+$/u;

/** The address itself, or an error: an address that could smuggle a header or recipient is never sent to. */
export function headerAddress(email: string): string {
  // '=?' would start an RFC 2047 encoded word; a bidirectional control would disguise the address.
  if (!HEADER_SAFE_ADDRESS.test(email) || email.includes('=?') || email.replace(BIDI_CONTROLS, '') !== email)
    throw new Error(`Refusing to put an unsafe address in a mail header: ${JSON.stringify(email)}`);
  return email;
}

/** The message as a structured transport takes it, header values made text; or a MailFailure for good. */
export function readyToSend(message: MailMessage) {
  try {
    return {
      to: headerAddress(message.to),
      ...(message.replyTo ? { replyTo: headerAddress(message.replyTo) } : {}),
      subject: headerValue(message.subject),
      text: message.text,
      html: message.html,
      headers: Object.fromEntries(
        Object.entries(message.headers).map(([name, value]) => [headerText(name), headerValue(value)]),
      ),
      from: message.from.name
        ? { email: headerAddress(message.from.email), name: headerValue(message.from.name) }
        : headerAddress(message.from.email),
    };
  } catch (error) {
    throw new MailFailure(errorMessage(error), false);
  }
}
