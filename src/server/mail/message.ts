/**
 * One email as the site sends it, and its RFC 5322 form (the local outbox's `.eml` files, and
 * any transport that takes a raw message). Every value that reaches a header passes through
 * here: CR and LF never do, so nothing a visitor types can add a header or a recipient.
 */

/** A sender or recipient: an address and, for the sender, a display name. */
export interface MailAddress {
  readonly email: string;
  readonly name?: string;
}

export interface MailMessage {
  readonly from: MailAddress;
  /** One recipient: the site never sends one message to two people. */
  readonly to: string;
  /** Where a reply goes (the schools team's notification: the contact's address). */
  readonly replyTo?: string;
  readonly subject: string;
  /** The plain-text part; every message has one. */
  readonly text: string;
  /** The HTML part; every value in it was escaped where it was built. */
  readonly html: string;
  /** Further headers (List-Unsubscribe and List-Unsubscribe-Post). */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * One key per message the site means to send (the submission and what the message is for):
   * a retried send with the same key is the same message, and transports that support it
   * (Resend's idempotency key, the outbox's file name) never send it twice.
   */
  readonly idempotencyKey: string;
}

/** Any control character, CR and LF included: none may reach a header. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/g;

/** A header value with every control character (CR and LF above all) turned into a space. */
export function headerText(value: string): string {
  return value.replace(CONTROL, ' ').replace(/ {2,}/g, ' ').trim();
}

/** An address that may appear in a header: no controls, spaces, angle brackets, commas or quotes. */
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const HEADER_SAFE_ADDRESS = /^[^\s<>,;"()\\\u0000-\u001f\u007f]+@[^\s<>,;"()\\@\u0000-\u001f\u007f]+$/u;

/** The address itself, or an error: an address that could smuggle a header or recipient is never sent to. */
export function headerAddress(email: string): string {
  if (!HEADER_SAFE_ADDRESS.test(email))
    throw new Error(`Refusing to put an unsafe address in a mail header: ${JSON.stringify(email)}`);
  return email;
}

const encoder = new TextEncoder();

function base64(text: string): string {
  let binary = '';
  for (const byte of encoder.encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * The message's addressing, subject, bodies and extra headers, each header value cleaned: what
 * every structured transport (the `send_email` binding, Resend's client) is handed. The sender
 * is left to the transport, which formats it its own way.
 */
export function cleanedForSending(message: MailMessage) {
  return {
    to: headerAddress(message.to),
    ...(message.replyTo ? { replyTo: headerAddress(message.replyTo) } : {}),
    subject: headerText(message.subject),
    text: message.text,
    html: message.html,
    headers: Object.fromEntries(
      Object.entries(message.headers).map(([name, value]) => [headerText(name), headerText(value)]),
    ),
  };
}

/** RFC 2047 encoded-words for a header phrase that is not plain ASCII; ASCII as it is. */
export function encodeHeaderWords(value: string): string {
  const text = headerText(value);
  if (/^[\x20-\x7e]*$/.test(text)) return text;
  // Encoded-words of at most 75 characters, each holding whole characters.
  const words: string[] = [];
  let chunk = '';
  for (const char of text) {
    if (base64(chunk + char).length > 45) {
      words.push(`=?UTF-8?B?${base64(chunk)}?=`);
      chunk = '';
    }
    chunk += char;
  }
  if (chunk) words.push(`=?UTF-8?B?${base64(chunk)}?=`);
  return words.join('\r\n ');
}

/** `"Name" <address>` (the name quoted or encoded as needed), or the bare address. */
export function formatAddress(address: MailAddress): string {
  const email = headerAddress(address.email);
  if (!address.name) return email;
  const name = headerText(address.name);
  const phrase = /^[\x20-\x7e]*$/.test(name)
    ? `"${name.replace(/(["\\])/g, '\\$1')}"`
    : encodeHeaderWords(name);
  return `${phrase} <${email}>`;
}

/** A body part as base64 in 76-character lines (safe for any text, any line length). */
function bodyPart(contentType: string, text: string): string {
  const encoded = base64(text.replace(/\r?\n/g, '\r\n'));
  const lines = encoded.match(/.{1,76}/g) ?? [];
  return [
    `Content-Type: ${contentType}; charset=utf-8`,
    'Content-Transfer-Encoding: base64',
    '',
    ...lines,
  ].join('\r\n');
}

/** RFC 5322's date form: `Tue, 24 Nov 2026 05:39:05 +0000`. */
export function mailDate(at: Date): string {
  return at.toUTCString().replace('GMT', '+0000');
}

/** The message as RFC 5322 text (CRLF line ends): multipart/alternative, plain text then HTML. */
export function toRfc5322(message: MailMessage, at: Date, messageId: string): string {
  const boundary = `=_podling_${messageId.replace(/[^A-Za-z0-9]/g, '').slice(0, 40)}`;
  const headers: [string, string][] = [
    ['From', formatAddress(message.from)],
    ['To', headerAddress(message.to)],
    ...(message.replyTo ? [['Reply-To', headerAddress(message.replyTo)] as [string, string]] : []),
    ['Subject', encodeHeaderWords(message.subject)],
    ['Date', mailDate(at)],
    ['Message-ID', `<${headerText(messageId)}>`],
    ['MIME-Version', '1.0'],
    ...Object.entries(message.headers).map(
      ([name, value]) => [headerText(name), headerText(value)] as [string, string],
    ),
    ['Content-Type', `multipart/alternative; boundary="${boundary}"`],
  ];
  return [
    ...headers.map(([name, value]) => `${name}: ${value}`),
    '',
    `--${boundary}`,
    bodyPart('text/plain', message.text),
    `--${boundary}`,
    bodyPart('text/html', message.html),
    `--${boundary}--`,
    '',
  ].join('\r\n');
}
