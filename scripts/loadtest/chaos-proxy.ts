/**
 * A loopback proxy in front of the emulator that plays Airtable's bad days: it counts every API
 * request and its answer ("Airtable requests", "429s"), and turns a chosen share of answers into
 * 500s (not applied) or dropped connections (applied, then the socket cut: the worst case for duplicates).
 */
import http from 'node:http';
import { onLoopback } from '#scripts/loopback.ts';
import { forward } from './client-spread.ts';

export interface ChaosOptions {
  /** Where requests go (the emulator's origin). */
  upstream: string;
  /** Share of API requests answered 500 without reaching the upstream (0–1). */
  errorRate?: number;
  /** Share of API requests applied upstream whose answer is then dropped (0–1). */
  dropRate?: number;
}

export async function startChaosProxy(options: ChaosOptions) {
  // peakPerSecond: most API requests that started within any one second; firstAt and lastAt: when
  // the first and the last API request came (ms since epoch; 0 before any).
  const counts = {
    requests: 0,
    byStatus: {} as Record<string, number>,
    peakPerSecond: 0,
    firstAt: 0,
    lastAt: 0,
  };
  const recent: number[] = [];
  const count = (status: number | string) => {
    counts.byStatus[status] = (counts.byStatus[status] ?? 0) + 1;
  };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

  const server = await onLoopback(
    (req, res) => {
      const isApi = (req.url ?? '').startsWith('/v0/');
      if (isApi) {
        counts.requests += 1;
        const now = Date.now();
        counts.firstAt ||= now;
        counts.lastAt = now;
        recent.push(now);
        while ((recent[0] ?? now) <= now - 1000) recent.shift();
        counts.peakPerSecond = Math.max(counts.peakPerSecond, recent.length);
      }
      const roll = isApi ? Math.random() : 1;
      if (roll < (options.errorRate ?? 0)) {
        count(500);
        req.resume();
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'SERVER_ERROR', message: 'Injected by the load test' } }));
        return;
      }
      const drop = roll < (options.errorRate ?? 0) + (options.dropRate ?? 0);
      forward(req, res, new URL(req.url ?? '/', options.upstream), agent, (answer) => {
        if (isApi) count(drop ? 'dropped' : (answer.statusCode ?? 0));
        if (drop) {
          answer.resume();
          answer.on('end', () => req.socket.destroy());
        }
        return drop;
      });
    },
    () => [agent],
  );
  return { ...server, counts: () => structuredClone(counts) };
}
