import {
  EMAIL_DOMAIN_MAX_LENGTH,
  EMAIL_LOCAL_MAX_LENGTH,
  EMAIL_MAX_LENGTH,
  EMAIL_MIN_LENGTH,
} from '#src/config/constants.ts';

// Local part: RFC 5322 dot-atom characters, plus Unicode letters, marks and digits (RFC 6531).
// Dots are checked separately (no leading, trailing or double dot).
const LOCAL_PART = /^[\p{L}\p{M}\p{N}!#$%&'*+/=?^_`{|}~.-]+$/u;
// One domain label: letters, marks, digits and inner hyphens, at most 63 long (RFC 1035).
const DOMAIN_LABEL = /^[\p{L}\p{M}\p{N}](?:[\p{L}\p{M}\p{N}-]{0,61}[\p{L}\p{M}\p{N}])?$/u;
const ALL_DIGITS = /^\p{N}+$/u;

/**
 * The spec's email rule (section 5), shared by the quote form and the home waitlist form.
 *
 * Surrounding whitespace is ignored (browsers strip it from `type="email"` values and the storage layer
 * trims), then the value must be 5–254 characters, contain no whitespace and no '..', have exactly one '@', a
 * local part of at most 64 characters that neither starts nor ends with '.', and a domain of at most 255
 * characters with at least one dot, made of labels of 1–63 characters that do not start or end with '-', and
 * a top-level label that is not all digits. Quoted local parts and IP-literal domains are not accepted.
 *
 * Unicode: internationalised addresses (RFC 6531, e.g. `josé@bücher.de`) are accepted —
 * letters, marks and digits of any script — so real addresses are never refused; whitespace,
 * control and invisible characters are not. Lengths count code points.
 */
export function isValidEmail(value: string): boolean {
  const email = value.trim();
  const length = [...email].length;
  if (length < EMAIL_MIN_LENGTH || length > EMAIL_MAX_LENGTH) return false;
  if (email.includes('..')) return false;

  const at = email.indexOf('@');
  if (at <= 0 || at !== email.lastIndexOf('@')) return false;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);

  if ([...local].length > EMAIL_LOCAL_MAX_LENGTH) return false;
  if (!LOCAL_PART.test(local) || local.startsWith('.') || local.endsWith('.')) return false;
  // An RFC 2047 encoded-word ('=?utf-8?b?…?='): mail programs may show it decoded, as a name
  // of the sender's choosing, in the To and Reply-To of the site's emails.
  if (local.includes('=?')) return false;

  if ([...domain].length > EMAIL_DOMAIN_MAX_LENGTH) return false;
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  if (!labels.every((label) => DOMAIN_LABEL.test(label))) return false;
  return !ALL_DIGITS.test(labels[labels.length - 1] ?? '');
}

// Characters that show nothing, or change how their neighbour looks, in an address: default
// ignorables (U+034F, U+FE0F, U+3164, zero-width joiners…), format and private-use characters.
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Co}\p{Cc}]/u;

/** Scripts a letter is checked against; letters of any other script form a group of their own. */
const SCRIPTS = (
  'Latin Greek Cyrillic Armenian Georgian Hebrew Arabic Han Hiragana Katakana Hangul Bopomofo Cherokee ' +
  'Thai Lao Devanagari Bengali Tamil Ethiopic'
)
  .split(' ')
  .map((script) => [script, new RegExp(`\\p{Script=${script}}`, 'u')] as const);

/** Scripts written together in one word (Unicode's highly restrictive profile, UTS 39). */
const SCRIPT_FAMILIES: readonly (readonly string[])[] = [
  ['Han', 'Hiragana', 'Katakana'],
  ['Han', 'Hangul'],
  ['Han', 'Bopomofo'],
];

/** Scripts whose letters pass for Latin ones ('а', 'ο', 'Ꭺ'): never mixed with Latin. */
const LATIN_LOOK_ALIKES: readonly string[] = ['Cyrillic', 'Greek', 'Cherokee'];

function scriptsOf(part: string): Set<string> {
  const scripts = new Set<string>();
  for (const char of part) {
    if (!/\p{L}/u.test(char)) continue;
    scripts.add(SCRIPTS.find(([, pattern]) => pattern.test(char))?.[0] ?? 'Other');
  }
  return scripts;
}

/**
 * Unicode's moderately restrictive profile (UTS 39): one script; or the scripts written together
 * in Chinese, Japanese or Korean (with or without Latin); or Latin with one other script that
 * cannot pass for it. So 'مريم.w1@…' is an address, and a Cyrillic 'а' among Latin letters is not.
 */
export function isAllowedScriptMix(part: string): boolean {
  const scripts = scriptsOf(part);
  const others = [...scripts].filter((script) => script !== 'Latin');
  if (others.length === 0) return true;
  if (SCRIPT_FAMILIES.some((family) => others.every((script) => family.includes(script)))) return true;
  if (others.length === 1 && !scripts.has('Latin')) return true;
  return others.length === 1 && !LATIN_LOOK_ALIKES.includes(others[0] ?? '');
}

/** The domain's ASCII form (IDNA: `bücher.de` → `xn--bcher-kva.de`), or null if it has none. */
function asciiDomain(domain: string): string | null {
  try {
    const hostname = new URL(`http://${domain}/`).hostname;
    return hostname.endsWith('.') || hostname.length === 0 ? null : hostname;
  } catch {
    return null;
  }
}

/**
 * The one form an address is stored and matched in, or null when it must be refused: the spec's
 * rule (isValidEmail), and no address that could pass for another. NFC (a composed and a
 * decomposed 'é' are one address), lower case, the domain in its ASCII form (Unicode and
 * punycode spellings are one address); refused: invisible or format characters, compatibility
 * characters (fullwidth 'ａ', ligatures), and a local part or domain label mixing scripts (a
 * Cyrillic 'а' among Latin letters). What it cannot tell without a table, an address that passes
 * for another ('jօhn', 'ɡrace'), email-look-alikes.ts adds: the server's rule is acceptedEmail
 * there, the forms' is isAcceptedEmail. Two spellings that look the same never make two records.
 */
export function canonicalEmail(value: string): string | null {
  const email = value.trim().normalize('NFC');
  if (!isValidEmail(email) || INVISIBLE.test(email)) return null;
  if (email.normalize('NFKC') !== email) return null;
  const at = email.indexOf('@');
  const local = email.slice(0, at).toLowerCase();
  const domain = email.slice(at + 1);
  if (!isAllowedScriptMix(local) || !domain.split('.').every(isAllowedScriptMix)) return null;
  const ascii = asciiDomain(domain);
  if (!ascii || !isValidEmail(`${local}@${ascii}`)) return null;
  return `${local}@${ascii}`;
}

let passesForAnother: ((value: string) => boolean) | undefined;

/**
 * Completes the forms' check with the look-alike rule (email-look-alikes.ts and its table of
 * Unicode's confusables, about 1.5 KB), which the forms load when first focused (preload.ts).
 */
export function setLookAlikeRule(rule: (value: string) => boolean): void {
  passesForAnother = rule;
}

/**
 * The forms' check, before sending: the server's rule (acceptedEmail in email-look-alikes.ts) once
 * setLookAlikeRule has run; until then the rule without look-alikes, which the server completes.
 */
export function isAcceptedEmail(value: string): boolean {
  return canonicalEmail(value) !== null && !(passesForAnother?.(value) ?? false);
}
