/** /__emulator: a page of what the forms stored and a JSON API for tests (seed, faults, limits, log). */
import type http from 'node:http';
import { escapeHtml } from '#src/lib/page-templates.ts';
import { isMailMessage } from '#src/server/mail/message.ts';
import { hostNameOf, isLoopbackAddress, isLoopbackHost } from '#scripts/loopback.ts';
import { type OutboxMessage, outboxMailer, readOutbox } from './outbox.ts';
import { apiError, isObject, readBody, sendJson } from './http.ts';
import type { StoredRecord } from './base-schema.ts';
import type { ApiConfig, Fault, RestApi } from './rest-api.ts';
import type { BaseStore } from './store.ts';

export const EMULATOR_ADMIN_PREFIX = '/__emulator';

export const ADMIN_HELP = `Admin API under ${EMULATOR_ADMIN_PREFIX}:
  GET  / (the records and outbox page), /health, /records, /records/:table, /requests, /outbox
  POST /records/:table { fields, createdTime? }, /reset, /outbox (a mail message: writes one .eml)
  GET|POST|DELETE /faults (POST Fault | Fault[]), GET|POST /config (POST ApiConfig)
It answers loopback clients on loopback hosts only, and takes changes only from its own origin or from tools
that send no Origin (tests, curl).`;

/** A plain page listing what has been stored, newest first, one table per base table, and the outbox. */
export function renderRecordsPage(
  tables: Readonly<Record<string, readonly StoredRecord[]>>,
  columnsByTable: Readonly<Record<string, readonly string[]>>,
  baseId: string,
  outbox: readonly OutboxMessage[] = [],
): string {
  // Every link as a link, so a developer walks the email journeys in `npm run dev` with no mail account.
  const mail = [...outbox].reverse().map((message) => {
    const links = message.links
      .map((link) => `<li><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></li>`)
      .join('');
    return `<li><p><strong>${escapeHtml(message.headers.subject ?? '')}</strong><br>To ${escapeHtml(message.headers.to ?? '')} · ${escapeHtml(message.headers.date ?? '')}</p><pre>${escapeHtml(message.text)}</pre><ul>${links}</ul></li>`;
  });
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
</head><body><h1>Local Airtable emulator: base ${escapeHtml(baseId)}</h1>${sections.join('')}<h2>Outbox (${outbox.length})</h2><ol class="outbox">${mail.join('')}</ol></body></html>`;
}

type AdminRequest = Pick<http.IncomingMessage, 'headers' | 'method'> & {
  socket?: { remoteAddress?: string; encrypted?: boolean };
};

export function ownOrigin(req: AdminRequest): string {
  return `${req.socket?.encrypted === true ? 'https' : 'http'}://${req.headers.host ?? ''}`;
}

/** True for a request from a page on another origin (a foreign Origin, or Sec-Fetch-Site says so). */
export function fromOtherOrigin(req: AdminRequest): boolean {
  const origin = req.headers.origin;
  return (
    (origin !== undefined && origin !== ownOrigin(req)) || req.headers['sec-fetch-site'] === 'cross-site'
  );
}

/**
 * Why an admin request is refused, or null: a non-loopback socket (`vite --host` lets other machines
 * in); a Host neither loopback nor allowed (DNS rebinding); a change (preflights too) from another
 * origin, whose reads get no CORS grant. Requests without Origin (tests, curl) pass.
 */
export function adminRequestProblem(req: AdminRequest, allowedHosts: readonly string[] = []): string | null {
  if (!isLoopbackAddress(req.socket?.remoteAddress))
    return "The emulator's admin API answers this machine's own clients only";
  if (!isLoopbackHost(req.headers.host, allowedHosts))
    return `The emulator's admin API answers on loopback addresses only, not ${hostNameOf(req.headers.host) || 'an unnamed host'}`;
  if (fromOtherOrigin(req) && !['GET', 'HEAD'].includes((req.method ?? 'GET').toUpperCase()))
    return "The emulator's admin API takes changes only from its own origin";
  return null;
}

/** Faults from a POST body: one fault or a list; what is not an object is ignored. */
export function faultsFrom(body: unknown): Fault[] {
  return (Array.isArray(body) ? body : [body]).filter(isObject) as Fault[];
}

interface AdminOptions {
  store: BaseStore;
  api: RestApi;
  reset: () => void;
  /** MAIL_OUTBOX_DIR, if the site writes one. */
  outboxDir?: string;
}

/** Serves one request under EMULATOR_ADMIN_PREFIX; an ApiError it throws is the caller's to answer. */
export async function handleAdmin(
  { store, api, reset, outboxDir }: AdminOptions,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  url: URL,
): Promise<void> {
  const method = (req.method ?? 'GET').toUpperCase();
  const route = `${method} ${url.pathname.slice(EMULATOR_ADMIN_PREFIX.length).replace(/\/+$/, '') || '/'}`;
  const body = method === 'POST' ? await readBody(req) : undefined;
  const given = isObject(body) ? body : {};
  const outbox = async () => (outboxDir ? await readOutbox(outboxDir) : []);
  if (route === 'GET /') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(renderRecordsPage(store.allRecords(), store.columns(), store.baseId, await outbox()));
    return;
  }
  const answer = async (): Promise<unknown> => {
    const table = /^(?:GET|POST) \/records\/(.+)$/.exec(route)?.[1];
    if (table !== undefined && method === 'GET') return { records: store.records(decodeURIComponent(table)) };
    if (table !== undefined) {
      const createdTime = typeof given.createdTime === 'string' ? given.createdTime : undefined;
      return store.seed(decodeURIComponent(table), isObject(given.fields) ? given.fields : {}, createdTime);
    }
    switch (route) {
      case 'GET /health':
        return { ok: true, baseId: store.baseId, config: api.config() };
      case 'GET /records':
        return { tables: store.allRecords() };
      case 'GET /requests':
        return { requests: api.requests() };
      case 'GET /outbox':
        return { messages: await outbox() };
      // The Worker's mail in local runs (MAIL_OUTBOX_URL).
      case 'POST /outbox':
        if (!outboxDir) throw apiError(404, 'NOT_FOUND', 'No outbox here');
        if (!isMailMessage(body)) throw apiError(422, 'INVALID_REQUEST', 'Not a mail message');
        return outboxMailer(outboxDir).send(body);
      case 'POST /reset':
        reset();
        return { ok: true };
      case 'POST /faults':
        api.addFaults(...faultsFrom(body));
        return { faults: api.faults() };
      case 'DELETE /faults':
        api.clearFaults();
        return { faults: [] };
      case 'GET /faults':
        return { faults: api.faults() };
      case 'POST /config':
        return api.setConfig(given as Partial<ApiConfig>);
      case 'GET /config':
        return api.config();
    }
    throw apiError(404, 'NOT_FOUND', ADMIN_HELP);
  };
  sendJson(res, 200, await answer());
}
