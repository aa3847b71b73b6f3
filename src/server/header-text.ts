/**
 * Header text is text: whatever a visitor typed reads as typed in every header the site sends
 * (mail.ts's readyToSend is the one way a value reaches a header).
 *
 * - CR, LF and every other control character become spaces, so nothing typed adds a header.
 * - Bidirectional controls go (BIDI_CONTROLS, the one set of them), so nothing reads backwards.
 * - A value holding `=?`, which may begin an RFC 2047 encoded word a mail program would show
 *   decoded (`=?utf-8?b?VVJHRU5U…?=` reads "URGENT…"), is itself encoded in full as encoded
 *   words: decoding them gives back the typed characters, `=?` and all. An encoded word is only
 *   one when it is a whole token, so nothing typed is left beside them to decode. Any other
 *   value, non-ASCII included, is left to the transport, which encodes it whole (nodemailer in
 *   the outbox; Cloudflare's `send_email` takes a UTF-8 string).
 */
import { BIDI_CONTROLS } from '#src/lib/forms/contract.ts';

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
