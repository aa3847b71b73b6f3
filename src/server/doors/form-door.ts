/**
 * The forms' doors (each contract's `path`), one handler the Worker mounts. Enhanced and native posts
 * (before hydration or without JavaScript) send the same urlencoded fields; request-check.ts decides
 * and this answers in the form asked: POST only, a GET (or HEAD) sent to the form's page (303), else 405.
 * Enhanced (JSON, answerEnhancedPost): `{ success: true }` or `{ success: false, error, field? }` with
 * the check's status. Native, a full page: stored, queued or trapped, the spec's confirmation (200); a
 * refused email, the form again with the spec's message at the field (422); anything else, the form
 * with 'Something went wrong. Please try again.' and the check's status; every value kept. The page
 * comes from the build's answer templates; a host without them answers a plain page, same words.
 */
import { STORAGE_ANSWER_BOUND_MS } from '#src/config/constants.ts';
import { MESSAGES, THANK_YOU } from '#src/config/messages.ts';
import {
  escapeHtml,
  FORM_ANSWER_CHECKBOX_ATTRIBUTE,
  FORM_ANSWER_KEPT,
  FORM_ANSWER_REGIONS,
  applyRegion,
  FORM_ANSWER_REGION_ATTRIBUTE,
  regionStart,
  formAnswerValueToken,
  markerPattern,
  type FormAnswerOutcome,
} from '#src/lib/page-templates.ts';
import { formAtPath } from '#src/lib/forms/forms.ts';
import type { FormContract } from '#src/lib/forms/contract.ts';
import { reader } from '#src/lib/forms/submission.ts';
import { createAirtableClient } from '#src/server/airtable/client.ts';
import { type AirtableEnv, airtableAccess } from '#src/server/settings.ts';
import type { Pacer } from '#src/server/airtable/pacer.ts';
import { isEmailLinkPath } from '#src/server/links/tokens.ts';
import type { EmailLinkOptions } from '#src/server/links/actions.ts';
import type { PageTemplates } from '#src/server/links/page.ts';
import { queueOutcomeMail, type WorkerMail } from '#src/server/mail/plan.ts';
import { confirmedChange, rejoinRequest } from '#src/server/mail/plan.ts';
import {
  createRequestCheck,
  type CheckResult,
  type RequestCheckOptions,
  clientLimitKey,
} from './request-check.ts';

/** No script, never framed or cached (worker.ts adds the other security headers to every answer). */
const HTML_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'content-security-policy':
    "default-src 'self'; script-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
    "frame-src 'none'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
};

/** The posted form as values by name; the bot trap never comes back. */
function postedValues(form: URLSearchParams | undefined): NativeValues {
  const values: Record<string, string | string[]> = {};
  for (const name of new Set(form?.keys() ?? [])) {
    const all = form?.getAll(name) ?? [];
    values[name] = all.length > 1 ? all : (all[0] ?? '');
  }
  return values;
}

/** The words of an answer, when the host has no built page to put them in. */
function plainPage(form: FormContract, outcome: NativeOutcome): string {
  const lines =
    outcome === 'confirmed'
      ? (THANK_YOU[form.name] ?? [MESSAGES.waitlistJoined])
      : [outcome === 'invalid-email' ? MESSAGES.invalidEmail : MESSAGES.genericFailureToast];
  const [title = '', ...rest] = lines.map(escapeHtml);
  return `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title></head><body><main><h1>${title}</h1>${rest.map((line) => `<p>${line}</p>`).join('')}<p><a href="${form.page}">Back</a></p></main></body></html>`;
}

/** The request check's result as a response: a refusal's status, and its Retry-After if any. */
function respond(result: CheckResult, body: string, headers: Record<string, string>): Response {
  const refused = result.outcome === 'refused' ? result : undefined;
  const response = new Response(body, { status: refused?.status ?? 200, headers });
  if (refused?.retryAfterSeconds) response.headers.set('retry-after', String(refused.retryAfterSeconds));
  return response;
}

async function answerNativePost(
  form: FormContract,
  result: CheckResult,
  templates: PageTemplates | undefined,
): Promise<Response> {
  const outcome: NativeOutcome =
    result.outcome !== 'refused' ? 'confirmed' : result.field === 'email' ? 'invalid-email' : 'failure';
  const fill = (template: string) =>
    renderFormAnswer(template, form.name, outcome, postedValues(result.form));
  const page = (await templates?.(formTemplatePath(form.name), fill)) ?? plainPage(form, outcome);
  return respond(result, page, HTML_HEADERS);
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

/** What the enhanced form is told: the same for a stored, an unknown and a trapped email. */
type EnhancedAnswer =
  | { success: true; id: string; createdTime: string }
  | { success: false; error: { type: string; message: string }; field?: 'email' };

function answerEnhancedPost(result: CheckResult): Response {
  const body: EnhancedAnswer =
    result.outcome === 'refused'
      ? {
          success: false,
          error: { type: result.type, message: result.message },
          ...(result.field ? { field: result.field } : {}),
        }
      : { success: true, ...result.receipt };
  return respond(result, JSON.stringify(body), JSON_HEADERS);
}

/**
 * A native post's answer page: the build writes one template per form (scripts/vite-plugins/
 * prerender.ts), the form's page in full with no script; `renderFormAnswer` fills a copy for one
 * post by plain string replacement of the markers in src/lib/page-templates.ts. All copy comes from
 * the template, i.e. from the components and src/config/messages.ts.
 */
export type NativeOutcome = FormAnswerOutcome;
/** Raw posted values by field name (a repeated field, such as checkboxes, as a list). */
export type NativeValues = Readonly<Record<string, string | readonly string[]>>;

/**
 * Where the build writes the answer templates inside dist/. They are raw (every outcome's part at
 * once, markers in place): the Worker reads them from its assets and answers any path that
 * reaches it (isHiddenPath) with the not-found page.
 */
export const FORM_TEMPLATES_PREFIX = '/__forms/';

/**
 * True for a request path a host must never serve from the built files: one that reaches the
 * answer templates once decoded and normalised ('/%5f%5fforms/waitlist.html',
 * '/assets/..%2f__forms/quote.html', '//__FORMS/quote'), and any path a file server could read
 * another way than it looks: an encoded slash, backslash or NUL, a '..' segment, or a '%' still
 * there after decoding (encoded twice). No page or asset of the site has such a path.
 */
export function isHiddenPath(pathname: string): boolean {
  if (/%(2f|5c|00)/i.test(pathname)) return true;
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return true;
  }
  if (/[\\\0%]/.test(decoded)) return true;
  const segments: string[] = [];
  for (const segment of decoded.split('/')) {
    if (segment === '..') return true;
    if (segment !== '' && segment !== '.') segments.push(segment);
  }
  return `/${segments.join('/')}/`.toLowerCase().startsWith(FORM_TEMPLATES_PREFIX);
}

/** Where the build writes a form's answer template inside dist/ (a path on the site's origin). */
export const formTemplatePath = (form: string): string => `${FORM_TEMPLATES_PREFIX}${form}.html`;

/** An attribute's value as escapeHtml writes it (React writes `'` as &#x27;), to compare escaped. */
const asEscaped = (attribute: string) => attribute.replaceAll('&#x27;', '&#39;');

const TOKEN_PATTERN = markerPattern(formAnswerValueToken, '[A-Za-z0-9_-]+');
const CHECKBOX_PATTERN = new RegExp(
  `<input\\b[^>]*\\s${FORM_ANSWER_CHECKBOX_ATTRIBUTE}="([^"]*)"[^>]*>`,
  'g',
);
const CHECKBOX_MARKER = new RegExp(`\\s${FORM_ANSWER_CHECKBOX_ATTRIBUTE}="[^"]*"`);
const VALUE_ATTRIBUTE = /\svalue="([^"]*)"/;

/** One native post's answer page, every value kept; throws when a marker is missing (a drifted template). */
export function renderFormAnswer(
  template: string,
  form: string,
  outcome: NativeOutcome,
  values: NativeValues,
): string {
  if (!template.includes(regionStart(FORM_ANSWER_REGION_ATTRIBUTE, outcome)))
    throw new Error(`The ${form} form's answer template has no '${outcome}' region`);
  const kept = new Set(FORM_ANSWER_KEPT[outcome]);
  const valuesOf = reader(values);
  let html = template;
  for (const region of FORM_ANSWER_REGIONS)
    html = applyRegion(html, FORM_ANSWER_REGION_ATTRIBUTE, region, kept.has(region)).html;
  // Checkboxes before text values: nothing a visitor posted is ever read as a marker.
  html = html.replace(CHECKBOX_PATTERN, (tag: string, name: string) => {
    const value = asEscaped(VALUE_ATTRIBUTE.exec(tag)?.[1] ?? '');
    const field = Object.keys(values).find((key) => escapeHtml(key) === asEscaped(name)) ?? '';
    const checked = valuesOf(field).map(escapeHtml).includes(value);
    return tag.replace(CHECKBOX_MARKER, checked ? ' checked=""' : '');
  });
  return html.replace(TOKEN_PATTERN, (_, name: string) => escapeHtml(valuesOf(name)[0] ?? ''));
}

/** The build's page templates, read once per instance when `cache` is on (a deploy's never change). */
export function pageTemplates(
  load: (path: string) => Promise<string | null>,
  { cache = true }: { cache?: boolean } = {},
): PageTemplates {
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

/** The request check's options (its `siteOrigin` is also where links lead; null: they answer 'unavailable'). */
export interface DoorsOptions extends RequestCheckOptions {
  /** Airtable's pace for the writes a pressed email link makes: the writer's one pacer (deskPacer). */
  pacer: Pacer;
  /** The build's templates: the forms' native posts' answers and the emails' links' pages. */
  templates?: PageTemplates;
  /** With it, consent applies, the emails' links are answered here (EMAIL_LINK_PATHS), their mail queued. */
  mail?: Pick<WorkerMail, 'settings' | 'ledger' | 'enqueue' | 'deadLetter'>;
  fetch?: typeof fetch;
}

/** `client.address`: the connecting address, as the host knows it (CF-Connecting-IP). */
export type DoorsHandler = (request: Request, client?: { address?: string }) => Promise<Response>;

const TEXT_HEADERS = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' };

/** Longest one Airtable request of a pressed email link may take: half the visitor's bound. */
const LINK_PRESS_REQUEST_BOUND_MS = STORAGE_ANSWER_BOUND_MS / 2;

export function createDoors(env: AirtableEnv, options: DoorsOptions): DoorsHandler {
  const warn = options.warn ?? ((message: string) => console.warn(message));
  const requestCheck = createRequestCheck({ ...options, warn });
  const { mail, siteOrigin } = options;
  // A link's modules load on its first request: a sign-up never needs them.
  const linkOptions = async (): Promise<EmailLinkOptions | undefined> => {
    if (!mail || siteOrigin === null) return undefined;
    const { consentRecords } = await import('#src/server/privacy/consent-records.ts');
    return {
      records: consentRecords(
        createAirtableClient(airtableAccess(env), {
          pacer: options.pacer,
          fetch: options.fetch,
          now: options.now,
          // A press waits for Airtable; when it hangs, that visitor gets the 'try again'
          // page within the spec's answer bound (a press makes two requests at most), and
          // the next press goes as soon as Airtable answers: the pacer spaces starts only.
          requestBoundMs: LINK_PRESS_REQUEST_BOUND_MS,
        }),
      ),
      linkSecrets: mail.settings.linkSecrets,
      // The emails a pressed link causes lead to the site's configured origin.
      tellTeam: async (form, email, values, at) =>
        void (await queueOutcomeMail(mail, confirmedChange(form, email, values, at), siteOrigin)),
      rejoinMail: (email, withdrawnAt, at) =>
        queueOutcomeMail(mail, rejoinRequest(email, withdrawnAt, at), siteOrigin),
      now: () => new Date((options.now ?? Date.now)()),
      log: warn,
      ...(options.templates ? { pages: options.templates } : {}),
    };
  };
  let links: Promise<EmailLinkOptions | undefined> | undefined;

  return async (request, client = {}) => {
    const { pathname } = new URL(request.url);
    if (isEmailLinkPath(pathname)) {
      const [{ handleEmailLink }, { linksUnavailablePage }] = await Promise.all([
        import('#src/server/links/actions.ts'),
        import('#src/server/links/page.ts'),
      ]);
      links ??= linkOptions();
      const ready = await links;
      // Without mail (its settings are wrong: worker.ts) or a site origin, no link can be checked.
      if (!ready) return linksUnavailablePage(options.templates);
      // Opening a link changes nothing; a press writes, so it counts against the one per-client budget
      // of the forms' posts (its body is read within the same bounds: link-actions.ts).
      if (request.method === 'POST') {
        const taken = await requestCheck.clientLimiter.take(clientLimitKey(client.address ?? 'unknown'));
        if (!taken.ok) return linksUnavailablePage(options.templates, taken.retryAfterSeconds);
      }
      return handleEmailLink(request, ready);
    }
    const form = formAtPath(pathname);
    if (!form) return new Response('Not found', { status: 404, headers: TEXT_HEADERS });
    if (request.method === 'GET' || request.method === 'HEAD')
      return new Response(null, { status: 303, headers: { location: form.page } });
    if (request.method !== 'POST')
      return new Response('Method not allowed', {
        status: 405,
        headers: { allow: 'GET, HEAD, POST', ...TEXT_HEADERS },
      });
    const result = await requestCheck.submit(request, { form, clientAddress: client.address ?? 'unknown' });
    // The enhanced form's fetch asks for JSON.
    return (request.headers.get('accept') ?? '').toLowerCase().includes('application/json')
      ? answerEnhancedPost(result)
      : answerNativePost(form, result, options.templates);
  };
}
