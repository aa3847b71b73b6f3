import { canonicalEmail } from '#src/lib/email.ts';
import { fieldNamesOf } from './schema.ts';

/** Field names of 'School Quotes', exactly as in Airtable (from the quote form's contract). */
export const QUOTE_FIELDS = fieldNamesOf('quotes');

/** Field names of 'Waitlist', exactly as in Airtable (from the waitlist form's contract). */
export const WAITLIST_FIELDS = fieldNamesOf('waitlist');

/**
 * The stored form of an email: its canonical form (trimmed, NFC, lower case, ASCII domain; see
 * canonicalEmail), or for a value that has none, trimmed and lower-cased. The lookup formula
 * compares the same way.
 */
export function normaliseEmail(email: string): string {
  return canonicalEmail(email) ?? email.trim().toLowerCase();
}
