/** What both forms share. */

/**
 * The forms' bot trap: a field people never see, named so bots fill it and browsers do not
 * autofill it. Filled, the page sends nothing and the server answers like a success, storing nothing.
 */
export const FORM_HONEYPOT = 'company_website';

/** Long enough for any real name or school, short enough that a 1 MB paste is refused early. */
export const NAME_MAX_LENGTH = 200;

/** A waitlist record's consent, in the order it moves (the base field's options). */
export const CONSENT_STATES = ['Pending', 'Confirmed', 'Withdrawn'] as const;
export type ConsentState = (typeof CONSENT_STATES)[number];
