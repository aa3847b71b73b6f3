/**
 * The pacer: this instance's one door to Airtable. Airtable allows 5 requests per second per base and, after
 * a breach, refuses every client of the base for 30 seconds. The pacer spaces requests so at most `perSecond`
 * start in any one-second window, and after a 429 it stays shut for the penalty so nothing we send prolongs
 * it. The Airtable client (airtable-client.ts) is the only place that reacts to a 429.
 */

/** Airtable's documented limit and penalty. */
export const AIRTABLE_REQUESTS_PER_SECOND = 5;
const AIRTABLE_RATE_LIMIT_PENALTY_MS = 30_000;
/**
 * The window the pacer counts in: a second plus a margin, because requests that leave here exactly
 * a second apart can arrive at Airtable closer together, and 6 in its second is a 30 s penalty.
 * 1.3 s: with 1.2 s, three of four launch-rush runs on this toolchain met one or two 429s, their
 * requests bunched on arrival by a busy machine (docs/rush.md).
 */
export const RATE_WINDOW_MS = 1_300;

/** A queued message's wait before its retry, in seconds: Airtable's penalty after a 429, else 2, 4, 8 … up to 5 minutes. */
export function retryDelaySeconds(attempts: number, rateLimited: boolean): number {
  if (rateLimited) return Math.ceil(AIRTABLE_RATE_LIMIT_PENALTY_MS / 1000);
  return Math.min(300, 2 ** Math.max(1, attempts));
}

export interface PacerOptions {
  perSecond?: number;
  windowMs?: number;
  /**
   * Start shut for this long. A pacer that does not know what an earlier instance (an earlier
   * isolate of the queue's consumer) sent just before must not assume a fresh window.
   */
  startClosedForMs?: number;
  penaltyMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export function createPacer({
  perSecond = AIRTABLE_REQUESTS_PER_SECOND,
  windowMs = RATE_WINDOW_MS,
  penaltyMs = AIRTABLE_RATE_LIMIT_PENALTY_MS,
  startClosedForMs = 0,
  now = Date.now,
  sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
}: PacerOptions = {}) {
  // Start times of the slots handed out, oldest first; booked ahead when callers queue up.
  const starts: number[] = [];
  // When callers really went ahead (a late wake-up included), oldest first.
  const departures: number[] = [];
  let closedUntil = startClosedForMs > 0 ? now() + startClosedForMs : 0;

  /** The earliest time a new slot may start, booking it. */
  const book = (): number => {
    const at = Math.max(now(), closedUntil);
    while (starts.length > 0 && (starts[0] ?? 0) <= at - windowMs) starts.shift();
    // With `perSecond` slots in the last window, the next one starts a window after the oldest.
    const slot =
      starts.length < perSecond ? at : Math.max(at, (starts[starts.length - perSecond] ?? at) + windowMs);
    starts.push(slot);
    starts.sort((a, b) => a - b);
    return slot;
  };

  return {
    /**
     * Waits for a slot and takes it. Resolves false without taking one when the wait would last
     * longer than `withinMs`, so a caller with a visitor waiting can answer in time. A duration,
     * not a point in time: the caller's clock and the pacer's need not be the same clock.
     */
    async acquire(withinMs = Number.POSITIVE_INFINITY): Promise<boolean> {
      const deadline = now() + withinMs;
      if (Math.max(now(), closedUntil) > deadline) return false;
      const slot = book();
      if (slot > deadline) {
        starts.splice(starts.indexOf(slot), 1);
        return false;
      }
      const wait = slot - now();
      if (wait > 0) await sleep(wait);
      // A 429 seen while this caller waited shuts the pacer for it too.
      if (closedUntil > now()) {
        if (closedUntil > deadline) return false;
        await sleep(closedUntil - now());
      }
      // A busy isolate wakes a sleeper late, so a caller may leave after the next slot's time:
      // count the requests that really left, and wait again while a window holds `perSecond`.
      for (;;) {
        const at = now();
        while (departures.length > 0 && (departures[0] ?? 0) <= at - windowMs) departures.shift();
        if (departures.length < perSecond) break;
        const free = (departures[departures.length - perSecond] ?? at) + windowMs;
        if (free > deadline) return false;
        await sleep(free - at);
      }
      departures.push(now());
      return true;
    },
    /** Records a 429: no slot is handed out until the penalty has passed. */
    penalise() {
      closedUntil = Math.max(closedUntil, now() + penaltyMs);
    },
    /** Milliseconds until the pacer opens after a 429 (0 when open). */
    closedFor() {
      return Math.max(0, closedUntil - now());
    },
  };
}
export type Pacer = ReturnType<typeof createPacer>;
