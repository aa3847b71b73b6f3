/**
 * The server's one upsert by email (the desk's round writer's): one item per normalised email, its
 * record looked up by the caller (about 300 emails a request), written 10 a request by the email's key.
 */
import type { Cells } from '#src/lib/forms/submission.ts';
import { EMAIL_KEY_FIELD } from '#src/lib/forms/contract.ts';
import {
  AIRTABLE_MAX_RECORDS_PER_WRITE,
  type AirtableClient,
  inChunks,
  type StoredRecord,
} from './client.ts';

/** How the items of a call become records; `T` is whatever the caller carries (a submission…). */
export interface UpsertHow<T> {
  /**
   * The cells of a new record (`create`) and those written over a stored one (`update`, given its
   * `lookupFields`); `update: null` holds the item: the stored record is left as it is (outcome 'held').
   */
  cells(item: T, at: Date, stored?: Cells): { create: Cells; update: Cells | null };
  /** The stored fields `cells` needs to decide an update, by table (the email and its key are read anyway). */
  lookupFields?: (table: string) => readonly string[];
}

export type UpsertResult<T> =
  /** `stored`: the stored record's lookup fields, as they were before this write. */
  | { item: T; email: string; outcome: 'created' | 'updated' | 'held'; id: string; stored?: Cells }
  /** `error` is shared by every item of the failed request (usually an AirtableError). */
  | { item: T; email: string; outcome: 'failed'; error: unknown };

export interface UpsertOptions<T> {
  /**
   * The stored records by email (`findByEmails`, given `lookupFields`), looked up by the caller to share
   * one lookup between tables; without it nothing may be written (a create could double a record).
   */
  stored: ReadonlyMap<string, StoredRecord>;
  /**
   * Told each request's results once it answers (the held ones first, as they need none), in the
   * items' order: the next request's results wait for this to finish, the requests themselves do not.
   */
  onWritten: (results: UpsertResult<T>[]) => void | Promise<void>;
}

/**
 * Creates and updates together, each request sent as soon as the pacer lets it (none waits for
 * another's answer: each email is in one request only). One email, one record: a lookup and a write
 * cannot be made atomic, so callers never upsert one email twice at once (the desk's rounds hold
 * disjoint addresses), every try starts with a fresh lookup, and a write is Airtable's upsert on the
 * email's key (EMAIL_KEY_FIELD), an update too: a create whose answer was lost, or that Airtable
 * applied after the try gave up, becomes an update, never a second record. A stored record without
 * its key (typed in by hand) is updated by its id, in requests of its own. It never throws for
 * Airtable's sake: a failed request fails only the records it carried; the caller decides what to retry.
 */
export async function upsertByEmail<T>(
  client: AirtableClient,
  table: string,
  entries: readonly { email: string; item: T }[],
  how: UpsertHow<T>,
  { stored, onWritten }: UpsertOptions<T>,
): Promise<void> {
  const at = new Date(client.now());
  type Write = { email: string; item: T; fields: Cells; record?: StoredRecord };
  const byKey: Write[] = [];
  const byId: Write[] = [];
  const held: UpsertResult<T>[] = [];
  for (const { email, item } of entries) {
    const record = stored.get(email);
    const { create, update } = how.cells(item, at, record?.fields);
    if (!record) byKey.push({ email, item, fields: create });
    // Held: the record is stored and nothing is written over it (the consent rules decide what follows).
    else if (update === null)
      held.push({ item, email, outcome: 'held', id: record.id, stored: record.fields });
    else if (record.fields[EMAIL_KEY_FIELD.airtable] === email && update[EMAIL_KEY_FIELD.airtable] === email)
      byKey.push({ email, item, fields: update, record });
    else byId.push({ email, item, fields: update, record });
  }

  const outcomeOf = ({ item, email, record }: Write, id: string): UpsertResult<T> =>
    record
      ? { item, email, outcome: 'updated', id: record.id, stored: record.fields }
      : { item, email, outcome: 'created', id };
  /** A write request's results once it answers: each write's outcome, or the request's error for each. */
  const answered = (part: readonly Write[], request: Promise<readonly StoredRecord[]>) =>
    request.then(
      (records) => part.map((write, i) => outcomeOf(write, records[i]?.id ?? '')),
      (error: unknown) =>
        part.map(({ email, item }): UpsertResult<T> => ({ item, email, outcome: 'failed', error })),
    );
  // Every request asks the pacer for its slot now, in the items' order.
  const requests = [
    // Merged on the email's key: a create Airtable applied after this writer gave up on it is
    // found by the retry's upsert, not doubled by it (the lookup may predate that late write).
    ...inChunks(byKey, AIRTABLE_MAX_RECORDS_PER_WRITE).map((part) => {
      const records = part.map((write) => write.fields);
      return answered(part, client.upsert(table, records, EMAIL_KEY_FIELD.airtable));
    }),
    ...inChunks(byId, AIRTABLE_MAX_RECORDS_PER_WRITE).map((part) => {
      const records = part.map(({ record, fields }) => ({ id: record?.id ?? '', fields }));
      return answered(part, client.update(table, records));
    }),
  ];
  // Told in order (the held first, while the requests go), each once it and those before it have answered.
  await onWritten(held);
  for (const request of requests) await onWritten(await request);
}
