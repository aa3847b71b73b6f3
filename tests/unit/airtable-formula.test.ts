import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emailLookupFormula, toFormulaStringLiteral } from '#src/lib/forms/submission.ts';

// A single-quoted Airtable string literal: any character but a bare quote, backslash or line
// break, or a backslash escape. If every output matches, no input can end the literal early.
const SINGLE_QUOTED_LITERAL = /^'(?:[^'\\\n\r]|\\[\s\S])*'$/;

/** Reads a literal back the way Airtable does (backslash escapes). */
function decode(literal: string): string {
  const escapes: Record<string, string> = { n: '\n', r: '\r', t: '\t' };
  return literal.slice(1, -1).replace(/\\([\s\S])/g, (_, char: string) => escapes[char] ?? char);
}

describe('toFormulaStringLiteral', () => {
  it('escapes quotes, backslashes and line breaks', () => {
    expect(toFormulaStringLiteral("o'neil@example.com")).toBe("'o\\'neil@example.com'");
    expect(toFormulaStringLiteral('a\\b@example.com')).toBe("'a\\\\b@example.com'");
    expect(toFormulaStringLiteral("a\\'b")).toBe("'a\\\\\\'b'");
    expect(toFormulaStringLiteral('a"b')).toBe("'a\\\"b'");
    expect(toFormulaStringLiteral('a\nb\r\tc')).toBe("'a\\nb\\r\\tc'");
    expect(toFormulaStringLiteral('{Email}')).toBe("'{Email}'");
  });

  it('always yields one closed literal that reads back as the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        const literal = toFormulaStringLiteral(value);
        expect(literal).toMatch(SINGLE_QUOTED_LITERAL);
        expect(decode(literal)).toBe(value);
      }),
      { numRuns: 200 },
    );
  });
});

describe('emailLookupFormula', () => {
  it('compares the trimmed, lower-cased Email with the normalised address', () => {
    expect(emailLookupFormula('  Head@School.ORG ')).toBe("LOWER(TRIM({Email})) = 'head@school.org'");
  });

  it('keeps hostile input inside the literal', () => {
    expect(emailLookupFormula("x' OR '1'='1@evil.com")).toBe(
      "LOWER(TRIM({Email})) = 'x\\' or \\'1\\'=\\'1@evil.com'",
    );
    expect(emailLookupFormula("a\\') OR TRUE() OR ('@x.com")).toBe(
      "LOWER(TRIM({Email})) = 'a\\\\\\') or true() or (\\'@x.com'",
    );
  });
});
