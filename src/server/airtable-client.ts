/**
 * The server's one Airtable client, with its one error type (AirtableError). Every server-side
 * call to Airtable goes through it: the upsert by email (upsert-by-email.ts) of the synchronous
 * store and the queue's writer, the privacy jobs (privacy.ts, retention-job.ts) and the owner's
 * commands (scripts/launch-kit/: setup, check, privacy), Metadata API included.
 *
 * Plain fetch rather than airtable.js (decision 12): airtable.js cannot be paced (its fetch is
 * fixed, with no hook before a request), retries a 429 on its own timers instead of shutting one
 * pacer for every caller, has one timeout per client rather than a deadline per request, and
 * has no Metadata API for the setup and check commands. Here every request waits for a slot in
 * the caller's pacer (pacer.ts), is bounded by a deadline, and fails with an AirtableError that
 * says whether it is worth another try.
 */
import { emailLookupFormula } from '#src/lib/airtable/formula.ts';
import { AIRTABLE_SCHEMA, type FieldDefinition } from '#src/lib/airtable/schema.ts';
import type { AirtableAccess } from './settings.ts';
import type { Pacer } from './pacer.ts';
import type { Cells } from './submission.ts';

/** Airtable's most records per create, update or delete request. */
export const AIRTABLE_MAX_RECORDS_PER_WRITE = 10;
/** Airtable's largest page of a listing. */
export const AIRTABLE_PAGE_SIZE = 100;
/** A request's bound when its caller sets none: the spec's client timeout (section 9). */
export const AIRTABLE_REQUEST_TIMEOUT_MS = 300_000;
const EMAIL_FIELD = AIRTABLE_SCHEMA.waitlist.fields.email.name;

/** A failed call, in Airtable's vocabulary; `status` 0 when no answer came. */
export class AirtableError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
    this.name = 'AirtableError';
  }

  /** Worth another try later: rate limit, server error, timeout or a dropped connection. */
  get transient(): boolean {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }

  /** One line for the owner's terminal: status, type and what it usually means. */
  explain(scope: string): string {
    if (this.status === 401) return `401 ${this.type}: the token is not valid`;
    if (this.status === 403) return `403 ${this.type}: the token lacks ${scope}, or cannot see this base`;
    return `${this.status} ${this.type}: ${this.message}`;
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

/** A field as the Metadata API lists it. */
export interface RemoteField {
  id: string;
  name: string;
  type: string;
}

/** A table as the Metadata API lists it. */
export interface RemoteTable {
  id: string;
  name: string;
  fields: RemoteField[];
}

export interface ListQuery {
  filterByFormula?: string;
  fields?: readonly string[];
  maxRecords?: number;
  offset?: string;
}

/**
 * Each method takes an optional deadline in the client's own clock (`now`); without one a
 * request may take `requestBoundMs`, plus however long the pacer is shut after a 429.
 */
export interface AirtableClient {
  /**
   * The deadline `withinMs` from now in this client's clock, for callers that bound work by a
   * duration and run on another clock (the privacy jobs' policy clock).
   */
  deadlineAfter(withinMs: number): number;
  /** Requests sent so far by this client and the ones made from it with `with`. */
  requestsSent(): number;
  /** The same client (pacer, fetch, clock, count) with another retry policy or bound. */
  with(policy: RetryPolicy): AirtableClient;

  /** One page (up to 100) of a table's records; POSTed, so a long formula fits. */
  listPage(table: string, query: ListQuery, deadline?: number): Promise<RecordPage>;
  /** Records whose normalised Email is one of `emails` (one request for up to 100 emails). */
  findByEmails(table: string, emails: readonly string[], deadline?: number): Promise<StoredRecord[]>;
  /** Creates up to 10 records in one request. */
  create(table: string, records: readonly Cells[], deadline?: number): Promise<StoredRecord[]>;
  /**
   * Creates up to 10 records, or updates the one already holding the same `mergeOn` cell (Airtable's
   * performUpsert): a write Airtable applies late, then sent again, makes one record, not two.
   */
  upsert(
    table: string,
    records: readonly Cells[],
    mergeOn: string,
    deadline?: number,
  ): Promise<StoredRecord[]>;
  /** Updates up to 10 records by id in one request; cells it does not name are kept. */
  update(
    table: string,
    records: readonly { id: string; fields: Cells }[],
    deadline?: number,
  ): Promise<StoredRecord[]>;
  /** Deletes up to 10 records by id in one request; returns the ids deleted. */
  deleteRecords(table: string, ids: readonly string[], deadline?: number): Promise<string[]>;

  /** Metadata API (schema.bases:read): the base's tables and their fields. */
  listTables(deadline?: number): Promise<RemoteTable[]>;
  /** Metadata API (schema.bases:write). */
  createTable(name: string, fields: readonly FieldDefinition[], deadline?: number): Promise<RemoteTable>;
  /** Metadata API (schema.bases:write). */
  createField(tableId: string, field: FieldDefinition, deadline?: number): Promise<RemoteField>;
}

/** How a client retries a transient failure (429, 5xx, timeout, dropped connection). */
export interface RetryPolicy {
  /** Tries of one request, the first included (1: never retried, the default). */
  attempts?: number;
  /** Longest one try may take without a caller's deadline, waiting for the pacer included. */
  requestBoundMs?: number;
  /** How a retry waits before a non-429 retry: 1, 2, 4, 8 s (tests pass a quick one). */
  sleep?: (ms: number) => Promise<void>;
  /** Told of each retry (the owner's commands say they are waiting). */
  onRetry?: (error: AirtableError, pacer: Pacer) => void;
}

export interface AirtableClientOptions extends RetryPolicy {
  /** Every request waits for a slot here; a 429 shuts it for Airtable's penalty. */
  pacer: Pacer;
  fetch?: typeof fetch;
  now?: () => number;
}

/** The one formula for many emails: OR of the storage layer's own lookup formula. */
export function emailsLookupFormula(emails: readonly string[]): string {
  const each = emails.map((email) => emailLookupFormula(email, EMAIL_FIELD));
  return each.length === 1 ? (each[0] ?? '') : `OR(${each.join(', ')})`;
}

/** The field as the Metadata API takes it on create: name, type and options only. */
export function fieldForCreate(field: FieldDefinition): { name: string; type: string; options?: unknown } {
  return { name: field.name, type: field.type, ...('options' in field ? { options: field.options } : {}) };
}

type ErrorBody = {
  error?: string | { type?: string; message?: string };
  errors?: { error?: string; message?: string }[];
};

/** Airtable answers most errors as { error }, and rate limits as { errors: [{ error }] }. */
async function errorFrom(response: Response): Promise<AirtableError> {
  const text = await response.text().catch(() => '');
  let body: ErrorBody | undefined;
  try {
    body = text ? (JSON.parse(text) as ErrorBody) : undefined;
  } catch {
    body = undefined; // Not JSON (a proxy's HTML page): keep the status.
  }
  const error =
    body?.error ??
    (body?.errors?.[0] ? { type: body.errors[0].error, message: body.errors[0].message } : undefined);
  const type = (typeof error === 'string' ? error : error?.type) || `HTTP_${response.status}`;
  const message =
    (typeof error === 'object' ? error.message : undefined) ||
    response.statusText ||
    'Airtable answered with an error';
  return new AirtableError(response.status, type, message.slice(0, 300));
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createAirtableClient(access: AirtableAccess, options: AirtableClientOptions): AirtableClient {
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const now = options.now ?? Date.now;
  const { pacer } = options;
  const counter = { sent: 0 };
  const origin = access.endpointUrl.replace(/\/+$/, '');
  const tableUrl = (table: string) =>
    `${origin}/v0/${encodeURIComponent(access.baseId)}/${encodeURIComponent(table)}`;
  const tablesUrl = `${origin}/v0/meta/bases/${encodeURIComponent(access.baseId)}/tables`;

  /** One try: a slot in the pacer, then the request, bounded by `deadline`. */
  const once = async <T>(method: string, url: string, body: unknown, deadline: number): Promise<T> => {
    if (!(await pacer.acquire(deadline - now()))) {
      throw pacer.closedFor() > 0
        ? new AirtableError(
            429,
            'TOO_MANY_REQUESTS',
            'Airtable is rate limiting this base; try again shortly',
          )
        : new AirtableError(0, 'TIMEOUT', 'No slot to reach Airtable in time');
    }
    const remaining = deadline - now();
    if (remaining <= 0) throw new AirtableError(0, 'TIMEOUT', 'No answer from Airtable in time');
    counter.sent += 1;
    let response: Response;
    try {
      response = await doFetch(url, {
        method,
        headers: { authorization: `Bearer ${access.token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(remaining),
      });
    } catch (error) {
      const timedOut =
        error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw new AirtableError(
        0,
        timedOut ? 'TIMEOUT' : 'CONNECTION_ERROR',
        timedOut ? 'No answer from Airtable in time' : 'Could not reach Airtable',
      );
    }
    // The one place that reacts to a 429: the pacer stays shut for Airtable's penalty.
    if (response.status === 429) pacer.penalise();
    if (!response.ok) throw await errorFrom(response);
    try {
      return (await response.json()) as T;
    } catch {
      throw new AirtableError(502, 'INVALID_RESPONSE', 'Airtable answered with something that is not JSON');
    }
  };

  const build = (policy: RetryPolicy): AirtableClient => {
    const attempts = Math.max(1, policy.attempts ?? 1);
    const boundMs = policy.requestBoundMs ?? AIRTABLE_REQUEST_TIMEOUT_MS;
    const sleep = policy.sleep ?? defaultSleep;

    /** A request, tried again after a transient failure: after a 429 the pacer makes the wait. */
    const call = async <T>(method: string, url: string, body: unknown, deadline?: number): Promise<T> => {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await once<T>(method, url, body, deadline ?? now() + boundMs + pacer.closedFor());
        } catch (error) {
          if (!(error instanceof AirtableError) || !error.transient || attempt >= attempts) throw error;
          policy.onRetry?.(error, pacer);
          if (error.status !== 429) await sleep(1_000 * 2 ** (attempt - 1));
        }
      }
    };
    const atMostTen = (count: number, what: string) => {
      if (count > AIRTABLE_MAX_RECORDS_PER_WRITE)
        throw new AirtableError(
          422,
          'INVALID_RECORDS',
          `At most ${AIRTABLE_MAX_RECORDS_PER_WRITE} records per ${what}`,
        );
    };

    const listPage: AirtableClient['listPage'] = (
      table,
      { filterByFormula, fields, maxRecords, offset },
      deadline,
    ) =>
      call<RecordPage>(
        'POST',
        `${tableUrl(table)}/listRecords`,
        {
          pageSize: AIRTABLE_PAGE_SIZE,
          ...(filterByFormula === undefined ? {} : { filterByFormula }),
          ...(fields ? { fields } : {}),
          ...(maxRecords === undefined ? {} : { maxRecords }),
          ...(offset ? { offset } : {}),
        },
        deadline,
      );

    return {
      deadlineAfter: (withinMs) => now() + withinMs,
      requestsSent: () => counter.sent,
      with: (next) => build({ ...policy, ...next }),

      listPage,
      async findByEmails(table, emails, deadline) {
        if (emails.length === 0) return [];
        const page = await listPage(
          table,
          { filterByFormula: emailsLookupFormula(emails), fields: [EMAIL_FIELD] },
          deadline,
        );
        return page.records;
      },
      async create(table, records, deadline) {
        if (records.length === 0) return [];
        atMostTen(records.length, 'create');
        const answer = await call<{ records: StoredRecord[] }>(
          'POST',
          tableUrl(table),
          { records: records.map((fields) => ({ fields })), typecast: true },
          deadline,
        );
        return answer.records;
      },
      async upsert(table, records, mergeOn, deadline) {
        if (records.length === 0) return [];
        atMostTen(records.length, 'upsert');
        const answer = await call<{ records: StoredRecord[] }>(
          'PATCH',
          tableUrl(table),
          {
            performUpsert: { fieldsToMergeOn: [mergeOn] },
            records: records.map((fields) => ({ fields })),
            typecast: true,
          },
          deadline,
        );
        return answer.records;
      },
      async update(table, records, deadline) {
        if (records.length === 0) return [];
        atMostTen(records.length, 'update');
        const answer = await call<{ records: StoredRecord[] }>(
          'PATCH',
          tableUrl(table),
          { records: records.map(({ id, fields }) => ({ id, fields })), typecast: true },
          deadline,
        );
        return answer.records;
      },
      async deleteRecords(table, ids, deadline) {
        if (ids.length === 0) return [];
        atMostTen(ids.length, 'delete');
        const query = ids.map((id) => `records[]=${encodeURIComponent(id)}`).join('&');
        const answer = await call<{ records: { id: string; deleted: boolean }[] }>(
          'DELETE',
          `${tableUrl(table)}?${query}`,
          undefined,
          deadline,
        );
        return answer.records.filter((record) => record.deleted).map((record) => record.id);
      },

      async listTables(deadline) {
        return (await call<{ tables: RemoteTable[] }>('GET', tablesUrl, undefined, deadline)).tables;
      },
      createTable(name, fields, deadline) {
        return call<RemoteTable>('POST', tablesUrl, { name, fields: fields.map(fieldForCreate) }, deadline);
      },
      createField(tableId, field, deadline) {
        return call<RemoteField>(
          'POST',
          `${tablesUrl}/${encodeURIComponent(tableId)}/fields`,
          fieldForCreate(field),
          deadline,
        );
      },
    };
  };

  return build(options);
}
