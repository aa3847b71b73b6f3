/**
 * The page's one way to send a form, enhanced by JavaScript:
 *
 * - relay and queued modes (the default): the form's fields, urlencoded exactly as the native post
 *   sends them, to the form's door (its contract's `path`), asking for a JSON answer; the server
 *   alone reads them and writes the cells;
 * - direct mode (the spec's): the storage layer, loaded on first use, writes to Airtable itself
 *   with the official client (lookup, then update or create: src/lib/airtable/upsert.ts).
 *
 * It never throws: a failure is logged under the form's name and answered as `{ success: false }`
 * (spec 7.3: the answer is read for a boolean success field).
 */
import { env } from '#src/config/settings.ts';
import type { StorageOptions } from '#src/lib/airtable/upsert.ts';
import type { FormContract, PostedValues } from './contract.ts';
import { type FormName, QUOTE_FORM, type QuotePosted, WAITLIST_FORM, type WaitlistPosted } from './forms.ts';

export type SubmitResult = { success: boolean };

/** A form's posted values as the urlencoded body a native post of it would send. */
export function toFormBody(posted: Readonly<Record<string, string | readonly string[]>>): URLSearchParams {
  return new URLSearchParams(
    Object.entries(posted).flatMap(([name, value]) => [value].flat().map((item) => [name, item])),
  );
}

async function postToDoor(form: FormContract, posted: Readonly<Record<string, string | readonly string[]>>) {
  const response = await fetch(form.path, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
    body: toFormBody(posted),
    credentials: 'same-origin',
    // The visitor gets an answer within the page's bound even if the server never answers.
    signal: AbortSignal.timeout(env.storageAnswerBoundMs),
  });
  const answer: unknown = await response.json().catch(() => null);
  const success =
    typeof answer === 'object' && answer !== null && 'success' in answer && answer.success === true;
  if (!response.ok || !success) throw new Error(`The ${form.name} door answered ${response.status}`);
}

/**
 * Sends one form's post; never throws. `options` are direct mode's storage layer's; a `config` in
 * them (tests and the load test point it at the emulator) means direct mode whatever the build.
 */
async function sendForm<C extends FormContract & { name: FormName }>(
  form: C,
  posted: PostedValues<C>,
  options?: StorageOptions,
): Promise<SubmitResult> {
  // Every posted value is text or a list of texts (PostedValues); both ways read them by post name.
  const values = posted as Readonly<Record<string, string | readonly string[]>>;
  try {
    if (env.storageMode === 'direct' || options?.config !== undefined)
      await (await import('#src/lib/airtable/upsert.ts')).upsertForm(form, values, options);
    else await postToDoor(form, values);
    return { success: true };
  } catch (error) {
    console.error(`${form.words.logName} failed:`, error);
    return { success: false };
  }
}

/**
 * Adds or updates the visitor on the waitlist (spec 7.3: email and interests; an empty selection
 * sends none, and the server or direct mode's storage applies the default on a new record only).
 * Never throws: failures log and return success false.
 */
export const addToWaitlist = (posted: WaitlistPosted, options?: StorageOptions): Promise<SubmitResult> =>
  sendForm(WAITLIST_FORM, posted, options);

/** Stores the school's quote request; never throws: failures log and return success false. */
export const submitQuoteRequest = (posted: QuotePosted, options?: StorageOptions): Promise<SubmitResult> =>
  sendForm(QUOTE_FORM, posted, options);
