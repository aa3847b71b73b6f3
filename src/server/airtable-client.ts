/**
 * The server's one Airtable client, with its one error type (AirtableError). Every server-side
 * call to Airtable goes through it: the upsert by email (submission.ts) of the queue's writer
 * and of a pressed email link, the privacy jobs (privacy.ts) and the owner's
 * commands (scripts/launch-kit/: setup, check, privacy), Metadata API included.
 *
 * Plain fetch rather than airtable.js (decision 12): airtable.js cannot be paced (its fetch is
 * fixed, with no hook before a request), retries a 429 on its own timers instead of shutting one
 * pacer for every caller, has one timeout per client rather than a deadline per request, and
 * has no Metadata API for the setup and check commands. Here every request waits for a slot in
 * the caller's pacer (createPacer, below), is bounded by a deadline, and fails with an AirtableError that
 * says whether it is worth another try.
 */
import { emailLookupFormula, AIRTABLE_SCHEMA, type FieldDefinition } from '#src/lib/airtable/schema.ts';
import { type Cells } from '#src/lib/forms/submission.ts';
import { AIRTABLE_DEFAULT_ENDPOINT } from '#src/config/constants.ts';

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

/** A table and its fields as the Metadata API lists them. */
export interface RemoteTable {
  id: string;
  name: string;
  fields: { id: string; name: string; type: string }[];
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
  // Not JSON (a proxy's HTML page): keep the status.
  const body = (await response.json().catch(() => undefined)) as ErrorBody | undefined;
  const first = body?.errors?.[0];
  const error = body?.error ?? (first ? { type: first.error, message: first.message } : undefined);
  const type = (typeof error === 'string' ? error : error?.type) || `HTTP_${response.status}`;
  const message =
    (typeof error === 'object' ? error.message : undefined) ||
    response.statusText ||
    'Airtable answered with an error';
  return new AirtableError(response.status, type, message.slice(0, 300));
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A client's methods under one retry policy; `counter` counts the requests of it and its `with` kin. */
function clientMethods(access: AirtableAccess, options: AirtableClientOptions, counter: { sent: number }) {
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const now = options.now ?? Date.now;
  const { pacer } = options;
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

  const attempts = Math.max(1, options.attempts ?? 1);
  const boundMs = options.requestBoundMs ?? AIRTABLE_REQUEST_TIMEOUT_MS;
  const sleep = options.sleep ?? defaultSleep;

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
  const atMostTen = (count: number) => {
    if (count > AIRTABLE_MAX_RECORDS_PER_WRITE)
      throw new AirtableError(
        422,
        'INVALID_RECORDS',
        `At most ${AIRTABLE_MAX_RECORDS_PER_WRITE} records per request`,
      );
  };
  /** Writes up to 10 records; typecast, so Airtable adds a select option it has not seen. */
  const write = async (
    method: string,
    table: string,
    records: readonly object[],
    deadline?: number,
    performUpsert?: { fieldsToMergeOn: string[] },
  ) => {
    if (records.length === 0) return [];
    atMostTen(records.length);
    const body = { performUpsert, records, typecast: true };
    return (await call<{ records: StoredRecord[] }>(method, tableUrl(table), body, deadline)).records;
  };

  const asNew = (records: readonly Cells[]) => records.map((fields) => ({ fields }));
  /**
   * One page (up to 100) of a table's records, and where the next starts (Airtable's offset), if
   * any; POSTed, so a long formula fits. JSON leaves out the query's unset parts.
   */
  const listPage = (table: string, query: ListQuery, deadline?: number) =>
    call<{ records: StoredRecord[]; offset?: string }>(
      'POST',
      `${tableUrl(table)}/listRecords`,
      { pageSize: AIRTABLE_PAGE_SIZE, ...query },
      deadline,
    );

  return {
    /**
     * The deadline `withinMs` from now in this client's clock, for callers that bound work by a
     * duration and run on another clock (the privacy jobs' policy clock).
     */
    deadlineAfter: (withinMs: number) => now() + withinMs,
    /** Requests sent so far by this client and the ones made from it with `with`. */
    requestsSent: () => counter.sent,

    listPage,
    /** Every record a list query finds, page by page (Airtable's pages of 100 and its offset). */
    async listAll(table: string, query: ListQuery) {
      const records: StoredRecord[] = [];
      let offset: string | undefined;
      do {
        const page = await listPage(table, { ...query, offset });
        records.push(...page.records);
        offset = page.offset;
      } while (offset);
      return records;
    },
    /**
     * Records whose normalised Email is one of `emails` (one request for up to 100 emails), with
     * their Email and the `fields` asked for.
     */
    async findByEmails(
      table: string,
      emails: readonly string[],
      deadline?: number,
      fields: readonly string[] = [],
    ) {
      if (emails.length === 0) return [];
      const page = await listPage(
        table,
        { filterByFormula: emailsLookupFormula(emails), fields: [EMAIL_FIELD, ...fields] },
        deadline,
      );
      return page.records;
    },
    /** Creates up to 10 records in one request. */
    create: (table: string, records: readonly Cells[], deadline?: number) =>
      write('POST', table, asNew(records), deadline),
    /**
     * Creates up to 10 records, or updates the one already holding the same `mergeOn` cell (Airtable's
     * performUpsert): a write Airtable applies late, then sent again, makes one record, not two.
     */
    upsert: (table: string, records: readonly Cells[], mergeOn: string, deadline?: number) =>
      write('PATCH', table, asNew(records), deadline, { fieldsToMergeOn: [mergeOn] }),
    /** Updates up to 10 records by id in one request; cells it does not name are kept. */
    update: (table: string, records: readonly { id: string; fields: Cells }[], deadline?: number) =>
      write('PATCH', table, records, deadline),
    /** Deletes up to 10 records by id in one request; returns the ids deleted. */
    async deleteRecords(table: string, ids: readonly string[], deadline?: number) {
      if (ids.length === 0) return [];
      atMostTen(ids.length);
      const query = ids.map((id) => `records[]=${encodeURIComponent(id)}`).join('&');
      const answer = await call<{ records: { id: string; deleted: boolean }[] }>(
        'DELETE',
        `${tableUrl(table)}?${query}`,
        undefined,
        deadline,
      );
      return answer.records.filter((record) => record.deleted).map((record) => record.id);
    },

    /** Metadata API (schema.bases:read): the base's tables and their fields. */
    async listTables(deadline?: number) {
      return (await call<{ tables: RemoteTable[] }>('GET', tablesUrl, undefined, deadline)).tables;
    },
    /** Metadata API (schema.bases:write). */
    createTable(name: string, fields: readonly FieldDefinition[], deadline?: number) {
      return call<RemoteTable>('POST', tablesUrl, { name, fields: fields.map(fieldForCreate) }, deadline);
    },
    /** Metadata API (schema.bases:write). */
    createField(tableId: string, field: FieldDefinition, deadline?: number) {
      return call<RemoteTable['fields'][number]>(
        'POST',
        `${tablesUrl}/${encodeURIComponent(tableId)}/fields`,
        fieldForCreate(field),
        deadline,
      );
    },
  };
}

export function createAirtableClient(
  access: AirtableAccess,
  options: AirtableClientOptions,
  counter = { sent: 0 },
): AirtableClient {
  return {
    ...clientMethods(access, options, counter),
    with: (policy: RetryPolicy) => createAirtableClient(access, { ...options, ...policy }, counter),
  };
}

/**
 * Each method takes an optional deadline in the client's own clock (`now`); without one a
 * request may take `requestBoundMs`, plus however long the pacer is shut after a 429.
 */
export type AirtableClient = ReturnType<typeof clientMethods> & {
  /** The same client (pacer, fetch, clock, count) with another retry policy or bound. */
  with(policy: RetryPolicy): AirtableClient;
};

/**
 * The server's environment variables for Airtable (names kept: deploys and tests set them): the
 * Worker's bindings, and the owner's commands' process environment (which also take flags).
 */
export interface AirtableEnv {
  AIRTABLE_API_KEY?: string;
  AIRTABLE_BASE_ID?: string;
  /** Airtable's API origin (or the local emulator's); Airtable's API when unset. */
  AIRTABLE_ENDPOINT_URL?: string;
}

/** Where and as whom to call Airtable. A token only ever comes from the environment or a flag. */
export interface AirtableAccess {
  endpointUrl: string;
  baseId: string;
  token: string;
}

/** The server's access to its base: the site's token (AIRTABLE_API_KEY), trimmed; '' when unset. */
export function airtableAccess(env: AirtableEnv): AirtableAccess {
  return {
    endpointUrl: env.AIRTABLE_ENDPOINT_URL?.trim() || AIRTABLE_DEFAULT_ENDPOINT,
    baseId: env.AIRTABLE_BASE_ID?.trim() ?? '',
    token: env.AIRTABLE_API_KEY?.trim() ?? '',
  };
}

/**
 * The site's own origin, from the Worker's SITE_URL (`https://podling.app`; in `vite` and `vite
 * preview`, the address the server serves): the one Origin a form post is taken from and the one
 * every emailed link leads to. Never taken from a request: a forged Host or an absolute request
 * line would otherwise put a stranger's address into links the site signs.
 */
export function siteOriginOf(value: string | undefined): { origin: string } | { problem: string } {
  const text = value?.trim() ?? '';
  if (!text) return { problem: 'SITE_URL is not set: the address every emailed link leads to' };
  try {
    const url = new URL(text);
    if (url.protocol === 'https:' || url.protocol === 'http:') return { origin: url.origin };
  } catch {
    // Reported below.
  }
  return { problem: `SITE_URL is not an http(s) address: ${JSON.stringify(text)}` };
}

/**
 * Airtable allows 5 requests per second per base and, after a breach, refuses every client of
 * the base for 30 seconds. The pacer is this instance's one door to Airtable: it spaces requests
 * so at most `perSecond` start in any one-second window, and after a 429 it stays shut for the
 * penalty so nothing we send prolongs it. This is the only place that reacts to a 429.
 */

/** Airtable's documented limit and penalty. */
export const AIRTABLE_REQUESTS_PER_SECOND = 5;
export const AIRTABLE_RATE_LIMIT_PENALTY_MS = 30_000;
/**
 * The window the pacer counts in: a second plus a margin, because requests that leave here exactly
 * a second apart can arrive at Airtable closer together, and 6 in its second is a 30 s penalty.
 * 1.3 s: with 1.2 s, three of four launch-rush runs on this toolchain met one or two 429s, their
 * requests bunched on arrival by a busy machine (docs/rush.md).
 */
export const RATE_WINDOW_MS = 1_300;

export interface PacerOptions {
  perSecond?: number;
  windowMs?: number;
  /**
   * Start shut for this long. A pacer that does not know what an earlier instance (an earlier
   * isolate of the queue's consumer) sent just before must not assume a fresh window.
   */
  startClosedForMs?: number;
  penaltyMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export function createPacer({
  perSecond = AIRTABLE_REQUESTS_PER_SECOND,
  windowMs = RATE_WINDOW_MS,
  penaltyMs = AIRTABLE_RATE_LIMIT_PENALTY_MS,
  startClosedForMs = 0,
  now = Date.now,
  sleep = defaultSleep,
}: PacerOptions = {}) {
  // Start times of the slots handed out, oldest first; booked ahead when callers queue up.
  const starts: number[] = [];
  // When callers really went ahead (a late wake-up included), oldest first.
  const departures: number[] = [];
  let closedUntil = startClosedForMs > 0 ? now() + startClosedForMs : 0;

  /** The earliest time a new slot may start, booking it. */
  const book = (): number => {
    const at = Math.max(now(), closedUntil);
    while (starts.length > 0 && (starts[0] ?? 0) <= at - windowMs) starts.shift();
    // With `perSecond` slots in the last window, the next one starts a window after the oldest.
    const slot =
      starts.length < perSecond ? at : Math.max(at, (starts[starts.length - perSecond] ?? at) + windowMs);
    starts.push(slot);
    starts.sort((a, b) => a - b);
    return slot;
  };

  return {
    /**
     * Waits for a slot and takes it. Resolves false without taking one when the wait would last
     * longer than `withinMs`, so a caller with a visitor waiting can answer in time. A duration,
     * not a point in time: the caller's clock and the pacer's need not be the same clock.
     */
    async acquire(withinMs = Number.POSITIVE_INFINITY): Promise<boolean> {
      const deadline = now() + withinMs;
      if (Math.max(now(), closedUntil) > deadline) return false;
      const slot = book();
      if (slot > deadline) {
        starts.splice(starts.indexOf(slot), 1);
        return false;
      }
      const wait = slot - now();
      if (wait > 0) await sleep(wait);
      // A 429 seen while this caller waited shuts the pacer for it too.
      if (closedUntil > now()) {
        if (closedUntil > deadline) return false;
        await sleep(closedUntil - now());
      }
      // A busy isolate wakes a sleeper late, so a caller may leave after the next slot's time:
      // count the requests that really left, and wait again while a window holds `perSecond`.
      for (;;) {
        const at = now();
        while (departures.length > 0 && (departures[0] ?? 0) <= at - windowMs) departures.shift();
        if (departures.length < perSecond) break;
        const free = (departures[departures.length - perSecond] ?? at) + windowMs;
        if (free > deadline) return false;
        await sleep(free - at);
      }
      departures.push(now());
      return true;
    },
    /** Records a 429: no slot is handed out until the penalty has passed. */
    penalise() {
      closedUntil = Math.max(closedUntil, now() + penaltyMs);
    },
    /** Milliseconds until the pacer opens after a 429 (0 when open). */
    closedFor() {
      return Math.max(0, closedUntil - now());
    },
  };
}
export type Pacer = ReturnType<typeof createPacer>;
