/**
 * Airtable's REST API (v0) as airtable.js and the owner's commands use it (records, Metadata API,
 * scopes, rate limit and penalty, latency), a request log, and faults a test arms.
 */
import type http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { apiError, readBody, sendError, sendJson } from './http.ts';
import type { EmulatorToken } from './base-schema.ts';
import type { BaseStore, ListParams } from './store.ts';

const REQUEST_LOG_LIMIT = 500;

/**
 * Applies to the next `count` (default 1) requests matching `method`/`table` and `match` (text in
 * the decoded URL or body, any case: a test's own address keeps parallel tests apart). 'status'
 * answers an Airtable error, 'hang' never answers, 'drop' destroys the socket, 'invalid-json'
 * answers HTML (default 502), 'delay' waits `delayMs` then applies the request: a write that lands
 * after the client gave up (the log marks it applied).
 */
export interface Fault {
  kind?: 'status' | 'hang' | 'drop' | 'invalid-json' | 'delay';
  status?: number;
  type?: string;
  message?: string;
  delayMs?: number;
  count?: number;
  method?: string;
  table?: string;
  match?: string;
}

/**
 * rateLimitPerSecond 0 turns the limit off; rateLimitPenaltyMs keeps answering 429 that long
 * after a breach (real Airtable: 30 s); latencyMs delays every API answer.
 */
export interface ApiConfig {
  rateLimitPerSecond: number;
  rateLimitPenaltyMs: number;
  latencyMs: number;
}

export interface LoggedRequest {
  at: string;
  method: string;
  path: string;
  table?: string;
  status: number;
}

/** Where a fault's `match` is looked for (serve() has decoded the path already). */
function requestText(url: URL, body: unknown): string {
  const query = [...url.searchParams].map(([key, value]) => `${key}=${value}`).join('&');
  return `${decodeURIComponent(url.pathname)}?${query}\n${JSON.stringify(body) ?? ''}`.toLowerCase();
}

/** GET query → list parameters; airtable.js sends the fields to return as fields[]. */
function queryToParams(query: URLSearchParams): ListParams {
  const fields = [...query.getAll('fields[]'), ...query.getAll('fields')];
  return { ...Object.fromEntries(query), ...(fields.length > 0 ? { fields } : {}) };
}

/** The answer to a records request (`parts` after /v0/{baseId}) or a /v0/meta one (['bases', id, …]). */
function route(store: BaseStore, method: string, isMeta: boolean, parts: string[], url: URL, body: unknown) {
  if (isMeta) {
    const [bases, baseId, tables, tableIdOrName, fields, ...rest] = parts;
    if (bases !== 'bases' || tables !== 'tables' || rest.length > 0) throw apiError(404);
    // Airtable does not say whether a base exists to a token that cannot see it.
    if (baseId !== store.baseId) throw apiError(403);
    if (!tableIdOrName && method === 'GET') return { tables: store.describeTables() };
    if (!tableIdOrName && method === 'POST') return store.createTable(body);
    if (tableIdOrName && fields === 'fields' && method === 'POST')
      return store.createField(tableIdOrName, body);
    throw apiError(404);
  }
  const [table, recordId, extra] = parts;
  if (!table || extra) throw apiError(404);
  if (method === 'GET' && !recordId) return store.listRecords(table, queryToParams(url.searchParams));
  if (method === 'POST' && recordId === 'listRecords')
    return store.listRecords(table, { ...queryToParams(url.searchParams), ...(body as object | undefined) });
  if ((method === 'POST' && !recordId) || method === 'PATCH')
    return store.writeRecords(table, method, recordId, body);
  if (method === 'DELETE') {
    const deleted = store.deleteRecords(table, recordId ? [recordId] : url.searchParams.getAll('records[]'));
    return recordId ? deleted[0] : { records: deleted };
  }
  throw apiError(404);
}

/** The REST API over one store, with its faults, rate limit and request log. */
export function createRestApi(store: BaseStore, tokens: readonly EmulatorToken[], initialConfig: ApiConfig) {
  const config: ApiConfig = { ...initialConfig };
  let faults: Fault[] = [];
  let requestLog: LoggedRequest[] = [];
  let recentHits: number[] = [];
  let penaltyUntil = 0;
  const hung = new Set<http.ServerResponse>();

  const takeFault = (method: string, table: string | undefined, text: string): Fault | undefined => {
    const index = faults.findIndex(
      (fault) =>
        (!fault.method || fault.method.toUpperCase() === method) &&
        (!fault.table || fault.table === table) &&
        (!fault.match || text.includes(fault.match.toLowerCase())),
    );
    const fault = faults[index];
    if (!fault) return undefined;
    const remaining = (fault.count ?? 1) - 1;
    if (remaining <= 0) faults.splice(index, 1);
    else fault.count = remaining;
    return fault;
  };

  /** True when this request breaches the per-base rate limit (rejected requests are not counted). */
  const rateLimited = (): boolean => {
    const limit = config.rateLimitPerSecond;
    if (!limit || limit <= 0) return false;
    const now = Date.now();
    if (now < penaltyUntil) return true;
    recentHits = recentHits.filter((at) => now - at < 1000);
    if (recentHits.length >= limit) {
      penaltyUntil = now + config.rateLimitPenaltyMs;
      return true;
    }
    recentHits.push(now);
    return false;
  };

  const log = (method: string, url: URL, table: string | undefined, res: http.ServerResponse) => {
    const at = new Date().toISOString();
    const entry: LoggedRequest = { at, method, path: url.pathname, ...(table ? { table } : {}), status: 0 };
    requestLog.push(entry);
    if (requestLog.length > REQUEST_LOG_LIMIT) requestLog = requestLog.slice(-REQUEST_LOG_LIMIT);
    res.on('finish', () => Object.assign(entry, { status: res.statusCode }));
    return entry;
  };

  /** Applies an armed fault; true when it has answered (or deliberately never will). */
  const applyFault = async (fault: Fault, req: http.IncomingMessage, res: http.ServerResponse) => {
    const kind = fault.kind ?? (fault.status ? 'status' : 'hang');
    if (kind === 'delay') {
      await sleep(fault.delayMs ?? 1000);
      return false;
    }
    // 'invalid-json' is like a proxy's error page. (A 200 with such a body trips airtable.js: it
    // then throws an unhandled TypeError and never settles, which only the storage layer's bound ends.)
    if (kind === 'hang') {
      hung.add(res);
      res.on('close', () => hung.delete(res));
    } else if (kind === 'drop') req.socket.destroy();
    else if (kind === 'invalid-json')
      res.writeHead(fault.status ?? 502, { 'content-type': 'text/html' }).end('<html>Bad gateway</html>');
    else sendError(res, apiError(fault.status ?? 500, fault.type, fault.message));
    return true;
  };

  const serve = async (req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<void> => {
    const method = (req.method ?? 'GET').toUpperCase();
    const segments = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const [version, baseOrMeta, ...rest] = segments;
    const isMeta = baseOrMeta === 'meta';
    const table = isMeta ? rest[3] : rest[0];
    const entry = log(method, url, table, res);

    // Read the body first so a delayed write still lands after the client has given up.
    const body = method === 'GET' || method === 'DELETE' ? undefined : await readBody(req);
    const fault = takeFault(method, table, requestText(url, body));
    if (fault && (await applyFault(fault, req, res))) return;
    if (config.latencyMs > 0) await sleep(config.latencyMs);

    if (version !== 'v0' || !baseOrMeta) throw apiError(404);
    const token = tokens.find((candidate) => req.headers.authorization === `Bearer ${candidate.token}`);
    if (!token) throw apiError(401);
    const reads = method === 'GET' || (!isMeta && method === 'POST' && rest[1] === 'listRecords');
    if (!token.scopes.includes(`${isMeta ? 'schema.bases' : 'data.records'}:${reads ? 'read' : 'write'}`))
      throw apiError(403);
    if (!isMeta && baseOrMeta !== store.baseId) throw apiError(403);
    if (rateLimited()) throw apiError(429);
    const answer = route(store, method, isMeta, rest, url, body);
    // Applied, even when the client gave up before the answer (a 'delay' fault that lands late).
    entry.status = 200;
    sendJson(res, 200, answer);
  };

  /** Changes the limits and latency (invalid values are ignored); clears the rate-limit state. */
  const setConfig = (patch: Partial<ApiConfig>): ApiConfig => {
    for (const key of Object.keys(initialConfig) as (keyof ApiConfig)[]) {
      const value = patch[key];
      if (typeof value === 'number' && Number.isFinite(value) && value >= 0) config[key] = value;
    }
    recentHits = [];
    penaltyUntil = 0;
    return { ...config };
  };

  return {
    /** Serves one request under /v0/; an ApiError it throws is the caller's to answer. */
    serve,
    addFaults: (...added: Fault[]) => void faults.push(...added),
    clearFaults: () => void (faults = []),
    faults: (): Fault[] => structuredClone(faults),
    config: (): ApiConfig => ({ ...config }),
    setConfig,
    requests: (): LoggedRequest[] => [...requestLog],
    /** Back to the initial configuration, with no faults, log or rate-limit state. */
    reset() {
      faults = [];
      requestLog = [];
      setConfig(initialConfig);
    },
    /** Ends every hung answer (faults of kind 'hang'), so a server can close. */
    endHung: () => hung.forEach((res) => res.destroy()),
  };
}

export type RestApi = ReturnType<typeof createRestApi>;
