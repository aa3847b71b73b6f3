/**
 * The server's one Airtable client: the upsert by email (upsert.ts), the privacy jobs, the owner's
 * commands (their Metadata API calls, scripts/launch-kit/airtable.ts, through `api`). Plain fetch,
 * not airtable.js (decision 12), which cannot be paced (fixed fetch, no hook), retries a 429 on its
 * own timers instead of shutting one pacer for all, has one timeout per client rather than a deadline
 * per request, and no Metadata API. Here each request waits for the caller's pacer (pacer.ts), has a
 * deadline, and fails with an AirtableError saying whether to try again.
 */
import { type Cells, formOf, lookupFormulas, normaliseEmail } from '#src/lib/forms/submission.ts';
import { emailFieldOf } from '#src/lib/forms/forms.ts';
import { EMAIL_KEY_FIELD } from '#src/lib/forms/contract.ts';
import type { Pacer } from './pacer.ts';
import type { AirtableAccess } from '#src/server/settings.ts';

/** A failed Airtable call, in Airtable's vocabulary; `status` 0 when no answer came. */
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
}

type ErrorBody = {
  error?: string | { type?: string; message?: string };
  errors?: { error?: string; message?: string }[];
};

/** Airtable answers most errors as { error }, and rate limits as { errors: [{ error }] }. */
async function errorFrom(response: Response): Promise<AirtableError> {
  // Not JSON (a proxy's HTML page): keep the status.
  const body = (await response.json().catch(() => undefined)) as ErrorBody | undefined;
  const first = body?.errors?.[0];
  const error = typeof body?.error === 'string' ? { type: body.error, message: undefined } : body?.error;
  const { type, message } = error ?? { type: first?.error, message: first?.message };
  const text = message || response.statusText || 'Airtable answered with an error';
  return new AirtableError(response.status, type || `HTTP_${response.status}`, text.slice(0, 300));
}

/** Airtable's most records per create, update or delete request. */
export const AIRTABLE_MAX_RECORDS_PER_WRITE = 10;
/** `all` in parts of at most `size` (Airtable's 10 records a write, the desk's keys a storage call). */
export const inChunks = <T>(all: readonly T[], size: number) =>
  Array.from({ length: Math.ceil(all.length / size) }, (_, i) => all.slice(i * size, (i + 1) * size));
/** Airtable's largest page of a listing. */
const AIRTABLE_PAGE_SIZE = 100;
/** A request's bound when its caller sets none: the spec's client timeout (section 9). */
const AIRTABLE_REQUEST_TIMEOUT_MS = 300_000;

export interface StoredRecord {
  id: string;
  createdTime?: string;
  fields: Cells;
}

export interface ListQuery {
  filterByFormula?: string;
  fields?: readonly string[];
  maxRecords?: number;
  offset?: string;
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

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const noAnswer = () => new AirtableError(0, 'TIMEOUT', 'No answer from Airtable in time');
const noSlot = () => new AirtableError(0, 'TIMEOUT', 'No slot to reach Airtable in time');
const rateLimited = () =>
  new AirtableError(429, 'TOO_MANY_REQUESTS', 'Airtable is rate limiting this base; try again shortly');

/** A client under one retry policy; `counter` counts the requests of it and its `with` kin. */
export function createAirtableClient(
  access: AirtableAccess,
  options: AirtableClientOptions,
  counter = { sent: 0 },
) {
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const { pacer, now = Date.now, attempts = 1, sleep = defaultSleep } = options;
  const boundMs = options.requestBoundMs ?? AIRTABLE_REQUEST_TIMEOUT_MS;
  const origin = access.endpointUrl.replace(/\/+$/, '');
  const tableUrl = (table: string) =>
    `${origin}/v0/${encodeURIComponent(access.baseId)}/${encodeURIComponent(table)}`;

  /** One try: a slot in the pacer, then the request, bounded by `deadline`. */
  const once = async <T>(method: string, url: string, body: unknown, deadline: number): Promise<T> => {
    if (!(await pacer.acquire(deadline - now()))) throw pacer.closedFor() > 0 ? rateLimited() : noSlot();
    const remaining = deadline - now();
    if (remaining <= 0) throw noAnswer();
    counter.sent += 1;
    const response = await doFetch(url, {
      method,
      headers: { authorization: `Bearer ${access.token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(remaining),
    }).catch((error: unknown) => {
      const timedOut = error instanceof Error && ['TimeoutError', 'AbortError'].includes(error.name);
      throw timedOut ? noAnswer() : new AirtableError(0, 'CONNECTION_ERROR', 'Could not reach Airtable');
    });
    // The one place that reacts to a 429: the pacer stays shut for Airtable's penalty.
    if (response.status === 429) pacer.penalise();
    if (!response.ok) throw await errorFrom(response);
    return (await response.json().catch(() => {
      throw new AirtableError(502, 'INVALID_RESPONSE', 'Airtable answered with something that is not JSON');
    })) as T;
  };

  /** A request, tried again after a transient failure: after a 429 the pacer makes the wait. */
  const call = async <T>(method: string, url: string, body: unknown, deadline?: number): Promise<T> => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await once<T>(method, url, body, deadline ?? now() + boundMs + pacer.closedFor());
      } catch (error) {
        if (!(error instanceof AirtableError) || !error.transient || attempt >= attempts) throw error;
        options.onRetry?.(error, pacer);
        if (error.status !== 429) await sleep(1_000 * 2 ** (attempt - 1));
      }
    }
  };
  const atMostTen = (count: number, most = AIRTABLE_MAX_RECORDS_PER_WRITE) => {
    if (count > most) throw new AirtableError(422, 'INVALID_RECORDS', `At most ${most} records per request`);
  };
  /** Writes up to 10 records; typecast, so Airtable adds a select option it has not seen. */
  const write = async (table: string, records: readonly object[], mergeOn?: string) => {
    if (records.length === 0) return [];
    atMostTen(records.length);
    const performUpsert = mergeOn ? { fieldsToMergeOn: [mergeOn] } : undefined;
    const body = { performUpsert, records, typecast: true };
    return (await call<{ records: StoredRecord[] }>('PATCH', tableUrl(table), body)).records;
  };
  const asNew = (records: readonly Cells[]) => records.map((fields) => ({ fields }));
  /**
   * One page (up to 100) of a table's records, and where the next starts (Airtable's offset), if
   * any; POSTed, so a long formula fits. JSON leaves out the query's unset parts.
   */
  const listPage = (table: string, query: ListQuery) =>
    call<{ records: StoredRecord[]; offset?: string }>('POST', `${tableUrl(table)}/listRecords`, {
      pageSize: AIRTABLE_PAGE_SIZE,
      ...query,
    });

  const listAll = async (table: string, query: ListQuery): Promise<StoredRecord[]> => {
    const { records, offset } = await listPage(table, query);
    return offset ? [...records, ...(await listAll(table, { ...query, offset }))] : records;
  };

  return {
    /** This client's clock, for callers that bound work by it and run on another (the privacy jobs'). */
    now,
    /** Requests sent so far by this client and the ones made from it with `with`. */
    requestsSent: () => counter.sent,

    listPage,
    /** Every record a list query finds, page by page (Airtable's pages of 100 and its offset). */
    listAll,
    /**
     * The stored record of each normalised email of `emails` (trimmed and case-insensitive, so one
     * typed in by hand is found too; the first, should someone have typed a second), with its email,
     * its key (EMAIL_KEY_FIELD: upsert.ts writes by it where it is stored) and the `fields` asked for:
     * one request per formula of up to LOOKUP_FORMULA_MAX_CHARS (about 300 addresses), sent together
     * (the pacer spaces them), and a page more for each further 100 records a formula finds.
     */
    async findByEmails(table: string, emails: readonly string[], fields: readonly string[] = []) {
      const field = emailFieldOf(formOf({ table }));
      const query = { fields: [field, EMAIL_KEY_FIELD.airtable, ...fields] };
      const found = await Promise.all(
        lookupFormulas(emails, field).map((filterByFormula) => listAll(table, { ...query, filterByFormula })),
      );
      const byEmail = new Map<string, StoredRecord>();
      for (const record of found.flat()) {
        const email = record.fields[field];
        if (typeof email === 'string' && !byEmail.has(normaliseEmail(email)))
          byEmail.set(normaliseEmail(email), record);
      }
      return byEmail;
    },
    /**
     * Creates up to 10 records, or updates the one already holding the same `mergeOn` cell (Airtable's
     * performUpsert): a write Airtable applies late, then sent again, makes one record, not two.
     */
    upsert: (table: string, records: readonly Cells[], mergeOn: string) =>
      write(table, asNew(records), mergeOn),
    /** Updates up to 10 records by id in one request; cells it does not name are kept. */
    update: (table: string, records: readonly { id: string; fields: Cells }[]) => write(table, records),
    /** Deletes up to 10 records by id in one request; returns the ids deleted. */
    async deleteRecords(table: string, ids: readonly string[]) {
      if (ids.length === 0) return [];
      atMostTen(ids.length);
      const query = ids.map((id) => `records[]=${encodeURIComponent(id)}`).join('&');
      const url = `${tableUrl(table)}?${query}`;
      const answer = await call<{ records: { id: string; deleted: boolean }[] }>('DELETE', url, undefined);
      return answer.records.filter((record) => record.deleted).map((record) => record.id);
    },
    /** Any other request of the API, by its path under /v0/ (the launch kit's Metadata API calls and probe). */
    api: <T>(method: string, path: string, body?: unknown, deadline?: number) =>
      call<T>(method, `${origin}/v0/${path}`, body, deadline),
    with: (policy: RetryPolicy): AirtableClient =>
      createAirtableClient(access, { ...options, ...policy }, counter),
  };
}

/**
 * A request may take `requestBoundMs`, plus however long the pacer is shut after a 429; `api` takes
 * an optional deadline instead, in the client's own clock (`now`).
 */
export interface AirtableClient extends ReturnType<typeof createAirtableClient> {
  /** The same client (pacer, fetch, clock, count) with another retry policy or bound. */
  with(policy: RetryPolicy): AirtableClient;
}
