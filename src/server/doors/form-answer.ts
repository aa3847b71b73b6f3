/**
 * A post's answer. Enhanced, JSON: `{ success: true }` or `{ success: false, error, field? }`, the check's
 * status. Native (before hydration or without JavaScript), a full page, every value kept: stored, queued or
 * trapped, the spec's confirmation (200); a refused email, the form again with the spec's message at the
 * field (422); else the form with 'Something went wrong. Please try again.' and the check's status. The page
 * is the form's template (prerender.ts: its page in full, no script), its markers (src/lib/page-templates.ts)
 * replaced as plain strings: all copy comes from the components and src/config/messages.ts. A host without
 * templates answers a plain page with the same words.
 */
import { MESSAGES } from '#src/config/messages.ts';
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
import type { FormContract } from '#src/lib/forms/contract.ts';
import { type Posted, reader } from '#src/lib/forms/submission.ts';
import type { CheckResult } from './request-check.ts';
import type { PageTemplates } from '#src/server/host.ts';

/** The words of an answer, when the host has no built page to put them in. */
function plainPage(form: FormContract, outcome: FormAnswerOutcome): string {
  const lines =
    outcome === 'confirmed'
      ? form.words.thanks
      : [outcome === 'invalid-email' ? MESSAGES.invalidEmail : MESSAGES.genericFailureToast];
  const [title = '', ...rest] = lines.map(escapeHtml);
  return `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title></head><body><main><h1>${title}</h1>${rest.map((line) => `<p>${line}</p>`).join('')}<p><a href="${form.page}">Back</a></p></main></body></html>`;
}

/** The raw answer templates' folder in dist/ (every outcome's part, markers in place): the Worker's to read. */
export const FORM_TEMPLATES_PREFIX = '/__forms/';

/**
 * True for a path a host must never serve from the built files: one reaching the answer templates
 * once decoded and normalised ('/%5f%5fforms/waitlist.html', '/assets/..%2f__forms/quote.html',
 * '//__FORMS/quote'), or one a file server could read otherwise than it looks: an encoded slash,
 * backslash or NUL, a '..' segment, a '%' left after decoding (encoded twice). No page or asset has one.
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
  const segments = decoded.split('/').filter((segment) => segment !== '' && segment !== '.');
  return segments.includes('..') || `/${segments.join('/')}/`.toLowerCase().startsWith(FORM_TEMPLATES_PREFIX);
}

/** Where the build writes a form's answer template inside dist/ (a path on the site's origin). */
export const formTemplatePath = (form: string): string => `${FORM_TEMPLATES_PREFIX}${form}.html`;

/** An attribute's value as escapeHtml writes it (React writes `'` as &#x27;), to compare escaped. */
const asEscaped = (attribute: string) => attribute.replaceAll('&#x27;', '&#39;');

const TOKEN_PATTERN = markerPattern(formAnswerValueToken, '[A-Za-z0-9_-]+');
const CHECKBOX_ATTRIBUTE = `\\s${FORM_ANSWER_CHECKBOX_ATTRIBUTE}="([^"]*)"`;
const CHECKBOX_PATTERN = new RegExp(`<input\\b[^>]*${CHECKBOX_ATTRIBUTE}[^>]*>`, 'g');
const CHECKBOX_MARKER = new RegExp(CHECKBOX_ATTRIBUTE);
const VALUE_ATTRIBUTE = /\svalue="([^"]*)"/;

/** One native post's answer page, every value kept; throws when a marker is missing (a drifted template). */
export function renderFormAnswer(template: string, form: string, outcome: FormAnswerOutcome, values: Posted) {
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
    const names = values instanceof URLSearchParams ? [...values.keys()] : Object.keys(values);
    const field = names.find((key) => escapeHtml(key) === asEscaped(name)) ?? '';
    const checked = valuesOf(field).map(escapeHtml).includes(value);
    return tag.replace(CHECKBOX_MARKER, checked ? ' checked=""' : '');
  });
  return html.replace(TOKEN_PATTERN, (_, name: string) => escapeHtml(valuesOf(name)[0] ?? ''));
}

/** No script, never framed or cached (routes.ts adds the other security headers to every answer). */
const HTML_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'content-security-policy':
    "default-src 'self'; script-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
    "frame-src 'none'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
};

/** The request check's result as a response: a refusal's status, and its Retry-After if any. */
function respond(result: CheckResult, body: string, headers: Record<string, string>): Response {
  const refused = result.outcome === 'refused' ? result : undefined;
  const response = new Response(body, { status: refused?.status ?? 200, headers });
  if (refused?.retryAfterSeconds) response.headers.set('retry-after', String(refused.retryAfterSeconds));
  return response;
}

/** A native post's answer: the form's answer page, every value kept but the bot trap's (it has no marker). */
export async function answerNativePost(form: FormContract, result: CheckResult, templates?: PageTemplates) {
  const outcome: FormAnswerOutcome =
    result.outcome !== 'refused' ? 'confirmed' : result.field === 'email' ? 'invalid-email' : 'failure';
  const fill = (template: string) => renderFormAnswer(template, form.name, outcome, result.form ?? {});
  const page = (await templates?.(formTemplatePath(form.name), fill)) ?? plainPage(form, outcome);
  return respond(result, page, HTML_HEADERS);
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

/** An enhanced post's answer, JSON: the same for a stored, an unknown and a trapped email. */
export function answerEnhancedPost(result: CheckResult): Response {
  const body =
    result.outcome === 'refused'
      ? { success: false, error: { type: result.type, message: result.message }, field: result.field }
      : { success: true, ...result.receipt };
  return respond(result, JSON.stringify(body), JSON_HEADERS);
}
