/**
 * The links' pages in the site's frame, from one built template (renderLinkPageTemplate, prerender.ts; markers:
 * src/lib/page-templates.ts): a page's parts, its words escaped in one pass (nothing a link carries is a marker).
 */
import { EMAIL_COPY } from '#src/config/messages.ts';
import { confirmingForm, formNamed } from '#src/lib/forms/forms.ts';
import {
  escapeHtml,
  LINK_PAGE_REGIONS,
  LINK_PAGE_SLOTS,
  LINK_PAGE_TEMPLATE_PATH,
  applyRegion,
  LINK_PAGE_REGION_ATTRIBUTE,
  linkPageSlot,
  markerPattern,
  regionEnd,
  regionStart,
  type LinkPageRegion,
  type LinkPageSlot,
} from '#src/lib/page-templates.ts';
import { CALENDAR } from '#src/config/site.ts';
import { PRODUCT_NAME } from '#src/config/constants.ts';
import type { LinkClaims, LinkForm } from './tokens.ts';
import type { PageTemplates } from '#src/server/host.ts';

const copy = EMAIL_COPY.linkPages;
const SIGN_UP_HREF = '/#waitlist';

type Posts = { readonly action: string; readonly token: string };

/**
 * A link's answer: its status, its title (the heading; with the product's name, the document's), words, a
 * held change's values, the button posting the token back, what 'join again' posts (rejoin=1), the template's
 * parts after the words.
 */
export interface Page {
  readonly status: number;
  readonly title: string;
  readonly body: string;
  readonly rows?: readonly (readonly [string, string])[];
  readonly button?: Posts & { readonly label: string };
  readonly rejoin?: Posts;
  readonly parts?: readonly Exclude<LinkPageRegion, 'ask'>[];
}
type Refused = 'expired' | 'invalid' | 'superseded';

const slot = linkPageSlot;
const region = (name: LinkPageRegion, html: string) =>
  regionStart(LINK_PAGE_REGION_ATTRIBUTE, name) + html + regionEnd(LINK_PAGE_REGION_ATTRIBUTE, name);
const tokenForm = (extra: string, label: string) =>
  `<form method="post" action="${slot('action')}"><input type="hidden" name="token" value="${slot('token')}">${extra}<button type="submit">${label}</button></form>`;
const paragraph = (text: string) => `<p>${escapeHtml(text)}</p>`;
const link = (label: string, href: string) => `<p><a href="${escapeHtml(href)}">${escapeHtml(label)}</a></p>`;

/** Without a build's template: the same regions and slots (one renderer fills both), no frame, a little style. */
const PLAIN_TEMPLATE = [
  `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${slot('title')}</title>
<style>body{font-family:system-ui,Arial,sans-serif;font-size:1.0625rem;line-height:1.6;color:#1b1530;background:#fffdf8;margin:0;padding:2rem 1rem}main{max-width:36rem;margin:0 auto}h1{font-size:1.75rem;line-height:1.2}button{font:inherit;font-weight:700;min-height:48px;padding:.75rem 1.5rem;border:0;border-radius:999px;background:#4b2bbf;color:#fff;cursor:pointer}button:focus-visible,a:focus-visible{outline:3px solid #1b1530;outline-offset:3px}a{color:#4b2bbf}dt{font-weight:700}dd{margin:0 0 .5rem;white-space:pre-wrap}</style></head>`,
  `<body><main><h1>${slot('heading')}</h1><p>${slot('body')}</p>${slot('rows')}`,
  region('ask', tokenForm('', slot('button'))),
  region('next-waitlist', paragraph(copy.waitlistEmails)),
  region(
    'next-quote',
    paragraph(`${copy.quoteReply} ${copy.quoteBooking}`) + link(copy.quoteBookingLink, CALENDAR.bookingUrl),
  ),
  region(
    'rejoin',
    paragraph(copy.rejoin) +
      paragraph(confirmingForm()?.conduct.confirms?.statement ?? '') +
      tokenForm('<input type="hidden" name="rejoin" value="1">', escapeHtml(copy.rejoinAction)),
  ),
  region('sign-up', link(copy.expiredAction, SIGN_UP_HREF)),
  `${link(copy.homeLink, '/')}</main></body></html>`,
].join('\n');

/**
 * No script; the site's own styles (inline in the built template, linked on the dev server), images
 * (the logo inline SVG, the icon a data: URL) and fonts; the button posts only to the site; never framed.
 */
const LINK_PAGE_POLICY =
  "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; " +
  "manifest-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** A link's page in the site's frame (the build's template), or the minimal page without one. */
export async function render(page: Page, pages?: PageTemplates, retryAfterSeconds?: number) {
  const html =
    (await pages?.(LINK_PAGE_TEMPLATE_PATH, (template) => renderLinkPage(template, page))) ??
    renderLinkPage(PLAIN_TEMPLATE, page);
  return new Response(html, {
    status: page.status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      // The token is in the address: never sent on to another site.
      'referrer-policy': 'no-referrer',
      'x-robots-tag': 'noindex',
      'content-security-policy': LINK_PAGE_POLICY,
      ...(retryAfterSeconds ? { 'retry-after': String(retryAfterSeconds) } : {}),
    },
  });
}

/** A link that does nothing (changes nothing), and the way to a new one. */
export function refusedPage(reason: Refused, status = reason === 'invalid' ? 400 : 410): Page {
  return { status, title: copy[`${reason}Title`], body: copy[`${reason}Body`], parts: ['sign-up'] };
}

/** The page a GET shows: what pressing will do (a held change's values too), and the button. */
export function confirmPage({ purpose, values }: LinkClaims, { action, token }: Posts): Page {
  return {
    status: 200,
    title: copy[`${purpose}Title`],
    body: copy[`${purpose}Body`],
    // A held change's values, multiple choices joined.
    rows:
      purpose === 'change'
        ? Object.entries(values ?? {}).map(([name, v]) => [name, [v].flat().join(', ')] as const)
        : undefined,
    button: { label: copy[`${purpose}Button`], action, token },
  };
}

type Did = 'Confirmed' | 'Changed' | 'Unsubscribed';
/** What a pressed link did, or found already done (its words are copy's `${done}Title` and `${done}Body`). */
export type Done = Uncapitalize<Did> | `already${Did}` | 'rejoined' | `rejoin${'Sent' | 'Limited'}`;

/**
 * After a press: what happened, then the form's next step, the region its contract names (`words.nextStep`:
 * a waitlist place: what we send, how often, the app's store buttons; a quote: the booking calendar);
 * after unsubscribing from the confirming form's list, how to join again (no other form's email puts anyone on it).
 */
export function donePage(done: Done, form: LinkForm, press: Posts): Page {
  const words = { status: 200, title: copy[`${done}Title`], body: copy[`${done}Body`] };
  if (done === 'unsubscribed' || done === 'alreadyUnsubscribed')
    return confirmingForm()?.name === form ? { ...words, parts: ['rejoin'], rejoin: press } : words;
  if (done === 'rejoinSent' || done === 'rejoinLimited') return words;
  const next = formNamed(form)?.words.nextStep;
  return next ? { ...words, parts: [next] } : words;
}

/** Nothing changed, try again shortly: Airtable or the mail settings failed, or (429) past the per-client limit. */
export const UNAVAILABLE = { title: copy.unavailableTitle, body: copy.unavailableBody };

/** A held change's values as a description list, escaped. */
function valuesList(rows: readonly (readonly [string, string])[]): string {
  if (!rows.length) return '';
  const items = rows.map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>`);
  return `<dl class="link-page__values">${items.join('')}</dl>`;
}

const SLOT_PATTERN = markerPattern((name) => linkPageSlot(name as LinkPageSlot), LINK_PAGE_SLOTS.join('|'));

/** One link's page: the parts it keeps, its words escaped in the slots; a drifted template throws (loudly). */
export function renderLinkPage(template: string, page: Omit<Page, 'status'>): string {
  const missing = LINK_PAGE_SLOTS.find((slot) => !template.includes(linkPageSlot(slot)));
  if (missing) throw new Error(`The link page template has no '${missing}' slot`);
  const kept = new Set<LinkPageRegion>(page.parts ?? []);
  if (page.button) kept.add('ask');
  let html = template;
  // Each region's one copy kept (without its markers) or cut out with its content.
  for (const region of LINK_PAGE_REGIONS) {
    const applied = applyRegion(html, LINK_PAGE_REGION_ATTRIBUTE, region, kept.has(region));
    if (applied.found !== 1)
      throw new Error(`The link page template has ${applied.found} '${region}' regions, not one`);
    html = applied.html;
  }
  const values: Record<LinkPageSlot, string> = {
    title: escapeHtml(`${page.title} | ${PRODUCT_NAME}`),
    heading: escapeHtml(page.title),
    body: escapeHtml(page.body),
    rows: valuesList(page.rows ?? []),
    action: escapeHtml((page.button ?? page.rejoin)?.action ?? ''),
    token: escapeHtml((page.button ?? page.rejoin)?.token ?? ''),
    button: escapeHtml(page.button?.label ?? ''),
  };
  // One pass: a value is never searched again, so nothing in it is read as a slot.
  return html.replace(SLOT_PATTERN, (_, slot: LinkPageSlot) => values[slot]);
}
