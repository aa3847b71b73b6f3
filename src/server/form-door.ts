/**
 * The forms' native door: what a browser gets back when a form posts itself (before hydration,
 * or with no JavaScript at all). The gate has decided; this turns its result into a full page:
 *
 * - stored, queued or trapped: the spec's confirmation (200);
 * - an email the gate refused: the form again with the spec's message at the field and every
 *   value kept (422);
 * - anything else (a limit, a refused field, a storage failure): the form again with the spec's
 *   'Something went wrong. Please try again.' and every value kept, with the gate's status.
 *
 * The page comes from the build (the hosts pass a renderer over its answer templates); a host
 * without one answers a plain page with the same words and a link back.
 *
 * Relative imports only.
 */
import { MESSAGES } from '../config/messages.ts';
import type { NativeFormName } from '../lib/airtable/relay-protocol.ts';
import type { GateResult } from './gate.ts';

export type NativeOutcome = 'confirmed' | 'invalid-email' | 'failure';
/** Posted values by field name, as the browser sent them (repeated names as lists). */
export type NativeValues = Readonly<Record<string, string | readonly string[]>>;

export interface FormTemplates {
  /** The full answer page for `form`, or null when the host has no template for it. */
  render(form: NativeFormName, outcome: NativeOutcome, values: NativeValues): Promise<string | null>;
}

/** Where the link back from an answer leads. */
const FORM_PAGES: Record<NativeFormName, string> = { waitlist: '/', quote: '/schools' };

const HTML_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** The posted form as values by name; the bot trap never comes back. */
export function postedValues(form: URLSearchParams | undefined): NativeValues {
  const values: Record<string, string | string[]> = {};
  for (const name of new Set(form?.keys() ?? [])) {
    const all = form?.getAll(name) ?? [];
    values[name] = all.length > 1 || name === 'interests' || name === 'useCases' ? all : (all[0] ?? '');
  }
  return values;
}

export function outcomeOf(result: GateResult): NativeOutcome {
  if (result.outcome !== 'refused') return 'confirmed';
  return result.field === 'email' ? 'invalid-email' : 'failure';
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The words of an answer, when the host has no built page to put them in. */
function plainPage(form: NativeFormName, outcome: NativeOutcome): string {
  const lines =
    outcome === 'confirmed'
      ? form === 'quote'
        ? [MESSAGES.quoteThankYouTitle, MESSAGES.quoteThankYouBody]
        : [MESSAGES.waitlistJoined]
      : [outcome === 'invalid-email' ? MESSAGES.invalidEmail : MESSAGES.genericFailureToast];
  const [title = '', ...rest] = lines.map(escapeHtml);
  return `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title></head><body><main><h1>${title}</h1>${rest.map((line) => `<p>${line}</p>`).join('')}<p><a href="${FORM_PAGES[form]}">Back</a></p></main></body></html>`;
}

export async function answerNativePost(
  form: NativeFormName,
  result: GateResult,
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
