/**
 * The markers of the email links' page template (src/server/link-page.ts fills it). The build
 * renders the template once with the site's frame (header, footer, styles) around every part a
 * link's page can show; the Worker keeps the parts of one answer and puts its words in the slots,
 * escaped, by plain string replacement. So the frame and the next steps (store buttons, booking
 * link) stay in the React components, and the words in src/config/messages.ts.
 */

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
 * forms' answer templates, under the prefix no request reaches (src/server/form-door.ts
 * `isHiddenPath`) and the Worker runs first for (wrangler.jsonc `run_worker_first`).
 */
export const LINK_PAGE_TEMPLATE_PATH = '/__forms/email-link.html';

/** The attribute of the empty elements that open and close a region in the rendered template. */
export const LINK_PAGE_REGION_ATTRIBUTE = 'data-link-page';

/** The empty element that opens a region (as React renders it). */
export const linkPageRegionStart = (region: LinkPageRegion) =>
  `<template ${LINK_PAGE_REGION_ATTRIBUTE}="${region}"></template>`;
/** The empty element that closes a region (as React renders it). */
export const linkPageRegionEnd = (region: LinkPageRegion) =>
  `<template ${LINK_PAGE_REGION_ATTRIBUTE}="/${region}"></template>`;

/** Stands in the template for the slot `name`'s text. */
export const linkPageSlot = (name: LinkPageSlot) => `%%link-page:${name}%%`;
