/**
 * The emulator's admin side under /__emulator: a page listing what the forms stored (for
 * `npm run dev` users) and a JSON API for tests to seed records, arm faults, change limits
 * and read the request log.
 */
import type http from 'node:http';
import { isObject, readBody, sendJson } from './http.ts';
import type { StoredRecord } from './model.ts';
import type { ApiConfig, Fault, RestApi } from './rest-api.ts';
import type { BaseStore } from './store.ts';

export const EMULATOR_ADMIN_PREFIX = '/__emulator';

export const ADMIN_HELP = [
  'Admin API:',
  `GET ${EMULATOR_ADMIN_PREFIX}/ (HTML list of stored records)`,
  `GET ${EMULATOR_ADMIN_PREFIX}/health`,
  `GET ${EMULATOR_ADMIN_PREFIX}/records → { tables: { [table]: Record[] } }`,
  `GET ${EMULATOR_ADMIN_PREFIX}/records/:table → { records: Record[] }`,
  `POST ${EMULATOR_ADMIN_PREFIX}/records/:table { fields } → Record`,
  `POST ${EMULATOR_ADMIN_PREFIX}/reset → { ok: true }`,
  `GET|POST|DELETE ${EMULATOR_ADMIN_PREFIX}/faults (POST Fault | Fault[] | { faults }) → { faults }`,
  `GET|POST ${EMULATOR_ADMIN_PREFIX}/config (POST { rateLimitPerSecond?, rateLimitPenaltyMs?, latencyMs? }) → config`,
  `GET ${EMULATOR_ADMIN_PREFIX}/requests → { requests: { at, method, path, table?, status }[] }`,
].join('\n');

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A plain page listing what has been stored, newest first, one table per base table. */
export function renderRecordsPage(
  tables: Readonly<Record<string, readonly StoredRecord[]>>,
  columnsByTable: Readonly<Record<string, readonly string[]>>,
  baseId: string,
): string {
  const sections = Object.entries(tables).map(([name, records]) => {
    const columns = columnsByTable[name] ?? [];
    const cell = (record: StoredRecord, column: string) => {
      const value = record.fields[column];
      return `<td>${escapeHtml(Array.isArray(value) ? value.join(', ') : (value ?? ''))}</td>`;
    };
    const rows = [...records]
      .reverse()
      .map((record) => `<tr>${columns.map((column) => cell(record, column)).join('')}</tr>`)
      .join('');
    const head = columns.map((column) => `<th scope="col">${escapeHtml(column)}</th>`).join('');
    return `<h2>${escapeHtml(name)} (${records.length})</h2><table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
  });
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Airtable emulator: ${escapeHtml(baseId)}</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem}table{border-collapse:collapse;margin-bottom:2rem}th,td{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}</style>
</head><body><h1>Local Airtable emulator: base ${escapeHtml(baseId)}</h1>${sections.join('')}</body></html>`;
}

/** Faults from a POST body: one fault, a list, or { faults: [...] }. */
export function faultsFrom(body: unknown): Fault[] {
  const list: unknown[] = Array.isArray(body)
    ? body
    : isObject(body) && Array.isArray(body.faults)
      ? body.faults
      : [body];
  return list.filter(isObject) as Fault[];
}

export interface AdminOptions {
  store: BaseStore;
  api: RestApi;
  /** Empties the whole emulator: records, schema, faults, log, config. */
  reset: () => void;
}

/** Serves one request under EMULATOR_ADMIN_PREFIX. */
export async function handleAdmin(
  { store, api, reset }: AdminOptions,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  url: URL,
): Promise<void> {
  const method = (req.method ?? 'GET').toUpperCase();
  const route = url.pathname.slice(EMULATOR_ADMIN_PREFIX.length).replace(/\/+$/, '') || '/';
  const body = method === 'POST' ? await readBody(req) : undefined;
  const recordsMatch = /^\/records\/(.+)$/.exec(route);

  if (method === 'GET' && route === '/') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(renderRecordsPage(store.allRecords(), store.columns(), store.baseId));
    return;
  }
  if (method === 'GET' && route === '/health') {
    return sendJson(res, 200, { ok: true, baseId: store.baseId, config: api.config() });
  }
  if (method === 'GET' && route === '/records') return sendJson(res, 200, { tables: store.allRecords() });
  if (recordsMatch) {
    const table = decodeURIComponent(recordsMatch[1] as string);
    if (method === 'GET') return sendJson(res, 200, { records: store.records(table) });
    if (method === 'POST') {
      const fields = isObject(body) && isObject(body.fields) ? body.fields : {};
      return sendJson(res, 200, store.seed(table, fields));
    }
  }
  if (method === 'POST' && route === '/reset') {
    reset();
    return sendJson(res, 200, { ok: true });
  }
  if (route === '/faults') {
    if (method === 'POST') api.addFaults(...faultsFrom(body));
    if (method === 'DELETE') api.clearFaults();
    return sendJson(res, 200, { faults: api.faults() });
  }
  if (route === '/config') {
    if (method === 'POST') api.setConfig((isObject(body) ? body : {}) as Partial<ApiConfig>);
    return sendJson(res, 200, api.config());
  }
  if (method === 'GET' && route === '/requests') return sendJson(res, 200, { requests: api.requests() });
  return sendJson(res, 404, { error: { type: 'NOT_FOUND', message: ADMIN_HELP } });
}
