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
import { EMAIL_COPY } from '#src/config/emails.ts';
import { escapeHtml } from '#src/lib/escape-html.ts';
import type { ConsentState } from '#src/lib/forms/shared.ts';
import { readBody, REQUEST_BODY_TIMEOUT_MS, REQUEST_MAX_BODY_BYTES } from '#src/server/request-check.ts';
import { EMAIL_LINK_PATHS } from './emails.ts';
import {
  checkLink,
  type LinkClaims,
  type LinkForm,
  type LinkPurpose,
  type LinkValues,
} from './signed-link.ts';

export type { ConsentState } from '#src/lib/forms/shared.ts';

/** The consent fields of a waitlist record, as the write path reads and writes them. */
export interface ConsentRecord {
  readonly id: string;
  /** Absent on a quote record, and on waitlist records stored before consent was recorded. */
  readonly consent?: ConsentState;
}

/** What a link needs from the store. */
export interface ConsentRecords {
  find(form: LinkForm, email: string): Promise<ConsentRecord | null>;
  /** Sets a waitlist record's consent (and, for Confirmed, its Confirmed At). */
  setConsent(id: string, consent: ConsentState, at: Date): Promise<void>;
  /** Stores a suppression entry for an address with no waitlist record: Consent Withdrawn. */
  createWithdrawn(email: string, at: Date): Promise<void>;
  /**
   * Applies a held change's values to the record for `email` (creating it if it is gone) by the
   * form's rules (a quote's Status back to 'New'; a waitlist record Confirmed, with the
   * statement the visitor saw). Answers false when the record already holds exactly these
   * values, so a second press changes nothing and sends nothing.
   */
  applyValues(form: LinkForm, email: string, values: LinkValues, at: Date): Promise<boolean>;
}

export interface EmailLinkOptions {
  readonly records: ConsentRecords;
  /** The current `LINK_SECRET` first, then any still honoured after a rotation. */
  readonly linkSecrets: readonly string[];
  /** The site's configured origin (SITE_URL): where the emails a pressed link causes lead. */
  readonly siteOrigin: string;
  readonly now: () => Date;
  /**
   * After a quote change is applied: the schools team hears of it (`origin`: the site's
   * configured one). Failures are logged, not shown: the change itself is done.
   */
  readonly afterQuoteChange?: (email: string, values: LinkValues, at: Date, origin: string) => Promise<void>;
  readonly log?: (message: string) => void;
}

const PURPOSE_BY_PATH = new Map<string, LinkPurpose>(
  Object.entries(EMAIL_LINK_PATHS).map(([purpose, path]) => [path, purpose as LinkPurpose]),
);

/** Whether `pathname` is one of the email links' paths. */
export const isEmailLinkPath = (pathname: string) => PURPOSE_BY_PATH.has(pathname);

const copy = EMAIL_COPY.linkPages;

interface Page {
  readonly status: number;
  readonly title: string;
  readonly body: string;
  /** A button that posts the token back to the same address. */
  readonly button?: { readonly label: string; readonly action: string; readonly token: string };
  /** Rows shown above the button (a held change's values). */
  readonly rows?: readonly (readonly [string, string])[];
  readonly link?: { readonly label: string; readonly href: string };
}

function render(page: Page): Response {
  const rows = page.rows?.length
    ? `<dl>${page.rows.map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>`).join('')}</dl>`
    : '';
  const button = page.button
    ? `<form method="post" action="${escapeHtml(page.button.action)}"><input type="hidden" name="token" value="${escapeHtml(page.button.token)}"><button type="submit">${escapeHtml(page.button.label)}</button></form>`
    : '';
  const link = page.link
    ? `<p><a href="${escapeHtml(page.link.href)}">${escapeHtml(page.link.label)}</a></p>`
    : '';
  const home = `<p><a href="/">${escapeHtml(copy.homeLink)}</a></p>`;
  const html = `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(page.title)} – ${escapeHtml(EMAIL_COPY.senderName)}</title>
<style>body{font-family:system-ui,Arial,sans-serif;font-size:1.0625rem;line-height:1.6;color:#1b1530;background:#fffdf8;margin:0;padding:2rem 1rem}main{max-width:36rem;margin:0 auto}h1{font-size:1.75rem;line-height:1.2}button{font:inherit;font-weight:700;min-height:48px;padding:.75rem 1.5rem;border:0;border-radius:999px;background:#4b2bbf;color:#fff;cursor:pointer}button:focus-visible,a:focus-visible{outline:3px solid #1b1530;outline-offset:3px}a{color:#4b2bbf}dt{font-weight:700}dd{margin:0 0 .5rem;white-space:pre-wrap}</style></head>
<body><main><h1>${escapeHtml(page.title)}</h1><p>${escapeHtml(page.body)}</p>${rows}${button}${link}${home}</main></body></html>`;
  return new Response(html, {
    status: page.status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      // The token is in the address: never sent on to another site.
      'referrer-policy': 'no-referrer',
      'x-robots-tag': 'noindex',
      'content-security-policy':
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    },
  });
}

const SIGN_UP_AGAIN = { label: copy.expiredAction, href: '/#waitlist' };

function refusedPage(reason: 'expired' | 'invalid', status = reason === 'expired' ? 410 : 400): Response {
  return reason === 'expired'
    ? render({ status, title: copy.expiredTitle, body: copy.expiredBody, link: SIGN_UP_AGAIN })
    : render({ status, title: copy.invalidTitle, body: copy.invalidBody, link: SIGN_UP_AGAIN });
}

/** A held change's values as rows for its page (multiple choices joined). */
function valueRows(values: LinkValues): [string, string][] {
  return Object.entries(values).map(([name, value]) => [
    name,
    typeof value === 'string' ? value : value.join(', '),
  ]);
}

/** What each link's page says before its button is pressed. */
const ASK: Readonly<Record<LinkPurpose, { title: string; body: string; button: string }>> = {
  confirm: { title: copy.confirmTitle, body: copy.confirmBody, button: copy.confirmButton },
  change: { title: copy.changeTitle, body: copy.changeBody, button: copy.changeButton },
  unsubscribe: { title: copy.unsubscribeTitle, body: copy.unsubscribeBody, button: copy.unsubscribeButton },
};

/** The page a GET shows: what pressing will do (a held change's values too), and the button. */
function confirmPage(purpose: LinkPurpose, claims: LinkClaims, action: string, token: string): Response {
  const ask = ASK[purpose];
  return render({
    status: 200,
    title: ask.title,
    body: ask.body,
    ...(purpose === 'change' ? { rows: valueRows(claims.values ?? {}) } : {}),
    button: { label: ask.button, action, token },
  });
}

/** The link's token: from the pressed button's body (read within the doors' limits), or the address. */
async function tokenFrom(request: Request, url: URL): Promise<string | { status: 408 | 413 }> {
  const fromQuery = url.searchParams.get('token');
  if (request.method !== 'POST') return fromQuery ?? '';
  const body = await readBody(request, REQUEST_MAX_BODY_BYTES, REQUEST_BODY_TIMEOUT_MS);
  if ('problem' in body) return { status: body.problem === 'too-large' ? 413 : 408 };
  const type = request.headers.get('content-type') ?? '';
  const fromBody = type.startsWith('application/x-www-form-urlencoded')
    ? new URLSearchParams(body.text).get('token')
    : null;
  return fromBody || (fromQuery ?? '');
}

/** Does the link's one thing; answers the page that says it is done. */
async function act(
  purpose: LinkPurpose,
  claims: LinkClaims,
  options: EmailLinkOptions,
  origin: string,
): Promise<Response> {
  const at = options.now();
  const { records } = options;
  switch (purpose) {
    case 'confirm': {
      const record = await records.find('waitlist', claims.email);
      // Gone (deleted after 30 days unconfirmed) or withdrawn since: this link no longer applies.
      if (!record || record.consent === 'Withdrawn') return refusedPage('expired');
      if (record.consent !== 'Confirmed') await records.setConsent(record.id, 'Confirmed', at);
      return render({ status: 200, title: copy.confirmedTitle, body: copy.confirmedBody });
    }
    case 'change': {
      const changed = await records.applyValues(claims.form, claims.email, claims.values ?? {}, at);
      if (changed && claims.form === 'quote' && options.afterQuoteChange) {
        await options
          .afterQuoteChange(claims.email, claims.values ?? {}, at, origin)
          .catch((error: unknown) => {
            options.log?.(`The schools team was not told of a confirmed quote change: ${String(error)}`);
          });
      }
      return render({ status: 200, title: copy.changedTitle, body: copy.changedBody });
    }
    case 'unsubscribe': {
      // The waitlist table is the suppression list for every email the site sends.
      const record = await records.find('waitlist', claims.email);
      if (!record) await records.createWithdrawn(claims.email, at);
      else if (record.consent !== 'Withdrawn') await records.setConsent(record.id, 'Withdrawn', at);
      return render({ status: 200, title: copy.unsubscribedTitle, body: copy.unsubscribedBody });
    }
  }
}

/** The page a link gets while the server cannot check or apply links (its mail settings are wrong). */
export const linksUnavailablePage = (): Response =>
  render({ status: 503, title: copy.unavailableTitle, body: copy.unavailableBody });

/** The page a client gets past the doors' per-client limit: nothing changed, try again shortly. */
export function linksBusyPage(retryAfterSeconds: number): Response {
  const response = render({ status: 429, title: copy.unavailableTitle, body: copy.unavailableBody });
  response.headers.set('retry-after', String(retryAfterSeconds));
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
  const token = await tokenFrom(request, url);
  if (typeof token !== 'string') return refusedPage('invalid', token.status);
  const check = await checkLink(token, purpose, options.linkSecrets, options.now());
  if (!check.ok) return refusedPage(check.reason === 'expired' ? 'expired' : 'invalid');
  // The button posts back to the path alone: the token travels in the body, not in logs.
  if (request.method !== 'POST') return confirmPage(purpose, check.claims, url.pathname, token);
  try {
    return await act(purpose, check.claims, options, options.siteOrigin);
  } catch (error) {
    options.log?.(`An email link could not be applied (${purpose}): ${String(error)}`);
    return render({ status: 503, title: copy.unavailableTitle, body: copy.unavailableBody });
  }
}
