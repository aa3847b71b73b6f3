/**
 * What happens when someone opens a link from one of the site's emails.
 *
 * - GET shows a page with one button and changes nothing: mail scanners open links.
 * - POST (the button, a plain form that works without JavaScript; or a mail provider's RFC 8058
 *   one-click unsubscribe, with no Origin, cookies or page marker) does the link's one thing.
 *   Doing it again changes nothing and sends nothing.
 * - A tampered or malformed link gets a 400 page and an expired one a 410 page that offers to
 *   sign up again; neither changes anything.
 *
 * The signed token is the proof: only the mailbox's owner has it, so no Origin check is needed
 * (and a one-click unsubscribe has none). Records are reached through `ConsentRecords`, which
 * the server's one write path implements; the cells a change writes come from the forms' own
 * rules (`applyValues`), so this module knows consent, not fields.
 */
import { EMAIL_COPY, WAITLIST_CONSENT_STATEMENT } from '#src/config/messages.ts';
import {
  escapeHtml,
  LINK_PAGE_REGIONS,
  LINK_PAGE_SLOTS,
  LINK_PAGE_TEMPLATE_PATH,
  applyRegion,
  LINK_PAGE_REGION_ATTRIBUTE,
  linkPageSlot,
  regionEnd,
  regionStart,
  type LinkPageRegion,
  type LinkPageSlot,
} from '#src/lib/page-templates.ts';
import { CALENDAR } from '#src/config/site.ts';
import { type ConsentState } from '#src/lib/forms/contract.ts';
import { readBody, REQUEST_BODY_TIMEOUT_MS, REQUEST_MAX_BODY_BYTES } from './request-check.ts';
export { type ConsentState } from '#src/lib/forms/contract.ts';
import { PRODUCT_NAME } from '#src/config/constants.ts';

/** Where each kind of signed link lands (the Worker runs first for /api/*). */
export const EMAIL_LINK_PATHS: Readonly<Record<LinkPurpose, string>> = {
  confirm: '/api/email/confirm',
  change: '/api/email/change',
  unsubscribe: '/api/email/unsubscribe',
};

/** What a link needs from the store. */
export interface ConsentRecords {
  /**
   * A record's id and consent, as the write path reads it (no consent on a quote record, nor on
   * waitlist records stored before consent was recorded), and when it was last written (its Last
   * Updated, as stored).
   */
  find(
    form: LinkForm,
    email: string,
  ): Promise<{ id: string; consent?: ConsentState; changedAt?: string } | null>;
  /**
   * Sets a waitlist record's consent (and, for Confirmed, its Confirmed At; with `statement`, the
   * words agreed to, for a withdrawn address joining again).
   */
  setConsent(id: string, consent: ConsentState, at: Date, statement?: string): Promise<void>;
  /** Stores a suppression entry for an address with no waitlist record: Consent Withdrawn. */
  createWithdrawn(email: string, at: Date): Promise<void>;
  /**
   * Applies a held change's values to the record for `email` (creating it if it is gone) by the
   * form's rules (a quote's Status back to 'New'; a waitlist record Confirmed, with the
   * statement the visitor saw). Answers 'unchanged' when the record already holds exactly these
   * values, so a second press changes nothing and sends nothing, and 'superseded' when the record
   * was written after the link was sent (`sentAt`): an older change link stops working once a
   * newer change is applied, so two links pressed in turn cannot loop.
   */
  applyValues(
    form: LinkForm,
    email: string,
    values: LinkValues,
    at: Date,
    sentAt: Date,
  ): Promise<'applied' | 'unchanged' | 'superseded'>;
}

export interface EmailLinkOptions {
  readonly records: ConsentRecords;
  /** The current `LINK_SECRET` first, then any still honoured after a rotation. */
  readonly linkSecrets: readonly string[];
  readonly now: () => Date;
  /**
   * After a quote change is applied: the schools team hears of it. Failures are logged, not
   * shown: the change itself is done.
   */
  readonly afterQuoteChange?: (email: string, values: LinkValues, at: Date) => Promise<void>;
  /**
   * 'Join the waitlist again' pressed for a withdrawn address: queues its fresh confirmation
   * (signed for the withdrawal stored at `withdrawnAt`) within the inbox's mail limits.
   */
  readonly rejoinMail?: (
    email: string,
    withdrawnAt: string,
    at: Date,
  ) => Promise<{ queued: number; limited: number }>;
  readonly log?: (message: string) => void;
  /** The build's templates, for the pages in the site's frame; without them, a minimal page. */
  readonly pages?: PageTemplates;
}

const PURPOSE_BY_PATH = new Map<string, LinkPurpose>(
  Object.entries(EMAIL_LINK_PATHS).map(([purpose, path]) => [path, purpose as LinkPurpose]),
);

/** Whether `pathname` is one of the email links' paths. */
export const isEmailLinkPath = (pathname: string) => PURPOSE_BY_PATH.has(pathname);

const copy = EMAIL_COPY.linkPages;
const SIGN_UP_HREF = '/#waitlist';

/** A link's answer: its status and what its page shows (the template's parts included). */
interface Page extends LinkPageContent {
  readonly status: number;
}

const slot = linkPageSlot;
const region = (name: LinkPageRegion, html: string) =>
  regionStart(LINK_PAGE_REGION_ATTRIBUTE, name) + html + regionEnd(LINK_PAGE_REGION_ATTRIBUTE, name);
const tokenForm = (extra: string, label: string) =>
  `<form method="post" action="${slot('action')}"><input type="hidden" name="token" value="${slot('token')}">${extra}<button type="submit">${label}</button></form>`;
const paragraph = (text: string) => `<p>${escapeHtml(text)}</p>`;
const link = (label: string, href: string) => `<p><a href="${escapeHtml(href)}">${escapeHtml(label)}</a></p>`;

/**
 * The minimal page, when there is no template (a Worker run without a build): the same regions and
 * slots as the build's template (so one renderer fills both) with no frame, only a little style.
 */
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
      paragraph(WAITLIST_CONSENT_STATEMENT) +
      tokenForm('<input type="hidden" name="rejoin" value="1">', escapeHtml(copy.rejoinAction)),
  ),
  region('sign-up', link(copy.expiredAction, SIGN_UP_HREF)),
  `${link(copy.homeLink, '/')}</main></body></html>`,
].join('\n');

/**
 * The page's policy: no script at all; the site's own styles (inline in the built template, linked
 * on the dev server), images (the logo is inline SVG, the icon a data: URL) and fonts; the button
 * posts only to the site; never framed.
 */
export const LINK_PAGE_POLICY =
  "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; " +
  "manifest-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** A link's page in the site's frame (the build's template), or the minimal page without one. */
async function render(page: Page, pages: PageTemplates | undefined): Promise<Response> {
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
      'x-content-type-options': 'nosniff',
      'content-security-policy': LINK_PAGE_POLICY,
    },
  });
}

/** A link that does nothing (changes nothing), and the way to a new one. */
function refusedPage(
  reason: 'expired' | 'invalid' | 'superseded',
  status = reason === 'invalid' ? 400 : 410,
): Page {
  return { status, title: copy[`${reason}Title`], body: copy[`${reason}Body`], parts: ['sign-up'] };
}

/** A held change's values as rows for its page (multiple choices joined). */
function valueRows(values: LinkValues): [string, string][] {
  return Object.entries(values).map(([name, value]) => [
    name,
    typeof value === 'string' ? value : value.join(', '),
  ]);
}

/** The page a GET shows: what pressing will do (a held change's values too), and the button. */
function confirmPage(purpose: LinkPurpose, claims: LinkClaims, action: string, token: string): Page {
  return {
    status: 200,
    title: copy[`${purpose}Title`],
    body: copy[`${purpose}Body`],
    ...(purpose === 'change' ? { rows: valueRows(claims.values ?? {}) } : {}),
    button: { label: copy[`${purpose}Button`], action, token },
  };
}

/** What a pressed link did, or found already done (its words are copy's `${done}Title` and `${done}Body`). */
type Done =
  | 'confirmed'
  | 'changed'
  | 'unsubscribed'
  | `already${'Confirmed' | 'Changed' | 'Unsubscribed'}`
  | 'rejoined'
  | `rejoin${'Sent' | 'Limited'}`;

/**
 * The page after a press: what happened in plain words, then the next step. A waitlist place:
 * what we send and how often, and the app's store buttons; a quote: the booking calendar; after
 * unsubscribing: how to join again.
 */
function donePage(done: Done, form: LinkForm, press: Press): Page {
  const words = { status: 200, title: copy[`${done}Title`], body: copy[`${done}Body`] };
  // A quote's email never put anyone on the waitlist: its page offers no way to join 'again'.
  if (done === 'unsubscribed' || done === 'alreadyUnsubscribed')
    return form === 'waitlist' ? { ...words, parts: ['rejoin'], rejoin: press } : words;
  if (done === 'rejoinSent' || done === 'rejoinLimited') return words;
  return { ...words, parts: [form === 'quote' ? 'next-quote' : 'next-waitlist'] };
}

/** A pressed button: the token, where it posted, and whether it was 'join again'. */
interface Press {
  readonly token: string;
  readonly action: string;
  readonly rejoin: boolean;
}

/**
 * The link's token: from the pressed button's body (read within the doors' limits), or the
 * address; and whether the button was 'join again' (the unsubscribed page's).
 */
async function pressOf(
  request: Request,
  url: URL,
): Promise<{ token: string; rejoin: boolean } | { status: 408 | 413 }> {
  const fromQuery = url.searchParams.get('token') ?? '';
  if (request.method !== 'POST') return { token: fromQuery, rejoin: false };
  const body = await readBody(request, REQUEST_MAX_BODY_BYTES, REQUEST_BODY_TIMEOUT_MS);
  if ('problem' in body) return { status: body.problem === 'too-large' ? 413 : 408 };
  const type = request.headers.get('content-type') ?? '';
  const fields = type.startsWith('application/x-www-form-urlencoded') ? new URLSearchParams(body.text) : null;
  return { token: fields?.get('token') || fromQuery, rejoin: fields?.get('rejoin') === '1' };
}

/** Does the link's one thing; answers the page that says it is done. */
async function act(claims: LinkClaims, options: EmailLinkOptions, press: Press): Promise<Page> {
  const at = options.now();
  const { records } = options;
  switch (claims.purpose) {
    case 'confirm': {
      const record = await records.find('waitlist', claims.email);
      // A rejoin confirmation applies to the withdrawal it was sent for, never to a later one.
      const rejoining = record?.consent === 'Withdrawn' && claims.withdrawnAt === (record.changedAt ?? '');
      // Gone (deleted after 30 days unconfirmed) or withdrawn since: this link no longer applies.
      if (!record || (record.consent === 'Withdrawn' && !rejoining)) return refusedPage('expired');
      if (record.consent === 'Confirmed') return donePage('alreadyConfirmed', claims.form, press);
      await records.setConsent(
        record.id,
        'Confirmed',
        at,
        rejoining ? WAITLIST_CONSENT_STATEMENT : undefined,
      );
      return donePage(rejoining ? 'rejoined' : 'confirmed', claims.form, press);
    }
    case 'change': {
      const result = await records.applyValues(
        claims.form,
        claims.email,
        claims.values ?? {},
        at,
        linkSentAt(claims),
      );
      if (result === 'superseded') return refusedPage('superseded');
      if (result === 'applied' && claims.form === 'quote' && options.afterQuoteChange) {
        await options.afterQuoteChange(claims.email, claims.values ?? {}, at).catch((error: unknown) => {
          options.log?.(`The schools team was not told of a confirmed quote change: ${String(error)}`);
        });
      }
      return donePage(result === 'applied' ? 'changed' : 'alreadyChanged', claims.form, press);
    }
    case 'unsubscribe': {
      // The waitlist table is the suppression list for every email the site sends.
      const record = await records.find('waitlist', claims.email);
      const already = record?.consent === 'Withdrawn';
      if (press.rejoin) {
        // The one way back once withdrawn (the forms send a withdrawn address nothing), but the
        // token lives for years in any forwarded email: it only sends the address a fresh
        // confirmation, and nothing changes until that is pressed. A quote's token never joins.
        if (claims.form !== 'waitlist' || !record) return refusedPage('invalid');
        if (record.consent === 'Confirmed') return donePage('alreadyConfirmed', 'waitlist', press);
        if (!already) return refusedPage('invalid');
        const sent = await options.rejoinMail?.(claims.email, record.changedAt ?? '', at);
        if (!sent?.queued && !sent?.limited) return { status: 503, ...UNAVAILABLE };
        return donePage(sent.queued ? 'rejoinSent' : 'rejoinLimited', 'waitlist', press);
      }
      if (!record) await records.createWithdrawn(claims.email, at);
      else if (!already) await records.setConsent(record.id, 'Withdrawn', at);
      return donePage(already ? 'alreadyUnsubscribed' : 'unsubscribed', claims.form, press);
    }
  }
}

const UNAVAILABLE = { title: copy.unavailableTitle, body: copy.unavailableBody };

/**
 * The page a link gets while the server cannot check or apply links (its mail settings are
 * wrong), or, with `retryAfterSeconds`, past the doors' per-client limit: nothing changed, try
 * again shortly.
 */
export async function linksUnavailablePage(pages?: PageTemplates, retryAfterSeconds?: number) {
  const response = await render({ status: retryAfterSeconds ? 429 : 503, ...UNAVAILABLE }, pages);
  if (retryAfterSeconds) response.headers.set('retry-after', String(retryAfterSeconds));
  return response;
}

/** Answers a request for one of the email links' paths (see isEmailLinkPath). */
export async function handleEmailLink(request: Request, options: EmailLinkOptions): Promise<Response> {
  const url = new URL(request.url);
  const purpose = PURPOSE_BY_PATH.get(url.pathname);
  if (!purpose) return new Response('Not found', { status: 404 });
  if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'POST') {
    return new Response('Method not allowed', { status: 405, headers: { allow: 'GET, HEAD, POST' } });
  }
  const { pages } = options;
  const pressed = await pressOf(request, url);
  if ('status' in pressed) return render(refusedPage('invalid', pressed.status), pages);
  const { token } = pressed;
  const check = await checkLink(token, purpose, options.linkSecrets, options.now());
  if (!check.ok) return render(refusedPage(check.reason === 'expired' ? 'expired' : 'invalid'), pages);
  // The button posts back to the path alone: the token travels in the body, not in logs.
  if (request.method !== 'POST')
    return render(confirmPage(purpose, check.claims, url.pathname, token), pages);
  let done: Page;
  try {
    done = await act(check.claims, options, { ...pressed, action: url.pathname });
  } catch (error) {
    options.log?.(`An email link could not be applied (${purpose}): ${String(error)}`);
    done = { status: 503, ...UNAVAILABLE };
  }
  return render(done, pages);
}

/**
 * Signed links: what a link in one of the site's emails may do, for which address, until when,
 * and (for a held change) with which values, sealed with an HMAC of the server's `LINK_SECRET`.
 * Checking one needs no database: the link carries everything and the signature proves the
 * server wrote it. Runs on Web Crypto (workerd and Node alike).
 *
 * A token is `<payload>.<signature>`, both base64url: the payload is JSON, the signature is
 * HMAC-SHA-256 over a fixed label and the payload, so a token cannot be replayed as another
 * kind of signed value.
 */

/** What a link does once its button is pressed. */
export type LinkPurpose = 'confirm' | 'change' | 'unsubscribe';

/** Which form's record a link acts on. */
export type LinkForm = 'waitlist' | 'quote';

/** Values a held change carries: the submission's fields by post name. */
export type LinkValues = Readonly<Record<string, string | readonly string[]>>;

export interface LinkClaims {
  readonly purpose: LinkPurpose;
  readonly form: LinkForm;
  /** The address the link was sent to (the record's email). */
  readonly email: string;
  /** Seconds since the epoch after which the link no longer works. */
  readonly expiresAt: number;
  /** A held change's values; absent for confirmations of a sign-up as stored and for unsubscribing. */
  readonly values?: LinkValues;
  /**
   * A rejoin confirmation's: the withdrawn record's Last Updated when it was sent. It confirms
   * only while the record is still that withdrawal (a plain confirmation never confirms one).
   */
  readonly withdrawnAt?: string;
}

/** How long a confirmation or change link works (the issue: 7 days). */
export const LINK_LIFETIME_SECONDS = 7 * 24 * 60 * 60;

/**
 * How long an unsubscribe link works: withdrawal must keep working from an old email, so for
 * years rather than days (a mail provider may also replay List-Unsubscribe long after sending).
 */
export const UNSUBSCRIBE_LINK_LIFETIME_SECONDS = 5 * 365 * 24 * 60 * 60;

/** The shortest `LINK_SECRET` the server accepts (32 characters: 192+ bits from a random generator). */
export const LINK_SECRET_MIN_LENGTH = 32;

/** Why a token was refused; every case changes nothing. */
export type LinkRefusal = 'malformed' | 'tampered' | 'expired' | 'wrong-purpose';

export type LinkCheck =
  | { readonly ok: true; readonly claims: LinkClaims }
  | { readonly ok: false; readonly reason: LinkRefusal; readonly claims?: LinkClaims };

const SIGNATURE_LABEL = 'podling-link-v1.';

/** What is wrong with a `LINK_SECRET`, or null when it can sign links. */
export function linkSecretProblem(secret: string | undefined): string | null {
  if (!secret) return 'LINK_SECRET is not set: the server cannot sign confirmation links.';
  if (secret.length < LINK_SECRET_MIN_LENGTH) {
    return `LINK_SECRET is ${secret.length} characters; it needs at least ${LINK_SECRET_MIN_LENGTH} (for example \`openssl rand -base64 48\`).`;
  }
  return null;
}

const encoder = new TextEncoder();

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
    const bytes = new Uint8Array(binary.length);
    for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
    return bytes;
  } catch {
    return null;
  }
}

const keys = new Map<string, Promise<CryptoKey>>();

function hmacKey(secret: string): Promise<CryptoKey> {
  const key =
    keys.get(secret) ??
    crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
  keys.set(secret, key);
  return key;
}

/** The signed token for `claims`, under the current secret. */
export async function signLink(claims: LinkClaims, secret: string): Promise<string> {
  const problem = linkSecretProblem(secret);
  if (problem) throw new Error(problem);
  const wire = {
    p: claims.purpose,
    f: claims.form,
    e: claims.email,
    x: claims.expiresAt,
    ...(claims.values ? { v: claims.values } : {}),
    ...(claims.withdrawnAt === undefined ? {} : { w: claims.withdrawnAt }),
  };
  const payload = toBase64Url(encoder.encode(JSON.stringify(wire)));
  const signature = await crypto.subtle.sign(
    'HMAC',
    await hmacKey(secret),
    encoder.encode(SIGNATURE_LABEL + payload),
  );
  return `${payload}.${toBase64Url(new Uint8Array(signature))}`;
}

function isValues(value: unknown): value is LinkValues {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.values(value).every(
    (entry) =>
      typeof entry === 'string' || (Array.isArray(entry) && entry.every((item) => typeof item === 'string')),
  );
}

function claimsOf(json: unknown): LinkClaims | null {
  if (typeof json !== 'object' || json === null) return null;
  const { p, f, e, x, v, w } = json as Record<string, unknown>;
  // A purpose is one of EMAIL_LINK_PATHS' keys.
  if (typeof p !== 'string' || !Object.hasOwn(EMAIL_LINK_PATHS, p) || (f !== 'waitlist' && f !== 'quote'))
    return null;
  if (typeof e !== 'string' || e.length === 0 || typeof x !== 'number' || !Number.isFinite(x)) return null;
  if ((v !== undefined && !isValues(v)) || (w !== undefined && typeof w !== 'string')) return null;
  return {
    purpose: p as LinkPurpose,
    form: f as LinkForm,
    email: e,
    expiresAt: x,
    ...(v === undefined ? {} : { values: v }),
    ...(w === undefined ? {} : { withdrawnAt: w }),
  };
}

/**
 * Checks a token: signed by one of `secrets` (the current one first, then any still honoured
 * after a rotation), for `purpose`, and not expired at `now`. The signature is checked before
 * anything in the payload is trusted; an expired link still names its claims, so its page can
 * offer to sign up again.
 */
export async function checkLink(
  token: string,
  purpose: LinkPurpose,
  secrets: readonly string[],
  now: Date,
): Promise<LinkCheck> {
  const parts = token.split('.');
  if (parts.length !== 2) return { ok: false, reason: 'malformed' };
  const [payload = '', signatureText = ''] = parts;
  const signature = fromBase64Url(signatureText);
  const payloadBytes = fromBase64Url(payload);
  if (!signature || !payloadBytes || signature.length !== 32) return { ok: false, reason: 'malformed' };
  const signedBy = async (secret: string) =>
    !linkSecretProblem(secret) &&
    crypto.subtle.verify('HMAC', await hmacKey(secret), signature, encoder.encode(SIGNATURE_LABEL + payload));
  let signed = false;
  for (const secret of secrets) if (!signed) signed = await signedBy(secret);
  if (!signed) return { ok: false, reason: 'tampered' };
  let claims: LinkClaims | null;
  try {
    claims = claimsOf(JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payloadBytes)));
  } catch {
    claims = null;
  }
  if (!claims) return { ok: false, reason: 'malformed' };
  if (claims.purpose !== purpose) return { ok: false, reason: 'wrong-purpose' };
  if (now.getTime() / 1000 > claims.expiresAt) return { ok: false, reason: 'expired', claims };
  return { ok: true, claims };
}

const lifetimeOf = (purpose: LinkPurpose) =>
  purpose === 'unsubscribe' ? UNSUBSCRIBE_LINK_LIFETIME_SECONDS : LINK_LIFETIME_SECONDS;

/** When a link made at `now` for `purpose` stops working, in seconds since the epoch. */
export function linkExpiry(purpose: LinkPurpose, now: Date): number {
  return Math.floor(now.getTime() / 1000) + lifetimeOf(purpose);
}

/** When a link was made (to the second): its expiry less its purpose's lifetime. */
export const linkSentAt = (claims: LinkClaims): Date =>
  new Date((claims.expiresAt - lifetimeOf(claims.purpose)) * 1000);

/**
 * The pages the emails' links open, in the site's frame. The build writes one template
 * (src/entry-server.tsx `renderLinkPageTemplate`, scripts/vite-plugins/prerender.ts): the site's
 * header and footer around every part such a page can show, between region markers, with slots
 * for the words (src/lib/page-templates.ts). Per request this keeps the parts of one page and puts its
 * words in, HTML-escaped, in one pass, so nothing a link carries is ever read as a marker.
 */

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

/**
 * The build's page templates (the forms' answers, form-door.ts, and the links' page), read by
 * `load` (a path on the site's origin) once per instance when `cache` is on: a deploy's templates
 * never change. Each call fills the template at `path`, or answers null when there is none, or
 * one that drifted from its renderer (`fill` throws): the caller answers a plain page.
 */
export function pageTemplates(
  load: (path: string) => Promise<string | null>,
  { cache = true }: { cache?: boolean } = {},
) {
  const loaded = new Map<string, Promise<string | null>>();
  return async (path: string, fill: (template: string) => string): Promise<string | null> => {
    let template = loaded.get(path);
    if (!template) {
      template = load(path).catch(() => null);
      if (cache) loaded.set(path, template);
    }
    const html = await template;
    if (html === null) return null;
    try {
      return fill(html);
    } catch (error) {
      // A template that drifted from its renderer: the visitor still gets the words.
      console.warn(`Page template ${path}: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    }
  };
}
export type PageTemplates = ReturnType<typeof pageTemplates>;

/** Keeps the template's one copy of the region (without its markers) or cuts it out with its content. */
function keepOrCut(html: string, region: LinkPageRegion, keep: boolean): string {
  const applied = applyRegion(html, LINK_PAGE_REGION_ATTRIBUTE, region, keep);
  if (applied.found !== 1)
    throw new Error(`The link page template has ${applied.found} '${region}' regions, not one`);
  return applied.html;
}

/** A held change's values as a description list, escaped. */
export function valuesList(rows: readonly (readonly [string, string])[]): string {
  if (!rows.length) return '';
  const items = rows.map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>`);
  return `<dl class="link-page__values">${items.join('')}</dl>`;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Finds every `marker(name)` in a template whose name matches `names` (a RegExp source), capturing it. */
export function markerPattern(marker: (name: string) => string, names: string): RegExp {
  const [start = '', end = ''] = marker('\0').split('\0').map(escapeRegExp);
  return new RegExp(`${start}(${names})${end}`, 'g');
}
const SLOT_PATTERN = markerPattern((name) => linkPageSlot(name as LinkPageSlot), LINK_PAGE_SLOTS.join('|'));

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
  for (const region of LINK_PAGE_REGIONS) html = keepOrCut(html, region, kept.has(region));
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
