/** What both forms share. */
import { EMAIL_MAX_LENGTH } from '#src/config/constants.ts';

/**
 * The forms' bot trap: a field people never see, named so bots fill it and browsers do not
 * autofill it. Filled, the page sends nothing and the server answers like a success, storing nothing.
 */
export const FORM_HONEYPOT = 'company_website';

/**
 * Both tables' normalised email (`normaliseEmail`), which the server writes on every write and
 * merges on (Airtable's performUpsert takes text fields, not the email type): a write Airtable
 * applies after the writer gave up on it, then tried again, makes one record, not two.
 */
export const EMAIL_KEY_FIELD = {
  airtable: 'Email Key',
  type: 'singleLineText',
  maxLength: EMAIL_MAX_LENGTH,
  source: 'stored',
} as const;

/** Long enough for any real name or school, short enough that a 1 MB paste is refused early. */
export const NAME_MAX_LENGTH = 200;

/** A waitlist record's consent, in the order it moves (the base field's options). */
export const CONSENT_STATES = ['Pending', 'Confirmed', 'Withdrawn'] as const;
export type ConsentState = (typeof CONSENT_STATES)[number];
