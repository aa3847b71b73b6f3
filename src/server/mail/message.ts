/**
 * One email (MailMessage; MailJob, the mail queue's message) and `Mailer.send`, which every email
 * passes: the `send_email` binding deployed, the local outbox in local runs.
 * Header text is text (readyToSend is the one way into a header): controls, CR and LF, become spaces
 * (nothing typed adds a header); bidirectional controls go (nothing reads backwards); a value holding
 * `=?` (an RFC 2047 encoded word shows decoded: `=?utf-8?b?VVJHRU5U…?=` reads "URGENT…") is encoded
 * whole as encoded words, decoding to the typed characters, nothing left beside them to decode. Any
 * other value, non-ASCII included, the transport encodes whole.
 */
import { BIDI_CONTROLS } from '#src/lib/forms/contract.ts';
import { formNamed } from '#src/lib/forms/forms.ts';
import type { MailLedger } from './ledger.ts';
import { retryDelaySeconds } from '#src/server/airtable/pacer.ts';

/** A sender or recipient: an address and, for the sender, a display name. */
export interface MailAddress {
  readonly email: string;
  readonly name?: string;
}

/** One email as the site sends it. */
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
const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;
export const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Whether a value is a whole mail message (a job's, or one posted to the local outbox). */
export function isMailMessage(value: unknown): value is MailMessage {
  if (!isObject(value)) return false;
  const message = value as Partial<MailMessage>;
  return (
    (['to', 'subject', 'text', 'html', 'idempotencyKey'] as const).every((key) => isText(message[key])) &&
    isObject(message.from) &&
    isText(message.from.email) &&
    isObject(message.headers)
  );
}

/** Whether a queue message's body is a mail job (rather than a submission), for one of the forms. */
export function isMailJob(body: unknown): body is MailJob {
  if (!isObject(body)) return false;
  const job = body as Partial<MailJob>;
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
  const words: string[] = [];
  let bytes: number[] = [];
  const flush = () => words.push(`=?utf-8?b?${btoa(String.fromCharCode(...bytes))}?=`);
  for (const char of text) {
    const encoded = new TextEncoder().encode(char);
    if (bytes.length + encoded.length > WORD_BYTES) {
      flush();
      bytes = [];
    }
    bytes.push(...encoded);
  }
  flush();
  return words.join(' ');
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

/**
 * Cloudflare Email Service's `send_email` binding, with a structured message
 * (developers.cloudflare.com/email-service/api/send-emails/workers-api/). Custom headers must be
 * on Cloudflare's allowlist: List-Unsubscribe (with an https URI) and List-Unsubscribe-Post are.
 */
export interface SendEmailBinding {
  send(message: ReturnType<typeof readyToSend>): Promise<{ messageId: string }>;
}

/**
 * The binding's error codes no retry fixes (a bad payload, a refused recipient, an unverified
 * sender): straight to the dead letters, for the owner to replay once fixed. Any other is retried.
 */
const PERMANENT_SEND_ERRORS = new Set(
  `E_VALIDATION_ERROR E_FIELD_MISSING E_TOO_MANY_RECIPIENTS E_SENDER_NOT_VERIFIED E_RECIPIENT_NOT_ALLOWED
  E_RECIPIENT_SUPPRESSED E_SENDER_DOMAIN_NOT_AVAILABLE E_CONTENT_TOO_LARGE E_HEADER_NOT_ALLOWED
  E_HEADER_USE_API_FIELD E_HEADER_VALUE_INVALID E_HEADER_VALUE_TOO_LONG E_HEADER_NAME_INVALID
  E_HEADERS_TOO_LARGE E_HEADERS_TOO_MANY`.split(/\s+/),
);

/** The Worker's mailer: Cloudflare Email Service through the `send_email` binding. */
export function cloudflareMailer(binding: SendEmailBinding): Mailer {
  return {
    async send(message) {
      const ready = readyToSend(message);
      try {
        const { messageId } = await binding.send(ready);
        return { id: messageId };
      } catch (error) {
        // `code`: the one Cloudflare's binding puts on its errors.
        const found: unknown = isObject(error) && 'code' in error ? error.code : undefined;
        const code = typeof found === 'string' ? found : undefined;
        throw new MailFailure(
          `send_email failed${code ? ` (${code})` : ''}: ${errorMessage(error)}`,
          !(code && PERMANENT_SEND_ERRORS.has(code)),
        );
      }
    },
  };
}

/** Local runs: each message to MAIL_OUTBOX_URL (one `.eml`); never on a deploy (launch-check). */
export function localOutboxMailer(url: string): Mailer {
  return {
    async send(message) {
      readyToSend(message);
      const [headers, body] = [{ 'content-type': 'application/json' }, JSON.stringify(message)];
      const response = await fetch(url, { method: 'POST', headers, body }).catch((error: unknown) => {
        throw new MailFailure(`The local outbox did not answer: ${String(error)}`, true);
      });
      if (!response.ok)
        throw new MailFailure(`The local outbox answered ${response.status}`, response.status >= 500);
      const { id } = (await response.json()) as { id?: unknown };
      return { id: typeof id === 'string' ? id : '' };
    },
  };
}

/** A mail queue's message, as the send loop acks or retries it (Cloudflare's Message). */
type QueueMessage = {
  readonly attempts: number;
  ack(): void;
  retry(options?: { delaySeconds?: number }): void;
};

/** Emails sent at once within a batch. */
const SEND_CONCURRENCY = 6;

/** Sends one batch of mail jobs; every message is acked or retried before it returns. */
export async function sendMailJobs(
  messages: readonly { message: QueueMessage; job: MailJob }[],
  options: {
    mailer: Mailer;
    ledger: Pick<MailLedger, 'hasSent' | 'markSent' | 'erasedAt'>;
    /** Where an email no retry can send goes (the dead letters); without it, the queue's DLQ. */
    deadLetter?: (job: MailJob, reason: string) => Promise<void>;
    log?: (message: string) => void;
  },
) {
  const log = options.log ?? ((line: string) => console.log(line));
  // What the batch did, for the log; alreadySent: delivered again after their email went out;
  // erased: queued before their address (the job's email) was erased, so never sent.
  const report = { sent: 0, alreadySent: 0, erased: 0, retried: 0, deadLettered: 0 };
  const sendOne = async ({ message, job }: { message: QueueMessage; job: MailJob }) => {
    const key = job.message.idempotencyKey;
    const [sent, erasedAt] = await Promise.all([
      options.ledger.hasSent(key),
      options.ledger.erasedAt(job.email),
    ]);
    if (sent) {
      report.alreadySent += 1;
      message.ack();
      return;
    }
    // A job without a readable time is older than any erasure.
    if (erasedAt !== undefined && !(Date.parse(job.queuedAt) > erasedAt)) {
      report.erased += 1;
      message.ack();
      return;
    }
    try {
      await options.mailer.send(job.message);
    } catch (error) {
      const reason = errorMessage(error);
      if (error instanceof MailFailure && !error.retryable && options.deadLetter) {
        await options.deadLetter(job, reason);
        message.ack();
        report.deadLettered += 1;
        log(`Mailer: an email could not be sent (${reason}); kept as a dead letter`);
        return;
      }
      message.retry({ delaySeconds: retryDelaySeconds(message.attempts, false) });
      report.retried += 1;
      log(`Mailer: an email failed (attempt ${message.attempts}: ${reason}); retrying`);
      return;
    }
    report.sent += 1;
    message.ack();
    // The email went out: if the mark cannot be written, a redelivery may send it again, which
    // beats retrying this one (that would send it again for sure).
    await options.ledger.markSent(key).catch((error: unknown) => {
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
