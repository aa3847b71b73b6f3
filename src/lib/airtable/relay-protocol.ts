/**
 * What the page and the same-origin relay (src/server/relay.ts) agree on. The page's airtable.js
 * client is pointed at RELAY_PATH on the site's own origin with these stand-in credentials: they
 * open nothing, the relay never forwards them, and the real token and base id stay on the server.
 */

/** Where the relay answers, on the site's own origin. */
export const RELAY_PATH = '/api/airtable';
/** The only base id the relay accepts in a path; it stands for the server's AIRTABLE_BASE_ID. */
export const RELAY_BASE_ID = 'appSiteRelay';
/** airtable.js insists on a key; the relay ignores whatever Authorization the page sends. */
export const RELAY_CLIENT_KEY = 'same-origin-relay';

/**
 * Where each form posts natively (before hydration or without JavaScript), on the site's own
 * origin, in relay deploys: `application/x-www-form-urlencoded`, answered with a full page.
 */
export const FORM_POST_PATHS = {
  waitlist: '/api/forms/waitlist',
  quote: '/api/forms/quote',
} as const;
export type NativeFormName = keyof typeof FORM_POST_PATHS;

/**
 * The forms' bot trap: a field people never see (named so bots fill it and browsers do not
 * autofill it). The server checks it on both doors: posted natively, a filled trap is answered
 * like a success and stores nothing; the page's airtable.js client sends nothing when it is filled
 * and otherwise always carries RELAY_CLIENT_KEY, so a JSON create without it did not come from
 * the page's form and is refused.
 */
export const FORM_TRAP_FIELD = 'company_website';
