/**
 * The site's server doors, as one web-standard handler, `(request, client) => Promise<Response>`,
 * mounted by every host (the Worker, the Netlify Function, Vite's dev and preview servers):
 *
 * - the relay at RELAY_PATH speaks just enough of Airtable's REST API for the page's airtable.js
 *   client: its create of one record in 'Waitlist' or 'School Quotes' goes through the request check
 *   (src/server/request-check.ts), which hands it to the store (stores.ts) that upserts it by email or
 *   queues it. The page does not send its email lookup here: in relay mode it skips it and sends
 *   only the create (src/lib/airtable/upsert.ts), and in direct mode it talks to Airtable, not to
 *   this server. Should anything still send the storage layer's exact lookup, it is answered here
 *   with no records and never reaches Airtable, so it reveals nothing; everything else is refused
 *   with a 4xx before any request to Airtable. The page never holds a token.
 * - the forms' native posts (FORM_POST_PATHS) go through the same request check and are answered with a
 *   full page (src/server/form-door.ts).
 */
import { emailLookupFormula } from '#src/lib/airtable/formula.ts';
import { FORM_POST_PATHS, RELAY_BASE_ID, RELAY_PATH } from '#src/lib/airtable/relay-protocol.ts';
import type { TableName } from '#src/lib/airtable/schema.ts';
import type { Limiter } from './client-limits.ts';
import { answerNativePost, type FormTemplates } from './form-door.ts';
import { createRequestCheck, type CheckResult } from './request-check.ts';
import type { Pacer } from './pacer.ts';
import type { AirtableEnv } from './settings.ts';
import { createQueueStore, createSyncStore, type SubmissionQueue } from './stores.ts';
import { isRelayTable } from './submission.ts';

export type { SubmissionQueue } from './stores.ts';

export interface RelayOptions {
  /** Injected for tests and for the local servers; defaults to the global fetch. */
  fetch?: typeof fetch;
  /** One pacer per instance; pass a shared one when several relays talk to the same base. */
  pacer?: Pacer;
  answerBoundMs?: number;
  now?: () => number;
  /** Queued mode: accepted submissions are sent here instead of being written at once. */
  queue?: SubmissionQueue;
  /** Where operational warnings go (never with a token or an email in them). */
  warn?: (message: string) => void;
  /** Per-client and per-email limits (the Worker passes its Rate Limiting bindings). */
  clientLimiter?: Limiter;
  emailLimiter?: Limiter;
  bodyTimeoutMs?: number;
  /** The built answer pages of the forms' native posts. */
  formTemplates?: FormTemplates;
}

/** Who is asking, as the host knows it. */
export interface ClientInfo {
  /** The connecting address (see client-limits.ts for how each host finds it). */
  address?: string;
}

export type RelayHandler = (request: Request, client?: ClientInfo) => Promise<Response>;

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

/** The storage layer's lookup query: its one formula for one email, one record at most. */
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

/** The table a native post's path names, or undefined. */
function nativeFormTable(
  pathname: string,
): { form: keyof typeof FORM_POST_PATHS; table: TableName } | undefined {
  const trimmed = pathname.replace(/\/+$/, '');
  if (trimmed === FORM_POST_PATHS.waitlist) return { form: 'waitlist', table: 'Waitlist' };
  if (trimmed === FORM_POST_PATHS.quote) return { form: 'quote', table: 'School Quotes' };
  return undefined;
}

/** The request check's answer to the page's create, in the shape airtable.js reads. */
function jsonAnswer(result: CheckResult): Response {
  if (result.outcome === 'refused') {
    const response = airtableError(result.status, result.type, result.message);
    if (result.retryAfterSeconds) response.headers.set('retry-after', String(result.retryAfterSeconds));
    return response;
  }
  // The same for every email: a fresh id, the acceptance time and the cells the page sent.
  return json(200, { ...result.receipt, fields: result.sent ?? {} });
}

/** What a form's door answers: POST, and GET (or HEAD) with a redirect to the form's page. */
export const FORM_DOOR_METHODS = 'GET, HEAD, POST';

/** Builds the server's doors for one base. */
export function createRelay(env: AirtableEnv, options: RelayOptions = {}): RelayHandler {
  const baseId = env.AIRTABLE_BASE_ID?.trim() ?? '';
  const warn = options.warn ?? ((message: string) => console.warn(message));
  // Upstream messages may name the real base; the page only ever knows the stand-in.
  const scrub = (message: string) => (baseId ? message.split(baseId).join(RELAY_BASE_ID) : message);
  const store = options.queue
    ? createQueueStore(options.queue, warn)
    : createSyncStore(env, {
        fetch: options.fetch,
        pacer: options.pacer,
        answerBoundMs: options.answerBoundMs,
        now: options.now,
        warn,
        scrub,
      });
  const requestCheck = createRequestCheck({
    store,
    now: options.now,
    clientLimiter: options.clientLimiter,
    emailLimiter: options.emailLimiter,
    bodyTimeoutMs: options.bodyTimeoutMs,
  });

  return async (request, client = {}) => {
    const url = new URL(request.url);
    const clientAddress = client.address ?? 'unknown';
    const native = nativeFormTable(url.pathname);
    if (native) {
      // The door answers POST; a visitor who opens its address is sent to the form's page;
      // anything else (PUT, PATCH, DELETE…) is not a method of this door.
      if (request.method === 'GET' || request.method === 'HEAD')
        return new Response(null, {
          status: 303,
          headers: { location: native.form === 'quote' ? '/schools' : '/' },
        });
      if (request.method !== 'POST')
        return new Response('Method not allowed', {
          status: 405,
          headers: {
            allow: FORM_DOOR_METHODS,
            'content-type': 'text/plain; charset=utf-8',
            'cache-control': 'no-store',
          },
        });
      const result = await requestCheck.submit(request, {
        door: 'native',
        table: native.table,
        clientAddress,
      });
      return answerNativePost(native.form, result, options.formTemplates);
    }
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

    return jsonAnswer(await requestCheck.submit(request, { door: 'json', table, clientAddress }));
  };
}
