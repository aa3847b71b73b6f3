/**
 * The server's own Airtable client: the few REST calls the synchronous store (stores.ts), the
 * queue's writer, the owner's privacy commands and the Worker's retention job (privacy.ts) make,
 * with the server's token, every request through the instance's pacer and bounded in time.
 *
 * Plain fetch rather than airtable.js. airtable.js does batch (create, update and destroy take up
 * to 10 records) and POSTs a long listing to listRecords; what it lacks is what a shared server
 * needs: a hook to wait for a slot in the instance's pacer before each request, a deadline per
 * request (its timeout is fixed per client), a 429 that closes the pacer for every caller instead
 * of its own retry, and one error type that says whether a failure is worth retrying.
 */
import { emailLookupFormula } from '#src/lib/airtable/formula.ts';
import { AIRTABLE_SCHEMA } from '#src/lib/airtable/schema.ts';
import type { Cells } from './submission.ts';
import type { Pacer } from './pacer.ts';

/** Airtable's most records per create or update request. */
export const AIRTABLE_MAX_RECORDS_PER_WRITE = 10;
const EMAIL_FIELD = AIRTABLE_SCHEMA.waitlist.fields.email.name;

export interface UpstreamSettings {
  apiKey: string;
  baseId: string;
  /** Airtable's API origin (or the local emulator's). */
  endpointUrl: string;
}

/** A failed upstream call, in Airtable's vocabulary; `status` 0 when no answer came. */
export class UpstreamError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }

  /** Worth another try later: rate limit, server error, timeout or a dropped connection. */
  get transient(): boolean {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }
}

export interface StoredRecord {
  id: string;
  createdTime?: string;
  fields: Cells;
}

/** One page of a listing, and where the next starts (Airtable's offset), if any. */
export interface RecordPage {
  records: StoredRecord[];
  offset?: string;
}

export interface AirtableUpstream {
  /**
   * The deadline `withinMs` from now in this client's own clock (its `now` option), for callers
   * that bound a request by a duration and run on another clock (the privacy jobs' policy clock).
   */
  deadlineAfter(withinMs: number): number;
  /** One page (up to 100) of the records matching `filterByFormula`, with the given fields. */
  listPage(
    table: string,
    query: { filterByFormula: string; fields?: readonly string[]; offset?: string },
    deadline: number,
  ): Promise<RecordPage>;
  /** Deletes up to 10 records by id in one request. */
  deleteRecords(table: string, ids: readonly string[], deadline: number): Promise<string[]>;
  /** Records whose normalised Email is one of `emails` (one request for up to 100 emails). */
  findByEmails(table: string, emails: readonly string[], deadline: number): Promise<StoredRecord[]>;
  create(table: string, records: readonly Cells[], deadline: number): Promise<StoredRecord[]>;
  update(
    table: string,
    records: readonly { id: string; fields: Cells }[],
    deadline: number,
  ): Promise<StoredRecord[]>;
}

export interface UpstreamOptions {
  pacer: Pacer;
  fetch?: typeof fetch;
  now?: () => number;
}

/** The one formula for many emails: OR of the storage layer's own lookup formula. */
export function emailsLookupFormula(emails: readonly string[]): string {
  const each = emails.map((email) => emailLookupFormula(email, EMAIL_FIELD));
  return each.length === 1 ? (each[0] ?? '') : `OR(${each.join(', ')})`;
}

async function errorFrom(response: Response): Promise<UpstreamError> {
  let type = `HTTP_${response.status}`;
  let message = response.statusText || 'Airtable answered with an error';
  try {
    const body = (await response.json()) as { error?: string | { type?: string; message?: string } };
    if (typeof body.error === 'string') type = body.error;
    else if (body.error) {
      type = body.error.type ?? type;
      message = body.error.message ?? message;
    }
  } catch {
    // Not JSON (a proxy's HTML page): keep the status.
  }
  return new UpstreamError(response.status, type, message);
}

export function createAirtableUpstream(
  settings: UpstreamSettings,
  options: UpstreamOptions,
): AirtableUpstream {
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const now = options.now ?? Date.now;
  const tableUrl = (table: string) =>
    `${settings.endpointUrl.replace(/\/+$/, '')}/v0/${encodeURIComponent(settings.baseId)}/${encodeURIComponent(table)}`;

  const call = async <T>(method: string, url: string, body: unknown, deadline: number): Promise<T> => {
    if (!(await options.pacer.acquire(deadline - now()))) {
      throw options.pacer.closedFor() > 0
        ? new UpstreamError(
            429,
            'TOO_MANY_REQUESTS',
            'Airtable is rate limiting this base; try again shortly',
          )
        : new UpstreamError(0, 'TIMEOUT', 'No slot to reach Airtable in time');
    }
    const remaining = deadline - now();
    if (remaining <= 0) throw new UpstreamError(0, 'TIMEOUT', 'No answer from Airtable in time');
    let response: Response;
    try {
      response = await doFetch(url, {
        method,
        headers: { authorization: `Bearer ${settings.apiKey}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(remaining),
      });
    } catch (error) {
      const timedOut =
        error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw new UpstreamError(
        0,
        timedOut ? 'TIMEOUT' : 'CONNECTION_ERROR',
        timedOut ? 'No answer from Airtable in time' : 'Could not reach Airtable',
      );
    }
    if (response.status === 429) options.pacer.penalise();
    if (!response.ok) throw await errorFrom(response);
    try {
      return (await response.json()) as T;
    } catch {
      throw new UpstreamError(502, 'INVALID_RESPONSE', 'Airtable answered with something that is not JSON');
    }
  };

  return {
    deadlineAfter(withinMs) {
      return now() + withinMs;
    },
    async listPage(table, { filterByFormula, fields, offset }, deadline) {
      // POST listRecords: a long formula does not fit in a URL.
      return call<RecordPage>(
        'POST',
        `${tableUrl(table)}/listRecords`,
        { filterByFormula, pageSize: 100, ...(fields ? { fields } : {}), ...(offset ? { offset } : {}) },
        deadline,
      );
    },
    async deleteRecords(table, ids, deadline) {
      if (ids.length === 0) return [];
      if (ids.length > AIRTABLE_MAX_RECORDS_PER_WRITE)
        throw new UpstreamError(
          422,
          'INVALID_RECORDS',
          `At most ${AIRTABLE_MAX_RECORDS_PER_WRITE} records per delete`,
        );
      const query = ids.map((id) => `records[]=${encodeURIComponent(id)}`).join('&');
      const answer = await call<{ records: { id: string; deleted: boolean }[] }>(
        'DELETE',
        `${tableUrl(table)}?${query}`,
        undefined,
        deadline,
      );
      return answer.records.filter((record) => record.deleted).map((record) => record.id);
    },
    async findByEmails(table, emails, deadline) {
      if (emails.length === 0) return [];
      // POST listRecords: a formula with many emails does not fit in a URL.
      const answer = await call<{ records: StoredRecord[] }>(
        'POST',
        `${tableUrl(table)}/listRecords`,
        { filterByFormula: emailsLookupFormula(emails), pageSize: 100, fields: [EMAIL_FIELD] },
        deadline,
      );
      return answer.records;
    },
    async create(table, records, deadline) {
      const answer = await call<{ records: StoredRecord[] }>(
        'POST',
        tableUrl(table),
        { records: records.map((fields) => ({ fields })), typecast: true },
        deadline,
      );
      return answer.records;
    },
    async update(table, records, deadline) {
      const answer = await call<{ records: StoredRecord[] }>(
        'PATCH',
        tableUrl(table),
        { records: records.map(({ id, fields }) => ({ id, fields })), typecast: true },
        deadline,
      );
      return answer.records;
    },
  };
}
