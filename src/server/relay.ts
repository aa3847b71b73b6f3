/**
 * The same-origin relay: one web-standard handler, `(request) => Promise<Response>`, that speaks
 * just enough of Airtable's REST API for the page's airtable.js client to store a form, and
 * performs the spec's upsert itself with the server's token. The page never holds a token, and
 * nothing it can send reads, overwrites or deletes anyone's record:
 *
 * - the page's email lookup is answered here with no records and never reaches Airtable, so it
 *   reveals nothing, not even whether an address is stored;
 * - the page's create of one record in 'Waitlist' or 'School Quotes' is validated against the
 *   schema (src/server/submission.ts) and then upserted by email here (or handed to the queue);
 * - everything else is refused with a 4xx before any request to Airtable.
 *
 * Runs on the host: the Worker (src/server/worker.ts), the Netlify Function and Vite's dev and
 * preview servers all mount this same handler. Relative imports only.
 */
import { emailLookupFormula } from '../lib/airtable/formula.ts';
import { RELAY_BASE_ID, RELAY_PATH } from '../lib/airtable/relay-protocol.ts';
import type { TableName } from '../lib/airtable/schema.ts';
import {
  type AirtableUpstream,
  createAirtableUpstream,
  type StoredRecord,
  UpstreamError,
} from './airtable-upstream.ts';
import { createRateGate, type RateGate } from './rate-gate.ts';
import {
  cellsForCreate,
  cellsForUpdate,
  isRefusal,
  isRelayTable,
  parseSubmission,
  type Refusal,
  type Submission,
} from './submission.ts';

/** The server's environment variables the relay reads (names kept: deploys and tests set them). */
export interface RelayEnv {
  AIRTABLE_API_KEY?: string;
  AIRTABLE_BASE_ID?: string;
  /** Upstream origin; Airtable's API when unset. */
  AIRTABLE_ENDPOINT_URL?: string;
}

export const AIRTABLE_API_ORIGIN = 'https://api.airtable.com';
/** Largest request body the relay reads; a form's create is well under 4 KB. */
export const RELAY_MAX_BODY_BYTES = 16 * 1024;
/**
 * Longest the relay works on one answer. Under the page's own 30 s bound, so a hanging Airtable
 * still gets the visitor an error answer from the relay rather than a silent timeout.
 */
export const RELAY_ANSWER_BOUND_MS = 25_000;

/** Where accepted submissions go in queued mode (a Cloudflare Queue in the Worker). */
export interface SubmissionQueue {
  send(submission: Submission): Promise<void>;
}

export interface RelayOptions {
  /** Injected for tests and for the local servers; defaults to the global fetch. */
  fetch?: typeof fetch;
  /** One gate per instance; pass a shared one when several relays talk to the same base. */
  gate?: RateGate;
  answerBoundMs?: number;
  now?: () => number;
  /** Queued mode: accepted submissions are sent here instead of being written at once. */
  queue?: SubmissionQueue;
  /** Where operational warnings go (never with a token or an email in them). */
  warn?: (message: string) => void;
}

export type RelayHandler = (request: Request) => Promise<Response>;

const JSON_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: JSON_HEADERS });
}

/** An error answer in Airtable's shape, so the page's error mapping reads it as it would Airtable's. */
export function airtableError(status: number, type: string, message: string): Response {
  return json(status, { error: { type, message } });
}

const refusal = ({ status, type, message }: Refusal) => airtableError(status, type, message);

/** The page's lookup query: the storage layer's one formula for one email, one record at most. */
const LOOKUP_PARAMS = new Set(['filterByFormula', 'maxRecords', 'pageSize', 'limit', 'offset']);

function isPageLookup(params: URLSearchParams): boolean {
  for (const [name, value] of params) {
    if (!LOOKUP_PARAMS.has(name)) return false;
    if ((name === 'maxRecords' || name === 'pageSize' || name === 'limit') && value !== '1') return false;
    if (name === 'offset' && value !== '') return false;
  }
  const formula = params.get('filterByFormula') ?? '';
  const literal = /^LOWER\(TRIM\(\{Email\}\)\) = '((?:[^'\\]|\\.)*)'$/.exec(formula)?.[1];
  if (literal === undefined) return false;
  const escapes: Record<string, string> = { n: '\n', r: '\r', t: '\t' };
  const email = literal.replace(/\\(.)/g, (_, char: string) => escapes[char] ?? char);
  // Only the exact formula the storage layer builds: no widened or extra conditions.
  return emailLookupFormula(email) === formula;
}

/** Reads at most `limit` bytes of the body; null when it is longer. */
async function readBody(request: Request, limit: number): Promise<string | null> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > limit) return null;
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/** Runs tasks for one key one after another; different keys never wait on each other. */
function keyedSerialiser() {
  const tails = new Map<string, Promise<unknown>>();
  return <T>(key: string, task: () => Promise<T>): Promise<T> => {
    const previous = tails.get(key) ?? Promise.resolve();
    const run = previous.then(task, task);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };
}

/** Upserts one submission: look the email up, update the match or create the record. */
export async function upsertSubmission(
  upstream: AirtableUpstream,
  submission: Submission,
  deadline: number,
  at: Date,
): Promise<StoredRecord> {
  const [existing] = await upstream.findByEmails(submission.table, [submission.email], deadline);
  if (existing) {
    const [updated] = await upstream.update(
      submission.table,
      [{ id: existing.id, fields: cellsForUpdate(submission, at) }],
      deadline,
    );
    return updated ?? existing;
  }
  const [created] = await upstream.create(submission.table, [cellsForCreate(submission, at)], deadline);
  if (!created) throw new UpstreamError(502, 'INVALID_RESPONSE', 'Airtable created no record');
  return created;
}

/** A queued submission's id, shaped like Airtable's ('rec' and 14 letters or digits). */
function randomReceiptId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(14));
  return `rec${Array.from(bytes, (byte) => (byte % 36).toString(36)).join('')}`;
}

/** Builds the relay for one base. */
export function createRelay(env: RelayEnv, options: RelayOptions = {}): RelayHandler {
  const apiKey = env.AIRTABLE_API_KEY?.trim() ?? '';
  const baseId = env.AIRTABLE_BASE_ID?.trim() ?? '';
  const now = options.now ?? Date.now;
  const answerBoundMs = options.answerBoundMs ?? RELAY_ANSWER_BOUND_MS;
  const warn = options.warn ?? ((message: string) => console.warn(message));
  const gate = options.gate ?? createRateGate({ now });
  const upstream = createAirtableUpstream(
    { apiKey, baseId, endpointUrl: env.AIRTABLE_ENDPOINT_URL?.trim() || AIRTABLE_API_ORIGIN },
    { gate, fetch: options.fetch, now },
  );
  const oneAtATime = keyedSerialiser();
  // Upstream messages may name the real base; the page only ever knows the stand-in.
  const scrub = (message: string) => (baseId ? message.split(baseId).join(RELAY_BASE_ID) : message);

  /** What the page is told of a stored (or queued) submission. */
  type Receipt = { id: string; createdTime: string };

  const store = async (submission: Submission): Promise<Receipt | Response> => {
    if (!apiKey) return airtableError(401, 'AUTHENTICATION_REQUIRED', 'The relay has no AIRTABLE_API_KEY');
    if (!baseId) return airtableError(403, 'NOT_AUTHORIZED', 'The relay has no AIRTABLE_BASE_ID');
    const deadline = now() + answerBoundMs;
    try {
      const record = await oneAtATime(`${submission.table}\u0000${submission.email}`, () =>
        upsertSubmission(upstream, submission, deadline, new Date(now())),
      );
      return { id: record.id, createdTime: record.createdTime ?? new Date(now()).toISOString() };
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      if (error.status !== 429) warn(`Airtable relay: ${error.status || 'no answer'} ${error.type}`);
      if (error.status === 0) {
        return airtableError(error.type === 'TIMEOUT' ? 504 : 502, error.type, scrub(error.message));
      }
      return airtableError(error.status, error.type, scrub(error.message));
    }
  };

  const enqueue = async (queue: SubmissionQueue, submission: Submission): Promise<Receipt | Response> => {
    try {
      await queue.send(submission);
    } catch (error) {
      warn(
        `Airtable relay: the queue refused a submission (${error instanceof Error ? error.message : 'unknown'})`,
      );
      return airtableError(503, 'SERVICE_UNAVAILABLE', 'Could not accept the submission; try again');
    }
    return { id: randomReceiptId(), createdTime: submission.acceptedAt };
  };

  return async (request) => {
    const url = new URL(request.url);
    const prefix = `${RELAY_PATH}/v0/`;
    if (!url.pathname.startsWith(prefix)) return airtableError(404, 'NOT_FOUND', 'Not found');
    const segments = url.pathname.slice(prefix.length).split('/');
    if (segments.at(-1) === '') segments.pop();
    const [base, rawTable, ...rest] = segments;
    if (base === 'meta')
      return airtableError(403, 'NOT_AUTHORIZED', 'The metadata API is not available here');
    if (base !== RELAY_BASE_ID || rawTable === undefined)
      return airtableError(404, 'NOT_FOUND', 'Could not find what you are looking for');
    let table: string;
    try {
      table = decodeURIComponent(rawTable);
    } catch {
      return airtableError(404, 'TABLE_NOT_FOUND', 'Could not find that table');
    }
    if (!isRelayTable(table)) return airtableError(404, 'TABLE_NOT_FOUND', 'Could not find that table');
    if (rest.length > 0)
      return airtableError(403, 'NOT_AUTHORIZED', 'Records can only be created here, one at a time');

    if (request.method === 'GET') {
      if (!isPageLookup(url.searchParams))
        return airtableError(403, 'NOT_AUTHORIZED', 'Only the form’s own lookup is answered here');
      return json(200, { records: [] });
    }
    if (request.method !== 'POST')
      return airtableError(405, 'METHOD_NOT_ALLOWED', 'Records can only be created here');
    if (url.search) return airtableError(400, 'INVALID_REQUEST_UNKNOWN', 'Unexpected query parameters');

    const text = await readBody(request, RELAY_MAX_BODY_BYTES);
    if (text === null)
      return airtableError(
        413,
        'REQUEST_TOO_LARGE',
        `Request bodies are limited to ${RELAY_MAX_BODY_BYTES} bytes`,
      );
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return airtableError(400, 'INVALID_REQUEST_BODY', 'The request body is not valid JSON');
    }
    const submission = parseSubmission(table as TableName, body, new Date(now()));
    if (isRefusal(submission)) return refusal(submission);
    const receipt = options.queue ? await enqueue(options.queue, submission) : await store(submission);
    if (receipt instanceof Response) return receipt;
    // The page gets the record's id and the cells it sent, nothing else of the stored record.
    return json(200, { ...receipt, fields: (body as { fields: unknown }).fields });
  };
}
