import { normaliseEmail } from './fields.ts';

// Airtable formula string literals use backslash escapes. Escaping the backslash first keeps
// the later escapes intact; line breaks are escaped so the literal stays on one line.
const STRING_ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  "'": "\\'",
  '"': '\\"',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/** Quotes any text as a single-quoted Airtable formula string literal that cannot end early. */
export function toFormulaStringLiteral(value: string): string {
  return `'${value.replace(/[\\'"\n\r\t]/g, (char) => STRING_ESCAPES[char] ?? char)}'`;
}

/**
 * The one lookup formula: records whose Email, trimmed and lower-cased, equals the normalised
 * email. Trimming the stored side also finds rows someone typed into Airtable by hand.
 */
export function emailLookupFormula(email: string, emailField = 'Email'): string {
  return `LOWER(TRIM({${emailField}})) = ${toFormulaStringLiteral(normaliseEmail(email))}`;
}
