/**
 * The markers of the pages the build renders once and the Worker fills per request: the forms'
 * answer pages (a native post's answer, filled by src/server/doors/form-answer.ts) and the page an
 * email's link opens (filled by src/server/links/page.ts). The build renders each with the site's
 * frame; the Worker keeps the regions of one answer and puts the words in the slots, escaped, by
 * plain string replacement, so copy, markup and styles stay in the React components and only what
 * a visitor posted is added. Shared by the build (src/entry-server.tsx) and the Worker.
 */

/** What a native post can come to: each outcome keeps some regions of the template. */
export type FormAnswerOutcome = 'confirmed' | 'invalid-email' | 'failure';

/**
 * Parts of the template kept or cut per outcome:
 * - 'confirmed', 'invalid-email', 'failure': what only that outcome shows (confirmation, summaries);
 * - 'form': the form again, with the visitor's values (both error outcomes);
 * - 'email-error' / 'email-ok': the email field with or without its message;
 * - 'error': the 'Error: ' prefix of the page title (both error outcomes).
 */
export const FORM_ANSWER_REGIONS = [
  'confirmed',
  'invalid-email',
  'failure',
  'form',
  'email-error',
  'email-ok',
  'error',
] as const;
export type FormAnswerRegion = (typeof FORM_ANSWER_REGIONS)[number];

/** The regions each outcome keeps; every other region is cut out with its content. */
export const FORM_ANSWER_KEPT: Readonly<Record<FormAnswerOutcome, readonly FormAnswerRegion[]>> = {
  confirmed: ['confirmed'],
  'invalid-email': ['invalid-email', 'form', 'email-error', 'error'],
  failure: ['failure', 'form', 'email-ok', 'error'],
};

/** The attribute of the empty elements that open and close a region in the rendered template. */
export const FORM_ANSWER_REGION_ATTRIBUTE = 'data-form-answer';

/** The empty element that opens a region of a template marked with `attribute` (as React renders it). */
export const regionStart = (attribute: string, region: string) =>
  `<template ${attribute}="${region}"></template>`;
/** The empty element that closes it. */
export const regionEnd = (attribute: string, region: string) => regionStart(attribute, `/${region}`);

/**
 * Keeps each of a region's copies in `html` (without its markers) or cuts them out with their
 * content; `found` says how many there were. Throws on one left open.
 */
export function applyRegion(
  html: string,
  attribute: string,
  region: string,
  keep: boolean,
): { html: string; found: number } {
  const start = regionStart(attribute, region);
  const end = regionEnd(attribute, region);
  let result = '';
  let from = 0;
  let found = 0;
  for (;;) {
    const open = html.indexOf(start, from);
    if (open < 0) return { html: result + html.slice(from), found };
    const close = html.indexOf(end, open + start.length);
    if (close < 0) throw new Error(`The template's region '${region}' is not closed`);
    result += html.slice(from, open) + (keep ? html.slice(open + start.length, close) : '');
    from = close + end.length;
    found += 1;
  }
}

/** Stands in a text input's value attribute for the posted value of the field `name`. */
export const formAnswerValueToken = (name: string) => `%%form-answer:value:${name}%%`;

/**
 * Marks a checkbox of the field `name` in the template: the server replaces the attribute with
 * `checked=""` when the checkbox's value was posted, and drops it otherwise.
 */
export const FORM_ANSWER_CHECKBOX_ATTRIBUTE = 'data-form-answer-checkbox';

/** Escapes text for an HTML attribute value or element body (the app's head, the server's pages). */
export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

// The email links' page (src/server/links/page.ts fills it); its words are in src/config/messages.ts.

/**
 * Parts of the template a page keeps or cuts:
 * - 'ask': the button that does the link's one thing (a plain form posting the token back);
 * - 'next-waitlist': what the waitlist sends and how often, and the store buttons;
 * - 'next-quote': when the schools team replies, and the booking calendar's link;
 * - 'rejoin': after unsubscribing, how to join again;
 * - 'sign-up': a link that no longer works, and the way to a new one.
 */
export const LINK_PAGE_REGIONS = ['ask', 'next-waitlist', 'next-quote', 'rejoin', 'sign-up'] as const;
export type LinkPageRegion = (typeof LINK_PAGE_REGIONS)[number];

/** The text the server puts in, each HTML-escaped ('rows' is markup the server builds, escaped). */
export const LINK_PAGE_SLOTS = ['title', 'heading', 'body', 'rows', 'action', 'token', 'button'] as const;
export type LinkPageSlot = (typeof LINK_PAGE_SLOTS)[number];

/**
 * Where the build writes the template inside dist/ (a path on the site's origin): beside the
 * forms' answer templates, under the prefix no request reaches (src/server/doors/form-answer.ts
 * `isHiddenPath`) and the Worker runs first for (wrangler.jsonc `run_worker_first`).
 */
export const LINK_PAGE_TEMPLATE_PATH = '/__forms/email-link.html';

/** The attribute of the empty elements that open and close a region in the rendered template. */
export const LINK_PAGE_REGION_ATTRIBUTE = 'data-link-page';

/** Stands in the template for the slot `name`'s text. */
export const linkPageSlot = (name: LinkPageSlot) => `%%link-page:${name}%%`;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Finds every `marker(name)` in a template whose name matches `names` (a RegExp source), capturing it. */
export function markerPattern(marker: (name: string) => string, names: string): RegExp {
  const [start = '', end = ''] = marker('\0').split('\0').map(escapeRegExp);
  return new RegExp(`${start}(${names})${end}`, 'g');
}
