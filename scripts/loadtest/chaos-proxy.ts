// Airtable's bad days in front of the emulator: counts every API request and answer, turns a share
// into 500s (not applied) or dropped connections (applied, then cut: the worst case for duplicates),
// and keeps Airtable's limit as it arrives (the emulator, busy with a lookup, counted 70 ms late).
import http from 'node:http';
import { onLoopback } from '#scripts/loopback.ts';
import { AIRTABLE_REQUESTS_PER_SECOND, GAP_MARGIN, RATE_WINDOW_MS } from '#src/server/airtable/pacer.ts';

/** The pacer's span: never more than AIRTABLE_REQUESTS_PER_SECOND departures within it (1,050 ms). */
export const DEPARTURE_SPAN_MS = RATE_WINDOW_MS * GAP_MARGIN;
import { forward } from './client-spread.ts';

export interface ChaosOptions {
  upstream: string;
  errorRate?: number;
  dropRate?: number;
  /** 0 or none: the upstream's own limit, if any. */
  rateLimitPerSecond?: number;
  rateLimitPenaltyMs?: number;
}

/**
 * How close a run came to a 429, from the arrival times: the shortest time in which `requests`
 * arrived (one more than Airtable's 5 a second: it refuses the sixth within 1,000 ms), and how
 * many such spans were under the pacer's (DEPARTURE_SPAN_MS, 1,050 ms). tightestSpanMs is null
 * until `requests` came.
 */
export function createSpanMeter(requests: number) {
  const last: number[] = [];
  let first: number | undefined;
  let tightestSpanMs: number | null = null;
  // When the tightest span began, in ms after the first request.
  let tightestAtMs: number | null = null;
  let spansUnderPacerSpan = 0;
  return {
    note(at: number) {
      first ??= at;
      last.push(at);
      if (last.length > requests) last.shift();
      if (last.length < requests) return;
      const began = last[0] ?? at;
      const span = at - began;
      if (tightestSpanMs === null || span < tightestSpanMs) {
        tightestSpanMs = span;
        tightestAtMs = began - first;
      }
      if (span < DEPARTURE_SPAN_MS) spansUnderPacerSpan += 1;
    },
    report: () => ({ tightestSpanMs, tightestAtMs, spansUnderPacerSpan }),
  };
}

export async function startChaosProxy(options: ChaosOptions) {
  // peakPerSecond: most API requests within one second; firstAt, lastAt: ms since epoch (0: none);
  // perTenSeconds: API requests in each 10 s from the first (where a run lost its budget).
  const counts = {
    requests: 0,
    byStatus: {} as Record<string, number>,
    peakPerSecond: 0,
    firstAt: 0,
    lastAt: 0,
    perTenSeconds: [] as number[],
    // API requests by method and what follows the base in the path ('POST Waitlist/listRecords').
    byKind: {} as Record<string, number>,
  };
  const spans = createSpanMeter((options.rateLimitPerSecond || AIRTABLE_REQUESTS_PER_SECOND) + 1);
  const recent: number[] = [];
  // The API requests of the last two seconds, copied when the first 429 came back.
  const lately: { at: number; what: string }[] = [];
  let before429: { at: number; what: string }[] | undefined;
  const count = (status: number | string) => {
    counts.byStatus[status] = (counts.byStatus[status] ?? 0) + 1;
  };
  // Its idle sockets to the emulator are closed before the emulator's 5 s keep-alive ends: one
  // reused just as the emulator closed it was reset, and answered 502, which Airtable would not give.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64, timeout: 4_000 });
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
        const tenth = Math.floor((now - counts.firstAt) / 10_000);
        while (counts.perTenSeconds.length <= tenth) counts.perTenSeconds.push(0);
        counts.perTenSeconds[tenth] = (counts.perTenSeconds[tenth] ?? 0) + 1;
        spans.note(now);
        recent.push(now);
        while ((recent[0] ?? now) <= now - 1000) recent.shift();
        counts.peakPerSecond = Math.max(counts.peakPerSecond, recent.length);
        const what = `${req.method} ${decodeURIComponent((req.url ?? '').split('?')[0] ?? '')
          .split('/')
          .slice(3)
          .join('/')}`;
        counts.byKind[what] = (counts.byKind[what] ?? 0) + 1;
        lately.push({ at: now, what });
        while ((lately[0]?.at ?? now) <= now - 2000) lately.shift();
      }
      if (isApi && rateLimited(Date.now())) {
        count(429);
        before429 ??= [...lately];
        req.resume();
        res.writeHead(429, { 'content-type': 'application/json' });
        const errors = [
          { error: 'RATE_LIMIT_REACHED', message: 'Rate limit exceeded. Please try again later' },
        ];
        res.end(JSON.stringify({ errors }));
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
  return { ...server, counts: () => structuredClone({ ...counts, ...spans.report(), before429 }) };
}
