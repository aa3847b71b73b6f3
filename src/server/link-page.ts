/**
 * The pages the emails' links open, in the site's frame. The build writes one template
 * (src/entry-server.tsx `renderLinkPageTemplate`, scripts/vite-plugins/prerender.ts): the site's
 * header and footer around every part such a page can show, between region markers, with slots
 * for the words (src/lib/link-page.ts). Per request this keeps the parts of one page and puts its
 * words in, HTML-escaped, in one pass, so nothing a link carries is ever read as a marker.
 */
import { PRODUCT_NAME } from '#src/config/constants.ts';
import { escapeHtml } from '#src/lib/form-answer.ts';
import {
  LINK_PAGE_REGIONS,
  LINK_PAGE_SLOTS,
  LINK_PAGE_TEMPLATE_PATH,
  linkPageRegionEnd,
  linkPageRegionStart,
  linkPageSlot,
  type LinkPageRegion,
  type LinkPageSlot,
} from '#src/lib/link-page.ts';

export { LINK_PAGE_TEMPLATE_PATH };

/** What one page shows: its words, and the template's parts it keeps. */
export interface LinkPageContent {
  /** The page's heading, and its document title (with the product's name). */
  readonly title: string;
  readonly body: string;
  /** A held change's values, shown above the button. */
  readonly rows?: readonly (readonly [string, string])[];
  /** The button that posts the token back to `action`. */
  readonly button?: { readonly label: string; readonly action: string; readonly token: string };
  /** After unsubscribing: the token and `action` that 'Join the waitlist again' posts (with rejoin=1). */
  readonly rejoin?: { readonly action: string; readonly token: string };
  /** The parts after the words: next steps, or the way to a new link. */
  readonly parts?: readonly Exclude<LinkPageRegion, 'ask'>[];
}

export interface LinkPages {
  /** The full page, or null when there is no template (the caller answers a plain page). */
  render(page: LinkPageContent): Promise<string | null>;
}

/**
 * The link pages from the build's template, read by `load` (a path on the site's origin) once per
 * instance when `cache` is on: a deploy's template never changes.
 */
export function linkPagesFrom(
  load: (path: string) => Promise<string | null>,
  { cache = true }: { cache?: boolean } = {},
): LinkPages {
  let loaded: Promise<string | null> | undefined;
  const template = () => {
    if (cache && loaded) return loaded;
    const loading = load(LINK_PAGE_TEMPLATE_PATH).catch(() => null);
    if (cache) loaded = loading;
    return loading;
  };
  return {
    async render(page) {
      const html = await template();
      if (html === null) return null;
      try {
        return renderLinkPage(html, page);
      } catch (error) {
        // A template that drifted from this renderer: the visitor still gets the words.
        console.warn(`Link page template: ${error instanceof Error ? error.message : String(error)}`);
        return null;
      }
    },
  };
}

/** Keeps the region's content (without its markers) or cuts it out with its content. */
function applyRegion(html: string, region: LinkPageRegion, keep: boolean): string {
  const start = linkPageRegionStart(region);
  const end = linkPageRegionEnd(region);
  const open = html.indexOf(start);
  if (open < 0) throw new Error(`The link page template has no '${region}' region`);
  const close = html.indexOf(end, open + start.length);
  if (close < 0) throw new Error(`The link page template's region '${region}' is not closed`);
  const rest = html.slice(close + end.length);
  if (rest.includes(start)) throw new Error(`The link page template has two '${region}' regions`);
  return html.slice(0, open) + (keep ? html.slice(open + start.length, close) : '') + rest;
}

/** A held change's values as a description list, escaped. */
export function valuesList(rows: readonly (readonly [string, string])[]): string {
  if (!rows.length) return '';
  const items = rows.map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>`);
  return `<dl class="link-page__values">${items.join('')}</dl>`;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const [SLOT_START = '', SLOT_END = ''] = linkPageSlot('\0' as LinkPageSlot)
  .split('\0')
  .map(escapeRegExp);
const SLOT_PATTERN = new RegExp(`${SLOT_START}(${LINK_PAGE_SLOTS.join('|')})${SLOT_END}`, 'g');

/**
 * One link's page from the template: the parts it keeps, its words escaped in the slots. Throws
 * when the template lacks a region or a slot, so a template that drifted fails loudly.
 */
export function renderLinkPage(template: string, page: LinkPageContent): string {
  for (const slot of LINK_PAGE_SLOTS) {
    if (!template.includes(linkPageSlot(slot)))
      throw new Error(`The link page template has no '${slot}' slot`);
  }
  const kept = new Set<LinkPageRegion>(page.parts ?? []);
  if (page.button) kept.add('ask');
  let html = template;
  for (const region of LINK_PAGE_REGIONS) html = applyRegion(html, region, kept.has(region));
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
