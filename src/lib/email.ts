import {
  EMAIL_DOMAIN_MAX_LENGTH,
  EMAIL_LOCAL_MAX_LENGTH,
  EMAIL_MAX_LENGTH,
  EMAIL_MIN_LENGTH,
} from '../config/constants.ts';

// Local part: RFC 5322 dot-atom characters, plus Unicode letters, marks and digits (RFC 6531).
// Dots are checked separately (no leading, trailing or double dot).
const LOCAL_PART = /^[\p{L}\p{M}\p{N}!#$%&'*+/=?^_`{|}~.-]+$/u;
// One domain label: letters, marks, digits and inner hyphens, at most 63 long (RFC 1035).
const DOMAIN_LABEL = /^[\p{L}\p{M}\p{N}](?:[\p{L}\p{M}\p{N}-]{0,61}[\p{L}\p{M}\p{N}])?$/u;
const ALL_DIGITS = /^\p{N}+$/u;

/** Counts code points, so a non-BMP character (e.g. an emoji or rare CJK letter) counts once. */
function characterCount(value: string): number {
  return Array.from(value).length;
}

/**
 * The spec's email rule (section 5), shared by the quote form and the home waitlist form.
 *
 * Surrounding whitespace is ignored (browsers strip it from `type="email"` values and the
 * storage layer trims), then the value must be 5–254 characters, contain no whitespace and no
 * '..', have exactly one '@', a local part of at most 64 characters that neither starts nor
 * ends with '.', and a domain of at most 255 characters with at least one dot, made of
 * labels of 1–63 characters that do not start or end with '-', and a top-level label that is
 * not all digits. Quoted local parts and IP-literal domains are not accepted.
 *
 * Unicode: internationalised addresses (RFC 6531, e.g. `josé@bücher.de`) are accepted —
 * letters, marks and digits of any script — so real addresses are never refused; whitespace,
 * control and invisible characters are not. Lengths count code points.
 */
export function isValidEmail(value: string): boolean {
  const email = value.trim();
  const length = characterCount(email);
  if (length < EMAIL_MIN_LENGTH || length > EMAIL_MAX_LENGTH) return false;
  if (email.includes('..')) return false;

  const at = email.indexOf('@');
  if (at <= 0 || at !== email.lastIndexOf('@')) return false;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);

  if (characterCount(local) > EMAIL_LOCAL_MAX_LENGTH) return false;
  if (!LOCAL_PART.test(local) || local.startsWith('.') || local.endsWith('.')) return false;

  if (characterCount(domain) > EMAIL_DOMAIN_MAX_LENGTH) return false;
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  if (!labels.every((label) => DOMAIN_LABEL.test(label))) return false;
  return !ALL_DIGITS.test(labels[labels.length - 1] ?? '');
}
