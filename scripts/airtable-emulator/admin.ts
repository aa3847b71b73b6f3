/**
 * The emulator's admin side under /__emulator: a page listing what the forms stored (for
 * `npm run dev` users) and a JSON API for tests to seed records, arm faults, change limits
 * and read the request log.
 */
import type http from 'node:http';
import { escapeHtml } from '#src/lib/page-templates.ts';
import { isMailMessage } from '#src/server/mail.ts';
import { type OutboxMessage, outboxMailer, readOutbox } from './outbox.ts';
import { isObject, readBody, sendJson } from './http.ts';
import type { StoredRecord } from './base-schema.ts';
import type { ApiConfig, Fault, RestApi } from './rest-api.ts';
import type { BaseStore } from './store.ts';

export const EMULATOR_ADMIN_PREFIX = '/__emulator';

export const ADMIN_HELP = [
  'Admin API:',
  `GET ${EMULATOR_ADMIN_PREFIX}/ (HTML list of stored records)`,
  `GET ${EMULATOR_ADMIN_PREFIX}/health`,
  `GET ${EMULATOR_ADMIN_PREFIX}/records → { tables: { [table]: Record[] } }`,
  `GET ${EMULATOR_ADMIN_PREFIX}/records/:table → { records: Record[] }`,
  `POST ${EMULATOR_ADMIN_PREFIX}/records/:table { fields, createdTime? } → Record`,
  `POST ${EMULATOR_ADMIN_PREFIX}/reset → { ok: true }`,
  `GET|POST|DELETE ${EMULATOR_ADMIN_PREFIX}/faults (POST Fault | Fault[] | { faults }) → { faults }`,
  `GET|POST ${EMULATOR_ADMIN_PREFIX}/config (POST { rateLimitPerSecond?, rateLimitPenaltyMs?, latencyMs? }) → config`,
  `GET ${EMULATOR_ADMIN_PREFIX}/requests → { requests: { at, method, path, table?, status }[] }`,
  `GET ${EMULATOR_ADMIN_PREFIX}/outbox → { messages: { file, headers, text, html, links }[] } (the local mail outbox)`,
  `POST ${EMULATOR_ADMIN_PREFIX}/outbox { to, subject, text, html, … } → writes one .eml (the Worker's local mail)`,
  'It answers on loopback hosts only, grants CORS to its own origin only, and takes changes only',
  'from its own origin or from tools that send no Origin (tests, curl).',
].join('\n');

/**
 * The local outbox, newest first: who, what, and every link as a link, so a developer walks the
 * email journeys (confirm, change, unsubscribe) in `npm run dev` with no mail account.
 */
export function renderOutbox(messages: readonly OutboxMessage[]): string {
  const items = [...messages]
    .reverse()
    .map((message) => {
      const links = message.links
        .map((link) => `<li><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></li>`)
        .join('');
      return `<li><p><strong>${escapeHtml(message.headers.subject ?? '')}</strong><br>To ${escapeHtml(message.headers.to ?? '')} · ${escapeHtml(message.headers.date ?? '')}</p><pre>${escapeHtml(message.text)}</pre><ul>${links}</ul></li>`;
    })
    .join('');
  return `<h2>Outbox (${messages.length})</h2><ol class="outbox">${items}</ol>`;
}

/** A plain page listing what has been stored, newest first, one table per base table, and the outbox. */
export function renderRecordsPage(
  tables: Readonly<Record<string, readonly StoredRecord[]>>,
  columnsByTable: Readonly<Record<string, readonly string[]>>,
  baseId: string,
  outbox: readonly OutboxMessage[] = [],
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
<style>body{font:14px system-ui,sans-serif;margin:2rem}pre{white-space:pre-wrap;background:#f6f6f6;padding:.5rem}table{border-collapse:collapse;margin-bottom:2rem}th,td{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}</style>
</head><body><h1>Local Airtable emulator: base ${escapeHtml(baseId)}</h1>${sections.join('')}${renderOutbox(outbox)}</body></html>`;
}

const LOOPBACK_HOST = /^(localhost|[^.]+\.localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1)$/i;
const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** The host name of a Host header (without the port; an IPv6 literal keeps its brackets). */
function hostNameOf(host: string): string {
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : (host.split(':')[0] ?? '');
}

/** The parts of a request the checks read (a TLS socket has `encrypted`). */
type AdminRequest = Pick<http.IncomingMessage, 'headers' | 'method'> & { socket?: object };

/** The emulator's own origin as the request names it (scheme and Host). */
export function ownOrigin(req: AdminRequest): string {
  const encrypted = (req.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
  return `${encrypted ? 'https' : 'http'}://${req.headers.host ?? ''}`;
}

/**
 * Why an admin request is refused, or null. The admin API is for the developer's own tools and
 * for pages on its own origin (the records page):
 *
 * - the Host must be a loopback name or one of `allowedHosts` (a DNS-rebinding page names its
 *   own domain, so it is refused);
 * - from a foreign `Origin` (or with `Sec-Fetch-Site: cross-site`), anything but a read is
 *   refused, preflights included; a read is answered without a CORS grant (the emulator grants
 *   its own origin only), so the browser keeps the answer from that page.
 *
 * Requests without Origin (the tests' fetch, curl, Playwright's request context) are allowed.
 */
export function adminRequestProblem(req: AdminRequest, allowedHosts: readonly string[] = []): string | null {
  const name = hostNameOf(req.headers.host ?? '').toLowerCase();
  if (!LOOPBACK_HOST.test(name) && !allowedHosts.some((allowed) => allowed.toLowerCase() === name))
    return `The emulator's admin API answers on loopback addresses only, not ${name || 'an unnamed host'}`;
  const origin = req.headers.origin;
  const foreign =
    (origin !== undefined && origin !== ownOrigin(req)) || req.headers['sec-fetch-site'] === 'cross-site';
  if (foreign && !SAFE_METHODS.has((req.method ?? 'GET').toUpperCase()))
    return "The emulator's admin API takes changes only from its own origin";
  return null;
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
  /** The local mail outbox to list (MAIL_OUTBOX_DIR), if the site writes one. */
  outboxDir?: string;
}

/** Serves one request under EMULATOR_ADMIN_PREFIX. */
export async function handleAdmin(
  { store, api, reset, outboxDir }: AdminOptions,
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
    const outbox = outboxDir ? await readOutbox(outboxDir) : [];
    res.end(renderRecordsPage(store.allRecords(), store.columns(), store.baseId, outbox));
    return;
  }
  if (method === 'GET' && route === '/outbox') {
    return sendJson(res, 200, { messages: outboxDir ? await readOutbox(outboxDir) : [] });
  }
  // The Worker's mail in local runs (MAIL_OUTBOX_URL): one message, written as one .eml file.
  if (method === 'POST' && route === '/outbox') {
    if (!outboxDir) return sendJson(res, 404, { error: { type: 'NOT_FOUND', message: 'No outbox here' } });
    if (!isMailMessage(body))
      return sendJson(res, 422, { error: { type: 'INVALID_REQUEST', message: 'Not a mail message' } });
    return sendJson(res, 200, await outboxMailer(outboxDir).send(body));
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
      const createdTime =
        isObject(body) && typeof body.createdTime === 'string' ? body.createdTime : undefined;
      return sendJson(res, 200, store.seed(table, fields, createdTime));
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
