/**
 * The Airtable stand-in of a rush (the emulator and, in front of it, the chaos proxy) in a thread
 * of its own. Airtable counts requests as they arrive; the emulator can only count them when its
 * event loop reads them, and in the load test's main thread, busy with thousands of visitors, it
 * read requests the Worker had spaced 210 ms apart in bunches (a 429 where Airtable would see
 * none). Here only Airtable's traffic shares its loop. The main thread asks it what is stored.
 */
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

interface StoredRow {
  email: string;
  createdTime: string;
}

type Request =
  | { id: number; op: 'rows'; table: string }
  | { id: number; op: 'expect'; byTable: Record<string, string[]> }
  | { id: number; op: 'missing' }
  | { id: number; op: 'counts' }
  | { id: number; op: 'close' };

async function serve(options: AirtableThreadOptions) {
  const port = parentPort;
  if (!port) return;
  const emulator = await startEmulator({
    port: 0,
    rateLimitPerSecond: options.rateLimitPerSecond,
    rateLimitPenaltyMs: options.rateLimitPenaltyMs,
  });
  const proxy = await startChaosProxy({
    upstream: emulator.url,
    errorRate: options.errorRate,
    dropRate: options.dropRate,
  });
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
    else if (request.op === 'counts') answer(proxy.counts());
    else
      void Promise.all([proxy.close(), emulator.close()]).then(() => {
        answer(null);
        port.close();
      });
  });
  port.postMessage({
    id: 0,
    result: { url: proxy.url, apiKey: emulator.apiKey, baseId: emulator.baseId },
  });
}

if (!isMainThread && (workerData as { airtableThread?: AirtableThreadOptions } | null)?.airtableThread)
  void serve((workerData as { airtableThread: AirtableThreadOptions }).airtableThread);

/** Starts the stand-in's thread; its `url` is the proxy's (the one the Worker and the pages use). */
export async function startAirtableThread(options: AirtableThreadOptions) {
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
  const started = await new Promise<{ url: string; apiKey: string; baseId: string }>((resolve, reject) => {
    waiting.set(0, resolve as (result: unknown) => void);
    thread.once('error', reject);
  });
  return {
    ...started,
    /** Each stored record's normalised email and createdTime. */
    rows: (table: string) => ask<StoredRow[]>({ op: 'rows', table }),
    /** The emails each table should hold, for `missing`. */
    expect: (byTable: Record<string, string[]>) => ask<null>({ op: 'expect', byTable }),
    missing: () => ask<number>({ op: 'missing' }),
    counts: () => ask<ReturnType<Awaited<ReturnType<typeof startChaosProxy>>['counts']>>({ op: 'counts' }),
    close: async () => {
      await ask<null>({ op: 'close' }).catch(() => undefined);
      await thread.terminate();
    },
  };
}
