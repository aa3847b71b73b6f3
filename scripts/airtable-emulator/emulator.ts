/**
 * The slice of Airtable's APIs the site and the owner's commands use (README.md); nothing under src/
 * imports it. `createEmulator` is a handler for `/v0/…` and `/__emulator…` (Vite's servers mount
 * it); `startEmulator` serves it on its own loopback port. docs/emulator.md lists its modules.
 */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  adminRequestProblem,
  EMULATOR_ADMIN_PREFIX,
  fromOtherOrigin,
  handleAdmin,
  ownOrigin,
} from './admin.ts';
import { ApiError, apiError, sendError } from './http.ts';
import { ALL_SCOPES, type EmulatorToken } from './base-schema.ts';
import { createRestApi } from './rest-api.ts';
import { localServer } from '#scripts/loopback.ts';
import { BaseStore, type InitialSchema } from './store.ts';

export { EMULATOR_ADMIN_PREFIX } from './admin.ts';
export type { Fault, LoggedRequest } from './rest-api.ts';
export type { TableInput } from './base-schema.ts';
export type { InitialSchema } from './store.ts';
export { siteBaseSchema } from './base-schema.ts';

/** Fixed local credentials: not secrets, they only open this loopback emulator. */
export const EMULATOR_API_KEY = 'patLocalEmulatorKey.dev';
export const EMULATOR_BASE_ID = 'appLocalEmulator01';
const EMULATOR_HOST = '127.0.0.1';
export const EMULATOR_DEFAULT_PORT = 8787;
export const EMULATOR_DEFAULT_DATA_FILE = '.data/airtable.json';
/** Airtable's documented limit: 5 requests per second per base. */
export const AIRTABLE_RATE_LIMIT_PER_SECOND = 5;

const API_PREFIX = '/v0/';
const CORS_ALLOWED_HEADERS =
  'authorization, content-type, x-airtable-application-id, x-airtable-user-agent, x-api-version';

export interface EmulatorOptions {
  /** The token with every scope (default EMULATOR_API_KEY). */
  apiKey?: string;
  /** More tokens, each with its own scopes (e.g. a site token without schema access). */
  tokens?: readonly EmulatorToken[];
  baseId?: string;
  /** JSON file the base is kept in; none keeps it in memory. */
  dataFile?: string;
  schema?: InitialSchema;
  rateLimitPerSecond?: number;
  rateLimitPenaltyMs?: number;
  latencyMs?: number;
  log?: (line: string) => void;
  /** Host names besides loopback ones the admin API answers under (others: DNS rebinding). */
  allowedHosts?: readonly string[];
  /**
   * The v0 API's cross-origin pages: 'any' (as Airtable; direct mode calls it from the page), or
   * 'own' on the site's server, so no other localhost page reads submissions with the fixed key.
   */
  apiOrigins?: 'any' | 'own';
  /** The site's local mail outbox (MAIL_OUTBOX_DIR), listed on the admin page and at /__emulator/outbox. */
  outboxDir?: string;
}

export interface ListenOptions extends EmulatorOptions {
  /** 0 picks a free port (tests). */
  port?: number;
  host?: string;
}

function isAdminPath(pathname: string): boolean {
  return pathname === EMULATOR_ADMIN_PREFIX || pathname.startsWith(`${EMULATOR_ADMIN_PREFIX}/`);
}

/** The emulator as a request handler, to mount on any Node HTTP server or middleware stack. */
export function createEmulator(options: EmulatorOptions = {}) {
  const apiKey = options.apiKey ?? EMULATOR_API_KEY;
  const baseId = options.baseId ?? EMULATOR_BASE_ID;
  const log = options.log ?? (() => undefined);
  const store = new BaseStore({ baseId, dataFile: options.dataFile, schema: options.schema });
  const api = createRestApi(store, [{ token: apiKey, scopes: ALL_SCOPES }, ...(options.tokens ?? [])], {
    rateLimitPerSecond: options.rateLimitPerSecond ?? AIRTABLE_RATE_LIMIT_PER_SECOND,
    rateLimitPenaltyMs: options.rateLimitPenaltyMs ?? 0,
    latencyMs: options.latencyMs ?? 0,
  });
  const reset = () => {
    store.reset();
    api.reset();
  };
  const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://emulator.invalid');
    const admin = isAdminPath(url.pathname);
    const origin = req.headers.origin;
    res.setHeader('vary', 'Origin');
    // The admin API grants CORS to its own origin only: other pages cannot read records or change state.
    const problem = admin
      ? adminRequestProblem(req, options.allowedHosts)
      : options.apiOrigins === 'own' && fromOtherOrigin(req)
        ? "The emulator's API answers pages on its own origin only"
        : null;
    if (problem) return sendError(res, apiError(403, 'FORBIDDEN', problem));
    if (!admin) {
      // Like Airtable's: airtable.js in the page (direct mode) preflights every request.
      res.setHeader('access-control-allow-origin', origin ?? '*');
      res.setHeader('access-control-allow-methods', 'GET, POST, PATCH, DELETE, OPTIONS');
      res.setHeader('access-control-allow-headers', CORS_ALLOWED_HEADERS);
      res.setHeader('access-control-max-age', '600');
    } else if (origin === ownOrigin(req)) res.setHeader('access-control-allow-origin', origin);
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    const served = admin
      ? handleAdmin({ store, api, reset, outboxDir: options.outboxDir }, req, res, url)
      : api.serve(req, res, url);
    served.catch((error: unknown) => {
      if (error instanceof ApiError) return sendError(res, error);
      log(`airtable-emulator: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      sendError(res, apiError(500));
    });
  };

  return {
    apiKey,
    baseId,
    /** True for the paths the emulator serves: `/v0/…` and `/__emulator…`. */
    handles: (pathname: string) => pathname.startsWith(API_PREFIX) || isAdminPath(pathname),
    handle,
    /** Empties records, restores the initial schema, and clears faults, log and config. */
    reset,
    records: (table: string) => store.records(table),
    seed: store.seed.bind(store),
    addFaults: api.addFaults,
    setConfig: api.setConfig,
    requests: api.requests,
    /** Ends hung answers so the server holding them can close. */
    close: async () => api.endHung(),
  };
}

export type Emulator = ReturnType<typeof createEmulator>;

export type RunningEmulator = Awaited<ReturnType<typeof startEmulator>>;

/** Starts the emulator on its own port; resolves once it listens. */
export async function startEmulator(options: ListenOptions = {}) {
  const host = options.host ?? EMULATOR_HOST;
  const allowedHosts = [host, ...(options.allowedHosts ?? [])];
  const emulator = createEmulator({ ...options, allowedHosts });
  // Its API too refuses another site's name for this machine (DNS rebinding) and another site's changes.
  const server = localServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://emulator.invalid').pathname;
    if (emulator.handles(pathname)) emulator.handle(req, res);
    else sendError(res, apiError(404));
  }, allowedHosts);
  server.listen(options.port ?? 0, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    ...emulator,
    url: `http://${host}:${port}`,
    port,
    close: async () => {
      await emulator.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
