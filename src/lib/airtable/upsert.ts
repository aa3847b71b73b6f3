import type Airtable from 'airtable';
import { env } from '#src/config/settings.ts';
import { STORAGE_ERRORS } from '#src/config/messages.ts';
import type { FormContract } from '#src/lib/forms/contract.ts';
import {
  type FormName,
  QUOTE_FORM,
  type QuotePosted,
  WAITLIST_FORM,
  type WaitlistPosted,
} from '#src/lib/forms/forms.ts';
import {
  cellsFor,
  isRefusal,
  parsePosted,
  type Submission,
  normaliseEmail,
  emailLookupFormula,
  keyedSerialiser,
  submissionKey,
} from '#src/lib/forms/submission.ts';
import { type AirtableConfig, configFromEnv, openAirtableBase } from './client.ts';
import { StorageError, StorageTimeoutError, isRateLimited, toStorageError } from './errors.ts';

/**
 * Backoff for 429 inside the answer bound. Airtable's limit is per second (5 requests per base),
 * so waits start at a second rather than airtable.js's 5 s, which would leave room for few tries.
 */
export const STORAGE_RETRY_DEFAULTS = { initialDelayMs: 1_000, maxDelayMs: 8_000 } as const;

/** Knobs for tests and special callers; production uses the defaults. */
export interface StorageOptions {
  /** Overrides the build's VITE_AIRTABLE_* configuration (tests point it at the emulator). */
  config?: Partial<AirtableConfig>;
  /** Longest the caller waits for an answer, 429 retries included (default: the build's bound). */
  answerBoundMs?: number;
  retry?: { initialDelayMs?: number; maxDelayMs?: number };
  /** Source of jitter in [0, 1). */
  random?: () => number;
  /** The clock for everything the call does with time: Created At / Last Updated and the bound. */
  now?: () => Date;
}

/** What a successful upsert did. */
export interface UpsertResult {
  recordId: string;
  created: boolean;
}

/** "Equal jitter": half the exponential step is fixed so retries never bunch up at zero delay. */
export function backoffDelayMs(
  attempt: number,
  retry: { initialDelayMs: number; maxDelayMs: number },
  random: () => number,
): number {
  const step = Math.min(retry.maxDelayMs, retry.initialDelayMs * 2 ** attempt);
  return step / 2 + random() * (step / 2);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Settles with `work`, or rejects with StorageTimeoutError once `remainingMs` have passed. */
function beforeDeadline<T>(work: Promise<T>, remainingMs: number, boundMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new StorageTimeoutError(boundMs)), Math.max(0, remainingMs));
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * One pass: look the email up, then update the match or create, with the cells the contract's
 * rules give (cellsFor, as on the server). Repeating a pass after a 429 repeats the lookup, so a
 * retry can only ever update the record an earlier pass created.
 */
async function lookupThenWrite(
  base: Airtable.Base,
  submission: Submission,
  now: () => Date,
): Promise<UpsertResult> {
  const table = base.table<Airtable.FieldSet>(submission.table);
  const [existing] = await table
    .select({ filterByFormula: emailLookupFormula(submission.email), maxRecords: 1, pageSize: 1 })
    .firstPage();
  // typecast lets Airtable add select options it has not seen ('Other: …').
  if (existing) {
    const fields = cellsFor(submission, { now: now(), existing: true });
    const updated = await table.update(existing.id, fields, { typecast: true });
    return { recordId: updated.id, created: false };
  }
  const fields = cellsFor(submission, { now: now(), existing: false });
  const created = await table.create(fields, { typecast: true });
  return { recordId: created.id, created: true };
}

/**
 * Upserts of one address (per table) run one after another within this module: one browser tab,
 * or one Node process. Queued, a later pass looks up after the earlier one has written, and
 * updates (a double submit, or a second submit while the first is still backing off a 429).
 * Separate tabs and devices do not share this queue.
 */
const oneAtATimePerKey = keyedSerialiser();

/**
 * Direct mode's write of one form post: read by the form's contract as the server reads it (parsePosted),
 * then created or updated (by email) in the form's table. Throws StorageError with a spec message.
 */
export async function upsertForm(
  form: FormContract & { name: FormName },
  values: Readonly<Record<string, string | readonly string[] | undefined>>,
  options: StorageOptions = {},
): Promise<UpsertResult> {
  const emailField = Object.values(form.fields).find((field) => field.type === 'email');
  const typed = emailField?.source === 'posted' ? values[emailField.post] : undefined;
  if (typeof typed !== 'string' || !typed.includes('@'))
    throw new StorageError('invalid-email', STORAGE_ERRORS.invalidEmailFormat);
  const boundMs = options.answerBoundMs ?? env.storageAnswerBoundMs;
  // One clock for everything this call does with time: the records' stamps and the bound.
  const now = options.now ?? (() => new Date());
  const remaining = (deadline: number) => deadline - now().getTime();
  // The bound starts at the call: time spent queued behind an earlier upsert of the address counts.
  const deadline = now().getTime() + boundMs;
  const config = { ...configFromEnv(), ...options.config };
  const retry = { ...STORAGE_RETRY_DEFAULTS, ...options.retry };
  const random = options.random ?? Math.random;

  const submission = parsePosted(form, values, now(), { rules: 'spec' });
  if (isRefusal(submission))
    throw toStorageError(
      submission.field === 'email'
        ? new StorageError('invalid-email', STORAGE_ERRORS.invalidEmailFormat)
        : new Error(submission.message),
      form,
    );

  const passes = async (): Promise<UpsertResult> => {
    for (let attempt = 0; ; attempt += 1) {
      try {
        const left = remaining(deadline);
        if (left <= 0) throw new StorageTimeoutError(boundMs);
        // A request may take what is left of the answer bound.
        const pass = openAirtableBase(config, left).then((base) => lookupThenWrite(base, submission, now));
        return await beforeDeadline(pass, left, boundMs);
      } catch (error) {
        const delay = backoffDelayMs(attempt, retry, random);
        // Only a 429 is retried: Airtable did not apply the request. A timeout or dropped
        // connection may have written, and a blind re-create could race the first write.
        if (!isRateLimited(error) || delay >= remaining(deadline)) throw error;
        await sleep(delay);
      }
    }
  };

  try {
    // Waiting in the queue counts against the bound; a call whose bound runs out while queued
    // answers then, and its turn later ends at once without a request.
    const key = submissionKey(submission.table, normaliseEmail(submission.email));
    return await beforeDeadline(oneAtATimePerKey(key, passes), remaining(deadline), boundMs);
  } catch (error) {
    throw toStorageError(error, form);
  }
}

/** Creates or updates (by email) the 'Waitlist' record for one sign-up; throws StorageError. */
export const upsertWaitlistEntry = (posted: Partial<WaitlistPosted>, options?: StorageOptions) =>
  upsertForm(WAITLIST_FORM, posted, options);

/** Creates or updates (by email) the 'School Quotes' record for one request; throws StorageError. */
export const upsertQuoteRequest = (posted: Partial<QuotePosted>, options?: StorageOptions) =>
  upsertForm(QUOTE_FORM, posted, options);
