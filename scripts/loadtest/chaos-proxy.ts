/**
 * A loopback proxy in front of the emulator that plays Airtable's bad days: it counts every API
 * request and its answer ("Airtable requests", "429s"), and turns a chosen share of answers into
 * 500s (not applied) or dropped connections (applied, then the socket cut: the worst case for duplicates).
 * With `rateLimitPerSecond`, it is where Airtable's limit is kept: each request is counted the moment
 * it arrives, as Airtable counts, and never later because the emulator behind it, in another thread,
 * was busy answering a lookup (it then counted a request 70 ms late and met six in its second).
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
  /** Airtable's limit, kept here (0 or none: the upstream's own, if any). */
  rateLimitPerSecond?: number;
  /** After a breach, every request is answered 429 this long. */
  rateLimitPenaltyMs?: number;
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
  // The API requests of the last two seconds (when each came, ms since epoch, and what it asked),
  // and a copy of them when the first 429 came back: what the emulator counted.
  const lately: { at: number; what: string }[] = [];
  let before429: { at: number; what: string }[] | undefined;
  const count = (status: number | string) => {
    counts.byStatus[status] = (counts.byStatus[status] ?? 0) + 1;
  };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  // The limit as the emulator keeps it (rest-api.ts): rejected requests are not counted.
  let hits: number[] = [];
  let penaltyUntil = 0;
  const rateLimited = (now: number) => {
    const limit = options.rateLimitPerSecond ?? 0;
    if (limit <= 0) return false;
    if (now < penaltyUntil) return true;
    hits = hits.filter((at) => now - at < 1000);
    if (hits.length >= limit) {
      penaltyUntil = now + (options.rateLimitPenaltyMs ?? 0);
      return true;
    }
    hits.push(now);
    return false;
  };

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
        lately.push({
          at: now,
          what: `${req.method} ${decodeURIComponent(req.url ?? '')
            .split('/')
            .slice(3)
            .join('/')}`,
        });
        while ((lately[0]?.at ?? now) <= now - 2000) lately.shift();
      }
      if (isApi && rateLimited(Date.now())) {
        count(429);
        before429 ??= [...lately];
        req.resume();
        res.writeHead(429, { 'content-type': 'application/json' });
        const message = 'Rate limit exceeded. Please try again later';
        res.end(JSON.stringify({ errors: [{ error: 'RATE_LIMIT_REACHED', message }] }));
        return;
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
        if (isApi && answer.statusCode === 429) before429 ??= [...lately];
        if (drop) {
          answer.resume();
          answer.on('end', () => req.socket.destroy());
        }
        return drop;
      });
    },
    () => [agent],
  );
  return { ...server, counts: () => structuredClone({ ...counts, before429 }) };
}
