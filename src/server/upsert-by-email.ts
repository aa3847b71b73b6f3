/**
 * The server's one upsert by email, which the queue's writer calls for each batch. Per call it
 *
 * - merges the items of one email into one, in the order given (later over earlier: `merge`);
 * - looks their emails up, up to 100 per request (one formula, trimmed and case-insensitive, so
 *   a record typed into Airtable by hand is found too);
 * - creates the records of the emails not found and updates the ones found, up to 10 records
 *   per request (Airtable's most), with the cells `cells` gives for each case.
 *
 * One email, one record: a lookup and a write cannot be made atomic, so callers never upsert
 * one email twice at once (the queue has one consumer), every try starts with a fresh lookup,
 * and a create is Airtable's upsert on the email's key (EMAIL_KEY_FIELD), so a create whose answer
 * was lost, or that Airtable applied after the try gave up, becomes an update, never a second
 * record.
 *
 * It never throws for Airtable's sake: each email gets its outcome, and a failed request fails
 * only the records it carried, so the caller decides what to retry.
 */
import { normaliseEmail } from '#src/lib/airtable/fields.ts';
import { AIRTABLE_SCHEMA } from '#src/lib/airtable/schema.ts';
import { EMAIL_KEY_FIELD } from '#src/lib/forms/shared.ts';
import { AIRTABLE_MAX_RECORDS_PER_WRITE, type AirtableClient } from './airtable-client.ts';
import {
  cellsForCreate,
  cellsForUpdate,
  mergeLaterSubmission,
  type Cells,
  type Submission,
} from './submission.ts';

/** Both tables name it alike. */
const EMAIL_FIELD = AIRTABLE_SCHEMA.waitlist.fields.email.name;
/** Most emails in one lookup formula. */
export const EMAILS_PER_LOOKUP = 100;

/** How the items of a call become records; `T` is whatever the caller carries (a submission…). */
export interface UpsertHow<T> {
  /** The email an item's record is matched on (normalised here). */
  emailOf(item: T): string;
  /** Two items of one email as one: the later over the earlier. */
  merge(earlier: T, later: T): T;
  /**
   * The cells of a new record (`create`) and the cells written over a stored one (`update`);
   * `update: null` holds the item instead: a stored record is left as it is (outcome 'held').
   */
  cells(item: T, at: Date): { create: Cells; update: Cells | null };
}

export type UpsertResult<T> =
  | { item: T; email: string; outcome: 'created' | 'updated' | 'held'; id: string }
  /** `error` is shared by every item of the failed request (usually an AirtableError). */
  | { item: T; email: string; outcome: 'failed'; error: unknown };

export interface UpsertOptions {
  /** One deadline for every request of the call, in the client's clock; else the client's bound. */
  deadline?: number;
  /** The clock of the records' timestamps. */
  now?: () => number;
}

/** Items merged per normalised email, in the order each email first came. */
export function mergeByEmail<T>(
  items: readonly T[],
  how: Pick<UpsertHow<T>, 'emailOf' | 'merge'>,
): { email: string; item: T }[] {
  const byEmail = new Map<string, T>();
  for (const item of items) {
    const email = normaliseEmail(how.emailOf(item));
    const earlier = byEmail.get(email);
    byEmail.set(email, earlier === undefined ? item : how.merge(earlier, item));
  }
  return [...byEmail].map(([email, item]) => ({ email, item }));
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}

/** Upserts `items` into `table` by email: one record per email, created or updated. */
export async function upsertByEmail<T>(
  client: AirtableClient,
  table: string,
  items: readonly T[],
  how: UpsertHow<T>,
  options: UpsertOptions = {},
): Promise<UpsertResult<T>[]> {
  const merged = mergeByEmail(items, how);
  const { deadline } = options;

  // The stored record of each email (the first, should someone have typed a second by hand).
  const stored = new Map<string, string>();
  for (const part of chunks(merged, EMAILS_PER_LOOKUP)) {
    try {
      const records = await client.findByEmails(
        table,
        part.map(({ email }) => email),
        deadline,
      );
      for (const record of records) {
        const email = record.fields[EMAIL_FIELD];
        if (typeof email === 'string' && !stored.has(normaliseEmail(email)))
          stored.set(normaliseEmail(email), record.id);
      }
    } catch (error) {
      // Without the lookup nothing may be written: a create could double a stored record.
      return merged.map(({ email, item }) => ({ item, email, outcome: 'failed', error }));
    }
  }

  const at = new Date((options.now ?? Date.now)());
  const results: UpsertResult<T>[] = [];
  const creates = merged.filter(({ email }) => !stored.has(email));
  const updates = merged.filter(({ email }) => stored.has(email));
  // Creates, then updates, 10 per request, so one failing request only fails its own records.
  for (const part of chunks(creates, AIRTABLE_MAX_RECORDS_PER_WRITE)) {
    try {
      // Merged on the email's key: a create Airtable applied after this writer gave up on it is
      // found by the retry's upsert, not doubled by it (the lookup may predate that late write).
      const records = await client.upsert(
        table,
        part.map(({ item }) => how.cells(item, at).create),
        EMAIL_KEY_FIELD.airtable,
        deadline,
      );
      part.forEach(({ email, item }, i) =>
        results.push({ item, email, outcome: 'created', id: records[i]?.id ?? '' }),
      );
    } catch (error) {
      for (const { email, item } of part) results.push({ item, email, outcome: 'failed', error });
    }
  }
  // Held: the record is stored and nothing is written over it (consent.ts decides what follows).
  const writable = updates.filter(({ email, item }) => {
    if (how.cells(item, at).update !== null) return true;
    results.push({ item, email, outcome: 'held', id: stored.get(email) ?? '' });
    return false;
  });
  for (const part of chunks(writable, AIRTABLE_MAX_RECORDS_PER_WRITE)) {
    try {
      await client.update(
        table,
        part.map(({ email, item }) => ({
          id: stored.get(email) ?? '',
          fields: how.cells(item, at).update ?? {},
        })),
        deadline,
      );
      for (const { email, item } of part)
        results.push({ item, email, outcome: 'updated', id: stored.get(email) ?? '' });
    } catch (error) {
      for (const { email, item } of part) results.push({ item, email, outcome: 'failed', error });
    }
  }
  return results;
}

/**
 * A validated form submission as an upsert item (submission.ts's rules): a later submission
 * merged over an earlier one, the spec's defaults on a create only, Created At kept on update.
 */
export const SUBMISSION_UPSERT: UpsertHow<Submission> = {
  emailOf: (submission) => submission.email,
  merge: mergeLaterSubmission,
  cells: (submission, at) => ({
    create: cellsForCreate(submission, at),
    update: cellsForUpdate(submission, at),
  }),
};
