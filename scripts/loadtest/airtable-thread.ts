// A rush's Airtable stand-in in two threads: the chaos proxy (keeps the limit) and the emulator. In
// the visitors' main thread the emulator read the Worker's 210 ms-spaced requests in bunches; in one
// thread with the proxy, a lookup (100-email formula) made the proxy count late: 429s Airtable
// would not give (issue 49).
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { normaliseEmail } from '#src/lib/forms/submission.ts';
import { startEmulator } from '#scripts/airtable-emulator/emulator.ts';
import { startChaosProxy } from './chaos-proxy.ts';

export interface AirtableThreadOptions {
  rateLimitPerSecond: number;
  rateLimitPenaltyMs: number;
  errorRate: number;
  dropRate: number;
}

type StoredRow = { email: string; createdTime: string };

type Request =
  | { id: number; op: 'rows'; table: string }
  | { id: number; op: 'expect'; byTable: Record<string, string[]> }
  | { id: number; op: 'missing' }
  | { id: number; op: 'counts' }
  | { id: number; op: 'close' };

type Role = { role: 'emulator' } | { role: 'proxy'; upstream: string };

async function serve(options: AirtableThreadOptions, role: Role) {
  const port = parentPort;
  if (!port) return;
  if (role.role === 'proxy') {
    const proxy = await startChaosProxy({ upstream: role.upstream, ...options });
    port.on('message', (request: Request) => {
      if (request.op === 'counts') port.postMessage({ id: request.id, result: proxy.counts() });
      else
        void proxy.close().then(() => {
          port.postMessage({ id: request.id, result: null });
          port.close();
        });
    });
    port.postMessage({ id: 0, result: { url: proxy.url } });
    return;
  }
  const emulator = await startEmulator({ port: 0, rateLimitPerSecond: 0 });
  // Each stored email normalised once (the count runs every second over thousands of records).
  const normalised = new Map<string, string>();
  const rows = (table: string): StoredRow[] =>
    emulator.records(table).map(({ fields, createdTime }) => {
      const email = String(fields.Email ?? '');
      if (!normalised.has(email)) normalised.set(email, normaliseEmail(email));
      return { email: normalised.get(email) ?? email, createdTime };
    });
  let expected: Record<string, string[]> = {};
  const missing = () =>
    Object.entries(expected).reduce((sum, [table, emails]) => {
      const have = new Set(rows(table).map((row) => row.email));
      return sum + emails.filter((email) => !have.has(email)).length;
    }, 0);
  port.on('message', (request: Request) => {
    const answer = (result: unknown) => port.postMessage({ id: request.id, result });
    if (request.op === 'rows') answer(rows(request.table));
    else if (request.op === 'expect') answer((expected = request.byTable) && null);
    else if (request.op === 'missing') answer(missing());
    else
      void emulator.close().then(() => {
        answer(null);
        port.close();
      });
  });
  port.postMessage({
    id: 0,
    result: { url: emulator.url, apiKey: emulator.apiKey, baseId: emulator.baseId },
  });
}

type Booted = { airtableThread: AirtableThreadOptions & Role };
if (!isMainThread && (workerData as Booted | null)?.airtableThread) {
  const { airtableThread } = workerData as Booted;
  void serve(airtableThread, airtableThread);
}

async function startThread<Started>(options: AirtableThreadOptions & Role) {
  const thread = new Worker(new URL('./thread-boot.mjs', import.meta.url), {
    workerData: { module: import.meta.url, airtableThread: options },
  });
  const waiting = new Map<number, (result: unknown) => void>();
  thread.on('message', ({ id, result }: { id: number; result: unknown }) => {
    waiting.get(id)?.(result);
    waiting.delete(id);
  });
  let failed: unknown;
  thread.on('error', (error) => {
    failed = error;
  });
  let next = 1;
  const ask = <T>(request: Record<string, unknown> & { op: Request['op'] }) =>
    new Promise<T>((resolve, reject) => {
      if (failed) return reject(failed as Error);
      const id = next++;
      waiting.set(id, resolve as (result: unknown) => void);
      thread.postMessage({ ...request, id });
    });
  const started = await new Promise<Started>((resolve, reject) => {
    waiting.set(0, resolve as (result: unknown) => void);
    thread.once('error', reject);
  });
  const close = async () => {
    await ask<null>({ op: 'close' }).catch(() => undefined);
    await thread.terminate();
  };
  return { started, ask, close };
}

/** Its `url` is the proxy's. */
export async function startAirtableThread(options: AirtableThreadOptions) {
  const emulator = await startThread<{ url: string; apiKey: string; baseId: string }>({
    ...options,
    role: 'emulator',
  });
  const proxy = await startThread<{ url: string }>({
    ...options,
    role: 'proxy',
    upstream: emulator.started.url,
  });
  return {
    url: proxy.started.url,
    apiKey: emulator.started.apiKey,
    baseId: emulator.started.baseId,
    rows: (table: string) => emulator.ask<StoredRow[]>({ op: 'rows', table }),
    /** The emails each table should hold, for `missing`. */
    expect: (byTable: Record<string, string[]>) => emulator.ask<null>({ op: 'expect', byTable }),
    missing: () => emulator.ask<number>({ op: 'missing' }),
    counts: () =>
      proxy.ask<ReturnType<Awaited<ReturnType<typeof startChaosProxy>>['counts']>>({ op: 'counts' }),
    close: async () => {
      await proxy.close();
      await emulator.close();
    },
  };
}
