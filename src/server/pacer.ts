/**
 * This instance's one door to Airtable: 5 requests a second per base, else every client refused 30 s.
 * Starts are spaced evenly, `gapMs` apart (210 ms: 4.76/s, 95 % of the limit), not 5 at once and a
 * wait: Airtable counts arrivals in a sliding second, and a burst whose first members arrive late meets
 * the next within one (the load test's emulator did, its process busy). Six even starts span 1,050 ms,
 * no second holds six departures (checked on real departures). After a 429 it stays shut for the
 * penalty; the client (airtable-client.ts) is the only place that reacts to a 429.
 */

/** Airtable's documented limit and penalty. */
export const AIRTABLE_REQUESTS_PER_SECOND = 5;
export const AIRTABLE_RATE_LIMIT_PENALTY_MS = 30_000;
/** The window Airtable counts in: never more than `perSecond` departures within it. */
export const RATE_WINDOW_MS = 1_000;
/**
 * Starts are spaced by the window over the limit, times this: 5 % over 200 ms, so six starts span
 * 50 ms more than Airtable's second (arrival jitter up to that is absorbed) and 95 % of the budget is used.
 */
const GAP_MARGIN = 1.05;

/** A queued message's wait before its retry, in seconds: Airtable's penalty after a 429, else 2, 4, 8 … up to 5 minutes. */
export function retryDelaySeconds(attempts: number, rateLimited: boolean): number {
  if (rateLimited) return Math.ceil(AIRTABLE_RATE_LIMIT_PENALTY_MS / 1000);
  return Math.min(300, 2 ** Math.max(1, attempts));
}

export interface PacerOptions {
  perSecond?: number;
  windowMs?: number;
  /** Least time between two starts (default: the window over `perSecond`, times GAP_MARGIN). */
  gapMs?: number;
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
  gapMs = (windowMs * GAP_MARGIN) / perSecond,
  penaltyMs = AIRTABLE_RATE_LIMIT_PENALTY_MS,
  startClosedForMs = 0,
  now = Date.now,
  sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
}: PacerOptions = {}) {
  // Start times of the slots handed out, oldest first, `gapMs` apart; booked ahead when callers queue up.
  const booked: number[] = [];
  // When callers really went ahead (a late wake-up included), oldest first.
  const departures: number[] = [];
  let closedUntil = startClosedForMs > 0 ? now() + startClosedForMs : 0;
  // Callers leave in the order they booked: each waits for the one before it to leave (or give up).
  let lastTurn = Promise.resolve();
  // When the last request really went out, as far as this isolate can tell: a request leaves
  // when the event loop gets to it, so on a busy isolate it goes later than its caller left here,
  // and the one after it, on time, would reach Airtable less than a gap behind. A timer set as a
  // caller leaves fires once the loop has caught up with what was queued before it.
  let lastOut: Promise<number> = Promise.resolve(Number.NEGATIVE_INFINITY);

  /** The earliest time a new slot may start, booking it: a gap after the last slot booked. */
  const book = (): number => {
    const at = Math.max(now(), closedUntil);
    while (booked.length > 1 && (booked[0] ?? 0) < at - windowMs) booked.shift();
    const last = booked.at(-1);
    const slot = last === undefined ? at : Math.max(at, last + gapMs);
    booked.push(slot);
    return slot;
  };

  /** Waits for `slot`, the callers booked before, a shut pacer and the departures' spacing; then leaves. */
  const leave = async (slot: number, deadline: number, before: Promise<void>): Promise<boolean> => {
    const wait = slot - now();
    if (wait > 0) await sleep(wait);
    await before;
    // A 429 seen while this caller waited shuts the pacer for it too.
    if (closedUntil > now()) {
      if (closedUntil > deadline) return false;
      await sleep(closedUntil - now());
    }
    // A busy isolate wakes a sleeper late, so a caller may leave after the next slot's time:
    // count the requests that really left, and wait again while the last went out less than a
    // gap ago or a window holds `perSecond`.
    const lastWentOut = await lastOut;
    for (;;) {
      const at = now();
      while (departures.length > 0 && (departures[0] ?? 0) <= at - windowMs) departures.shift();
      const last = departures.at(-1);
      const free = Math.max(
        last === undefined ? at : Math.max(last, lastWentOut) + gapMs,
        departures.length < perSecond ? at : (departures[departures.length - perSecond] ?? at) + windowMs,
      );
      if (free <= at) break;
      if (free > deadline) return false;
      await sleep(free - at);
    }
    departures.push(now());
    lastOut = sleep(0).then(now);
    return true;
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
        booked.splice(booked.lastIndexOf(slot), 1);
        return false;
      }
      const before = lastTurn;
      let done = () => undefined as void;
      lastTurn = new Promise<void>((resolve) => (done = resolve));
      try {
        return await leave(slot, deadline, before);
      } finally {
        done();
      }
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
