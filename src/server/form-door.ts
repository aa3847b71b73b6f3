/**
 * A door's answers. The request check has decided; this turns its result into what the browser asked for.
 * The enhanced form asks for JSON (answerEnhancedPost): `{ success: true }` or `{ success: false,
 * error, field? }` with the request check's status, from which the page shows the spec's states and toasts.
 * A native post (before hydration, or with no JavaScript at all) gets a full page:
 *
 * - stored, queued or trapped: the spec's confirmation (200);
 * - an email the request check refused: the form again with the spec's message at the field and every
 *   value kept (422);
 * - anything else (a limit, a refused field, a storage failure): the form again with the spec's
 *   'Something went wrong. Please try again.' and every value kept, with the request check's status.
 *
 * The page comes from the build (the hosts pass a renderer over its answer templates); a host
 * without one answers a plain page with the same words and a link back.
 */
import { MESSAGES } from '#src/config/messages.ts';
import { escapeHtml } from '#src/lib/escape-html.ts';
import { FORMS, type FormName } from '#src/lib/forms/forms.ts';
import { formTemplatePath, type NativeOutcome, type NativeValues, renderFormAnswer } from './form-page.ts';
import type { CheckResult } from './request-check.ts';

export interface FormTemplates {
  /** The full answer page for `form`, or null when the host has no template for it. */
  render(form: FormName, outcome: NativeOutcome, values: NativeValues): Promise<string | null>;
}

/**
 * The answer pages from the build's templates, read by `load` (a path on the site's origin, see
 * formTemplatePath) once per instance when `cache` is on: a deploy's templates never change.
 */
export function formTemplatesFrom(
  load: (path: string, form: FormName) => Promise<string | null>,
  { cache = true }: { cache?: boolean } = {},
): FormTemplates {
  const loaded = new Map<FormName, Promise<string | null>>();
  const template = (form: FormName) => {
    const known = cache ? loaded.get(form) : undefined;
    if (known) return known;
    const loading = load(formTemplatePath(form), form).catch(() => null);
    if (cache) loaded.set(form, loading);
    return loading;
  };
  return {
    async render(form, outcome, values) {
      const html = await template(form);
      if (html === null) return null;
      try {
        return renderFormAnswer(html, form, outcome, values);
      } catch (error) {
        // A template that drifted from the renderer: the visitor still gets the words.
        console.warn(`Form answer template: ${error instanceof Error ? error.message : String(error)}`);
        return null;
      }
    },
  };
}

/** An answer page carries no script: its policy says so, and it is never framed or cached. */
const HTML_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'content-security-policy':
    "default-src 'self'; script-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
    "frame-src 'none'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
};

/** The posted form as values by name; the bot trap never comes back. */
export function postedValues(form: URLSearchParams | undefined): NativeValues {
  const values: Record<string, string | string[]> = {};
  for (const name of new Set(form?.keys() ?? [])) {
    const all = form?.getAll(name) ?? [];
    values[name] = all.length > 1 ? all : (all[0] ?? '');
  }
  return values;
}

export function outcomeOf(result: CheckResult): NativeOutcome {
  if (result.outcome !== 'refused') return 'confirmed';
  return result.field === 'email' ? 'invalid-email' : 'failure';
}

/** The words of an answer, when the host has no built page to put them in. */
function plainPage(form: FormName, outcome: NativeOutcome): string {
  const lines =
    outcome === 'confirmed'
      ? form === 'quote'
        ? [MESSAGES.quoteThankYouTitle, MESSAGES.quoteThankYouBody]
        : [MESSAGES.waitlistJoined]
      : [outcome === 'invalid-email' ? MESSAGES.invalidEmail : MESSAGES.genericFailureToast];
  const [title = '', ...rest] = lines.map(escapeHtml);
  return `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title></head><body><main><h1>${title}</h1>${rest.map((line) => `<p>${line}</p>`).join('')}<p><a href="${FORMS[form].page}">Back</a></p></main></body></html>`;
}

export async function answerNativePost(
  form: FormName,
  result: CheckResult,
  templates: FormTemplates | undefined,
): Promise<Response> {
  const outcome = outcomeOf(result);
  const status = result.outcome === 'refused' ? result.status : 200;
  const headers = new Headers(HTML_HEADERS);
  if (result.outcome === 'refused' && result.retryAfterSeconds)
    headers.set('retry-after', String(result.retryAfterSeconds));
  const page =
    (await templates?.render(form, outcome, postedValues(result.form))) ?? plainPage(form, outcome);
  return new Response(page, { status, headers });
}

/** True when the request asks for a JSON answer (the enhanced form's fetch). */
export function wantsJson(request: Request): boolean {
  return (request.headers.get('accept') ?? '').toLowerCase().includes('application/json');
}

const JSON_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

/** What the enhanced form is told: the same for a stored, an unknown and a trapped email. */
export type EnhancedAnswer =
  | { success: true; id: string; createdTime: string }
  | { success: false; error: { type: string; message: string }; field?: 'email' };

export function answerEnhancedPost(result: CheckResult): Response {
  const body: EnhancedAnswer =
    result.outcome === 'refused'
      ? {
          success: false,
          error: { type: result.type, message: result.message },
          ...(result.field ? { field: result.field } : {}),
        }
      : { success: true, ...result.receipt };
  const headers = new Headers(JSON_HEADERS);
  if (result.outcome === 'refused' && result.retryAfterSeconds)
    headers.set('retry-after', String(result.retryAfterSeconds));
  return new Response(JSON.stringify(body), {
    status: result.outcome === 'refused' ? result.status : 200,
    headers,
  });
}
