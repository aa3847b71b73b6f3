import { domainToASCII, domainToUnicode } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalEmail, isAcceptedEmail, isValidEmail, setLookAlikeRule } from '#src/lib/email.ts';
import { acceptedEmail, decodePunycode, LOOK_ALIKES, passesForAnother } from '#src/lib/email-look-alikes.ts';

/** A domain of exactly `length` characters: 63-character labels, then a short last label. */
function domainOfLength(length: number): string {
  const labels: string[] = [];
  let remaining = length;
  while (remaining > 64) {
    labels.push('d'.repeat(63));
    remaining -= 64;
  }
  // The last label needs at least one character after a dot-separated label before it.
  if (labels.length === 0) return `${'d'.repeat(length - 3)}.uk`;
  labels.push('x'.repeat(remaining));
  return labels.join('.');
}

describe('isValidEmail', () => {
  it('builds test domains of the exact length asked for', () => {
    for (const length of [5, 63, 64, 65, 189, 190, 252, 253, 255, 256]) {
      expect(domainOfLength(length)).toHaveLength(length);
    }
  });

  it('accepts ordinary addresses', () => {
    for (const email of [
      'head@school.org',
      'o.brien+quotes@st-marys.sch.uk',
      "o'neil@example.com",
      'A@B.CO',
    ]) {
      expect(isValidEmail(email), email).toBe(true);
    }
  });

  it('pins the overall minimum: 5 is the shortest well-formed address, every 4-character value fails', () => {
    expect(isValidEmail('a@b.c')).toBe(true);
    // No 4-character value is otherwise well formed (local + '@' + label + '.' + label ≥ 5),
    // so the 4/5 boundary is checked on every near miss.
    for (const email of ['a@bc', '@b.c', 'a@.c', 'a@b.', 'ab.c'])
      expect(isValidEmail(email), email).toBe(false);
  });

  it('pins the overall maximum at 254 characters', () => {
    const at254 = `${'l'.repeat(64)}@${domainOfLength(189)}`;
    const at255 = `${'l'.repeat(64)}@${domainOfLength(190)}`;
    expect(at254).toHaveLength(254);
    expect(at255).toHaveLength(255);
    expect(isValidEmail(at254)).toBe(true);
    expect(isValidEmail(at255)).toBe(false);
  });

  it('pins the local part at 64 characters', () => {
    expect(isValidEmail(`${'l'.repeat(64)}@example.com`)).toBe(true);
    expect(isValidEmail(`${'l'.repeat(65)}@example.com`)).toBe(false);
  });

  it('accepts the longest reachable domain (252) and rejects longer ones', () => {
    // 254 overall − 1 local character − '@' leaves 252: the 255-character domain limit can never
    // be reached on its own, so 255/256 are rejected by the overall limit first.
    expect(isValidEmail(`a@${domainOfLength(252)}`)).toBe(true);
    expect(isValidEmail(`a@${domainOfLength(253)}`)).toBe(false);
    expect(isValidEmail(`a@${domainOfLength(255)}`)).toBe(false);
    expect(isValidEmail(`a@${domainOfLength(256)}`)).toBe(false);
  });

  it('rejects a double dot anywhere, and a local part starting or ending with a dot', () => {
    for (const email of ['a..b@example.com', 'ab@example..com', '.ab@example.com', 'ab.@example.com']) {
      expect(isValidEmail(email), email).toBe(false);
    }
  });

  it('requires a dot in the domain and sane labels', () => {
    for (const email of [
      'user@localhost',
      'user@-example.com',
      'user@example-.com',
      'user@.example.com',
      'user@1.2.3.4',
    ]) {
      expect(isValidEmail(email), email).toBe(false);
    }
    expect(isValidEmail(`user@${'d'.repeat(63)}.com`)).toBe(true);
    expect(isValidEmail(`user@${'d'.repeat(64)}.com`)).toBe(false);
  });

  it('rejects a local part that starts an RFC 2047 encoded-word (a name a mail program would show)', () => {
    expect(isValidEmail('=?utf-8?b?U2Nob29sIEJvYXJk?=@example.com')).toBe(false);
    expect(isValidEmail('a=?b@example.com')).toBe(false);
    expect(isValidEmail('a=b?c@example.com')).toBe(true);
  });

  it('requires exactly one @ with something on each side', () => {
    for (const email of ['userexample.com', '@example.com', 'user@', 'a@b@example.com', '']) {
      expect(isValidEmail(email), email).toBe(false);
    }
  });

  it('rejects whitespace inside, ignores it around', () => {
    for (const email of [
      'us er@example.com',
      'user@exa mple.com',
      'user\t@example.com',
      'user\u00a0x@example.com',
    ]) {
      expect(isValidEmail(email), JSON.stringify(email)).toBe(false);
    }
    expect(isValidEmail('  user@example.com \n')).toBe(true);
  });

  it('accepts internationalised addresses and counts code points, not UTF-16 units', () => {
    for (const email of ['josé@bücher.de', '用户@例子.中国', 'user@παράδειγμα.ελ']) {
      expect(isValidEmail(email), email).toBe(true);
    }
    const wide = '𝒜'; // one code point, two UTF-16 units
    expect(isValidEmail(`${wide.repeat(64)}@example.com`)).toBe(true);
    expect(isValidEmail(`${wide.repeat(65)}@example.com`)).toBe(false);
  });

  it('rejects invisible, control and symbol characters', () => {
    for (const email of [
      'us\u200ber@example.com',
      'user\u0000@example.com',
      '😀@example.com',
      'user@exa😀mple.com',
    ]) {
      expect(isValidEmail(email), JSON.stringify(email)).toBe(false);
    }
  });
});

describe('acceptedEmail: look-alikes (UTS 39 skeletons)', () => {
  const LOOK_ALIKE_PAIRS = [
    ['jօhn@example.com', 'U+0585 Armenian oh', 'john@example.com'],
    ['joհn@example.com', 'U+0570 Armenian ho', 'john@example.com'],
    ['joɦn@example.com', 'U+0266 h with hook', 'john@example.com'],
    ['ɡrace@example.com', 'U+0261 script g', 'grace@example.com'],
    ['ɑlice@example.com', 'U+0251 Latin alpha', 'alice@example.com'],
    ['ꓲsla@example.com', 'U+A4F2 Lisu letter i', 'isla@example.com'],
    ['JՕHN@example.com', 'capital Armenian oh, lower-cased', 'john@example.com'],
    ['jօhné@example.com', 'Armenian oh beside an accent', 'johné@example.com'],
    ['сор@example.com', 'an all-Cyrillic word that spells "cop"', 'cop@example.com'],
    ['john@аррӏе.com', 'an all-Cyrillic domain label', 'john@apple.com'],
    ['john@xn--80ak6aa92e.com', 'that label typed as Punycode', 'john@apple.com'],
    ['john@xn--exmple-4nf.com', 'a mixed-script label typed as Punycode', 'john@example.com'],
  ] as const;

  it.each(LOOK_ALIKE_PAIRS)('refuses %s (%s) beside its twin %s', (lookAlike, _, twin) => {
    expect(acceptedEmail(lookAlike)).toBeNull();
    expect(acceptedEmail(twin)).toBe(canonicalEmail(twin));
    expect(acceptedEmail(twin)).not.toBeNull();
  });

  it.each([
    'مريم.w1.abc@example.com',
    'احمد@example.com',
    'иван@почта.рф',
    'мария@пример.рф',
    'ivan@xn--80a1acny.xn--p1ai',
    '用户@例子.中国',
    '太郎@例え.jp',
    'yuki山田@example.jp',
    'user@παράδειγμα.ελ',
    'josé@bücher.de',
    'ana@xn--bcher-kva.de',
    'søren@example.dk',
    'łukasz@example.pl',
    'straße@example.de',
    "o'brien+test.w1@example.com",
  ])('still accepts the honest address %s, in its canonical form', (email) => {
    expect(acceptedEmail(email)).toBe(canonicalEmail(email));
    expect(acceptedEmail(email)).not.toBeNull();
  });

  it('the forms check the same once the rule is loaded (on first focus)', async () => {
    setLookAlikeRule(passesForAnother);
    for (const [lookAlike, , twin] of LOOK_ALIKE_PAIRS) {
      expect(isAcceptedEmail(lookAlike), lookAlike).toBe(false);
      expect(isAcceptedEmail(twin), twin).toBe(true);
    }
  });

  it('decodes Punycode labels as the URL standard does', () => {
    for (const [ascii, unicode] of [
      ['xn--80ak6aa92e', 'аррӏе'],
      ['xn--bcher-kva', 'bücher'],
      ['xn--p1ai', 'рф'],
      ['xn--fsqu00a', '例子'],
      ['example', 'example'],
    ] as const)
      expect(decodePunycode(ascii)).toBe(unicode);
    expect(decodePunycode('xn--a!')).toBeNull();
  });

  it('decodes any label as Node’s own IDNA does (domainToUnicode)', () => {
    const letter = fc.constantFrom(...'abzäéüßøæçñışğаеорсіјӏαοβνρταבשمريمअनи例子太郎ひらカナ한글'.split(''));
    fc.assert(
      fc.property(fc.array(letter, { minLength: 1, maxLength: 20 }), (letters) => {
        const ascii = domainToASCII(`${letters.join('')}.com`).split('.')[0] ?? '';
        expect(decodePunycode(ascii)).toBe(domainToUnicode(ascii));
      }),
    );
  });

  it('ships a table that only holds what an address can carry after the other rules', () => {
    const seen = new Set<string>();
    for (const [ascii, chars] of Object.entries(LOOK_ALIKES)) {
      expect(ascii).toMatch(/^[a-z0-9!#$%&'*+/=?^_`{|}~.-]+$/);
      for (const char of chars) {
        expect(char.codePointAt(0), char).toBeGreaterThan(0x7f);
        expect(char).toMatch(/^[\p{L}\p{M}\p{N}]$/u);
        expect(char.normalize('NFKC')).toBe(char);
        expect(char.normalize('NFD')).toBe(char);
        expect(char.toLowerCase()).toBe(char);
        expect(seen.has(char), char).toBe(false);
        seen.add(char);
      }
    }
    // Small enough to load with the forms: a few hundred characters.
    expect(seen.size).toBeGreaterThan(300);
    expect(seen.size).toBeLessThan(600);
  });
});
