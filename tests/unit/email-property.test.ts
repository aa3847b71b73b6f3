import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidEmail } from '#src/lib/email.ts';

/*
 * An independent reading of the spec's email rule (section 5), written character by character
 * rather than with the app's regular expressions, then compared with isValidEmail over generated
 * strings that sit on and around every limit.
 *
 * The spec fixes: 5 to 254 characters overall; no double dot; local part at most 64 characters;
 * domain contains a dot and is at most 255. "A standard email pattern" is read, as the app
 * documents, as: exactly one '@'; a dot-atom local part (RFC 5322 atext, or a letter, mark or
 * digit of any script, RFC 6531) that does not start or end with a dot; a domain of labels of 1 to
 * 63 letters, marks, digits or inner hyphens, whose last label is not all digits. Surrounding
 * whitespace is ignored and characters are code points.
 */

const LIMITS = { min: 5, max: 254, local: 64, domain: 255, label: 63 } as const;
const ASCII_ATEXT = new Set("!#$%&'*+/=?^_`{|}~-");

const codePoints = (text: string): string[] => Array.from(text);
const isLetterMarkOrDigit = (char: string): boolean => /^[\p{L}\p{M}\p{N}]$/u.test(char);
const isDigit = (char: string): boolean => /^\p{N}$/u.test(char);

function isLocalChar(char: string): boolean {
  return char === '.' || ASCII_ATEXT.has(char) || isLetterMarkOrDigit(char);
}

function isLabel(label: string): boolean {
  const chars = codePoints(label);
  if (chars.length < 1 || chars.length > LIMITS.label) return false;
  if (chars[0] === '-' || chars[chars.length - 1] === '-') return false;
  return chars.every((char) => char === '-' || isLetterMarkOrDigit(char));
}

/** The spec's rule, read independently of src/lib/email.ts. */
function specRule(value: string): boolean {
  const email = value.trim();
  const length = codePoints(email).length;
  if (length < LIMITS.min || length > LIMITS.max) return false;
  if (email.includes('..')) return false;
  const parts = email.split('@');
  if (parts.length !== 2) return false;
  const [local = '', domain = ''] = parts;

  const localChars = codePoints(local);
  if (localChars.length === 0 || localChars.length > LIMITS.local) return false;
  if (local.startsWith('.') || local.endsWith('.')) return false;
  if (!localChars.every(isLocalChar)) return false;
  if (local.includes('=?')) return false; // an RFC 2047 encoded-word's start

  if (codePoints(domain).length > LIMITS.domain) return false;
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every(isLabel)) return false;
  return !codePoints(labels[labels.length - 1] ?? '').every(isDigit);
}

// Characters: the generators build from valid ones; damage (below) brings in the invalid ones.
const ALNUM = [...'abcdefghijklmnopqrstuvwxyz0123456789'];
const LETTERS = [...'abcdefghijklmnopqrstuvwxyz'];
const LOCAL_EXTRA = [...ASCII_ATEXT, 'A', 'Z', 'é', 'ß', 'ж', '中', '٣', '\u0301', '𝒜'];
const DOMAIN_EXTRA = ['-', 'é', 'ü', 'ж', '中', '٣', '\u0301', '𝒜', 'Q'];
const INVALID = [
  ...[' ', '@', '"', '(', ')', ',', ':', ';', '<', '>', '[', ']', '\\', '_', '.', '-'],
  ...['\t', '\u00a0', '\u200b', '\u202e', '\u0000', '😀', '\uff0e', '\ud800'],
];

const localChar = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...ALNUM) },
  { weight: 3, arbitrary: fc.constantFrom(...LOCAL_EXTRA) },
  { weight: 1, arbitrary: fc.constant('.') },
);
const domainChar = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...ALNUM) },
  { weight: 1, arbitrary: fc.constantFrom(...DOMAIN_EXTRA) },
);

/** A string of exactly `length` code points. */
const stringOf = (length: number, char: fc.Arbitrary<string>) =>
  fc.array(char, { minLength: length, maxLength: length }).map((chars) => chars.join(''));

/** Lengths that matter for a limit: mostly valid, often on the limit, sometimes just past it. */
const around = (limit: number) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: 1, max: limit }) },
    { weight: 2, arbitrary: fc.constantFrom(1, 2, limit - 1, limit) },
    { weight: 1, arbitrary: fc.constantFrom(0, limit + 1, limit + 2) },
  );

const localPart = around(LIMITS.local).chain((length) => stringOf(length, localChar));
const label = around(LIMITS.label).chain((length) => stringOf(length, domainChar));
const topLabel = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('uk', 'com', 'co', 'org', 'c', 'xn--p1ai', 'рф', 'münchen') },
  { weight: 1, arbitrary: fc.constantFrom('123', '٣٣', '1', '-uk', 'uk-', '') },
  { weight: 2, arbitrary: label },
);
const domain = fc
  .tuple(fc.array(label, { minLength: 0, maxLength: 3 }), topLabel)
  .map(([labels, top]) => [...labels, top].join('.'));

/** A domain of exactly `length` code points: labels of 60 to 64 letters and digits, then the top. */
const domainOfLength = (length: number) =>
  fc
    .array(fc.constantFrom(60, 61, 62, 63, 63, 63, 64), { minLength: 6, maxLength: 6 })
    .chain((pool) => {
      const sizes: number[] = [];
      let remaining = length;
      for (const size of pool) {
        if (remaining <= LIMITS.label || remaining - size - 1 < 2) break;
        sizes.push(size);
        remaining -= size + 1;
      }
      return fc.tuple(
        ...sizes.map((size) => stringOf(size, fc.constantFrom(...ALNUM))),
        stringOf(Math.max(1, remaining), fc.constantFrom(...LETTERS)),
      );
    })
    .map((labels) => labels.join('.'));

/** local@domain with the whole address 4 to 7 or 252 to 256 characters long. */
const nearOverallLimits = fc
  .tuple(fc.constantFrom(1, 2, 30, 63, 64, 65), fc.constantFrom(4, 5, 6, 7, 252, 253, 254, 255, 256))
  .chain(([localLength, total]) =>
    fc
      .tuple(
        stringOf(localLength, fc.constantFrom(...ALNUM)),
        domainOfLength(Math.max(1, total - localLength - 1)),
      )
      .map(([local, host]) => `${local}@${host}`),
  );

/** A near-valid address, sometimes damaged: a bad character, extra '@', a double dot, whitespace. */
const nearValid = fc
  .tuple(
    fc.oneof(
      { weight: 3, arbitrary: fc.tuple(localPart, domain).map(([local, host]) => `${local}@${host}`) },
      { weight: 1, arbitrary: nearOverallLimits },
    ),
    fc.oneof(
      { weight: 8, arbitrary: fc.constant('none') },
      { weight: 1, arbitrary: fc.constantFrom('bad-char', 'swap-char', 'double-dot', 'extra-at') },
      { weight: 1, arbitrary: fc.constantFrom('no-at', 'pad', 'dot-edges', 'bad-char') },
    ),
    fc.nat(),
    fc.constantFrom(...INVALID),
  )
  .map(([email, damage, at, bad]) => {
    const i = at % (email.length + 1);
    switch (damage) {
      case 'bad-char':
        return `${email.slice(0, i)}${bad}${email.slice(i)}`;
      case 'swap-char':
        return `${email.slice(0, i)}${bad}${email.slice(i + 1)}`;
      case 'double-dot':
        return `${email.slice(0, i)}..${email.slice(i)}`;
      case 'extra-at':
        return `${email.slice(0, i)}@${email.slice(i)}`;
      case 'no-at':
        return email.replace('@', '');
      case 'pad':
        return ` \t${email}\n `;
      case 'dot-edges':
        return `.${email}.`;
      default:
        return email;
    }
  });

/** Ordinary well-formed addresses (almost all valid), for invariants that need valid input. */
const wellFormed = fc
  .tuple(
    fc
      .integer({ min: 1, max: 40 })
      .chain((length) => stringOf(length, fc.constantFrom(...ALNUM, ...LOCAL_EXTRA))),
    fc.array(
      fc
        .integer({ min: 1, max: 20 })
        .chain((length) => stringOf(length, fc.constantFrom(...ALNUM, 'é', 'ж'))),
      { minLength: 1, maxLength: 3 },
    ),
    fc.constantFrom('uk', 'com', 'org', 'рф'),
  )
  .map(([local, labels, top]) => `${local}@${[...labels, top].join('.')}`);

describe('isValidEmail against an independent reading of the spec (property-based)', () => {
  it('agrees on near-valid addresses around every limit', () => {
    let accepted = 0;
    let rejected = 0;
    fc.assert(
      fc.property(nearValid, (email) => {
        const expected = specRule(email);
        if (expected) accepted += 1;
        else rejected += 1;
        expect(isValidEmail(email), JSON.stringify(email)).toBe(expected);
      }),
      { numRuns: 3_000 },
    );
    // The generators must exercise both sides of the rule, not just produce noise.
    expect(accepted).toBeGreaterThan(450);
    expect(rejected).toBeGreaterThan(450);
  });

  it('agrees exactly at the overall, local and domain limits', () => {
    let acceptedAt254 = 0;
    let rejectedAbove = 0;
    fc.assert(
      fc.property(nearOverallLimits, (email) => {
        const expected = specRule(email);
        const length = codePoints(email).length;
        if (expected && length === LIMITS.max) acceptedAt254 += 1;
        if (length > LIMITS.max) {
          expect(expected).toBe(false);
          rejectedAbove += 1;
        }
        expect(isValidEmail(email), JSON.stringify(email)).toBe(expected);
      }),
      { numRuns: 1_000 },
    );
    expect(acceptedAt254).toBeGreaterThan(0);
    expect(rejectedAbove).toBeGreaterThan(0);
  });

  it('agrees on arbitrary strings, including any Unicode and lone surrogates', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 80 }),
          fc.string({ unit: 'grapheme', maxLength: 80 }),
          // Arbitrary text on either side of one '@' and a dot: many more reach the later checks.
          fc
            .tuple(
              fc.string({ unit: 'binary' }),
              fc.string({ unit: 'binary' }),
              fc.string({ unit: 'binary' }),
            )
            .map(([a, b, c]) => `${a}@${b}.${c}`),
        ),
        (value) => {
          expect(isValidEmail(value), JSON.stringify(value)).toBe(specRule(value));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('ignores surrounding whitespace', () => {
    const whitespace = fc
      .array(fc.constantFrom(' ', '\t', '\n', '\r', '\u00a0', '\u2003', '\ufeff'), { maxLength: 4 })
      .map((chars) => chars.join(''));
    fc.assert(
      fc.property(nearValid, whitespace, whitespace, (email, before, after) => {
        expect(isValidEmail(`${before}${email}${after}`)).toBe(isValidEmail(email));
      }),
      { numRuns: 1_000 },
    );
  });

  it('does not depend on letter case for ASCII addresses', () => {
    const ascii = nearValid.filter((email) => /^[\x20-\x7e\t\n]*$/.test(email));
    fc.assert(
      fc.property(ascii, (email) => {
        const verdict = isValidEmail(email);
        expect(isValidEmail(email.toUpperCase())).toBe(verdict);
        expect(isValidEmail(email.toLowerCase())).toBe(verdict);
      }),
      { numRuns: 1_000 },
    );
  });

  it('keeps a valid address valid in its stored form (trimmed, lower-cased) when that keeps its length', () => {
    fc.assert(
      fc.property(fc.oneof(wellFormed, nearValid), (email) => {
        const storedForm = email.trim().toLowerCase();
        fc.pre(isValidEmail(email) && codePoints(storedForm).length === codePoints(email.trim()).length);
        expect(isValidEmail(storedForm), JSON.stringify(email)).toBe(true);
      }),
      { numRuns: 1_000 },
    );
  });

  it('rejects every value with a double dot or without exactly one @', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii', maxLength: 60 }), fc.nat(), (text, at) => {
        const i = at % (text.length + 1);
        expect(isValidEmail(`${text.slice(0, i)}..${text.slice(i)}`)).toBe(false);
        if (text.split('@').length !== 2) expect(isValidEmail(text)).toBe(false);
      }),
      { numRuns: 1_000 },
    );
  });
});
