/**
 * This instance's one door to Airtable: 5 requests a second per base, else every client refused 30 s.
 * Starts are booked evenly, `gapMs` apart (210 ms: 4.76/s, 95 % of the limit), not 5 at once and a
 * wait: Airtable counts arrivals in a sliding second, and a burst whose first members arrive late
 * meets the next within one (the load test's busy emulator did). No six departures, counted as they
 * really went out, fall within 1,050 ms (five gaps), or more while the loop lags; a late one is made
 * up at half a gap. After a 429 it stays shut for the penalty (client.ts alone reacts to a 429).
 *
 * Where each need comes from (decision 21): the spacing and the penalty, from Airtable (any shape);
 * counting real departures and the loop-lag allowance, from a busy single-threaded runtime: locally,
 * in one process, and with the desk apart on a loaded machine (without the allowance six arrived
 * within 844–1,003 ms; with it, none closer than 1,050). Apart on a quiet machine, as Cloudflare runs
 * it, the desk's loop lagged 3 ms at p90, and the allowance costs as much. It stays: without it the
 * local rush (`npm run loadtest`, 0 429 required) would risk a 429.
 */

/** Airtable's documented limit and penalty. */
export const AIRTABLE_REQUESTS_PER_SECOND = 5;
export const AIRTABLE_RATE_LIMIT_PENALTY_MS = 30_000;
/** The window Airtable counts in: never more than `perSecond` departures within it. */
export const RATE_WINDOW_MS = 1_000;
/**
 * Starts are spaced by the window over the limit, times this: 5 % over 200 ms, so six starts span 50 ms
 * more than Airtable's second (absorbing arrival jitter up to that), and 95 % of the budget is used.
 */
export const GAP_MARGIN = 1.05;

/** How long a lag the loop showed widens the pacer's span (lagAllowance). */
const LAG_MEMORY_MS = 5_000;

export interface PacerOptions {
  perSecond?: number;
  /** Least time between two starts (default: the window over `perSecond`, times GAP_MARGIN). */
  gapMs?: number;
  /** Start shut this long: an earlier instance (isolate) may have sent just before; no fresh window. */
  startClosedForMs?: number;
  penaltyMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export function createPacer({
  perSecond = AIRTABLE_REQUESTS_PER_SECOND,
  gapMs = (RATE_WINDOW_MS * GAP_MARGIN) / perSecond,
  penaltyMs = AIRTABLE_RATE_LIMIT_PENALTY_MS,
  startClosedForMs = 0,
  now = Date.now,
  sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
}: PacerOptions = {}) {
  // Never more than `perSecond` departures within `span`: Airtable's second with the margin, plus
  // the loop's recent lag (`lagAllowance`).
  const span = Math.max(RATE_WINDOW_MS, perSecond * gapMs);
  // How late the loop lately sent a request (ms, when seen). A late wake-up is no danger: its
  // request is counted from when it really left.
  const lags: { at: number; ms: number }[] = [];
  /**
   * A request a busy loop sends late may reach Airtable after the five behind it expect: six then
   * arrive within a second (the load test's one 429, its loop saturated). The most the loop lagged
   * in the last LAG_MEMORY_MS widens the span by as much, up to a gap.
   */
  const lagAllowance = () => {
    while (lags.length > 0 && (lags[0]?.at ?? 0) <= now() - LAG_MEMORY_MS) lags.shift();
    return Math.min(gapMs, Math.max(0, ...lags.map((lag) => lag.ms)));
  };
  // Start time of the last slot handed out (booked ahead when callers queue up); the next is `gapMs` on.
  let lastBooked = Number.NEGATIVE_INFINITY;
  // When callers really went out (a late wake-up, and a late send, included), oldest first.
  const departures: { at: number }[] = [];
  let closedUntil = startClosedForMs > 0 ? now() + startClosedForMs : 0;
  // Callers leave in the order they booked: each waits for the one before it to leave (or give up).
  let lastTurn: Promise<unknown> = Promise.resolve();
  // A busy isolate sends a request later than its caller left here. A timer set as a caller leaves
  // fires once the loop has caught up: its departure moves to then, and the next caller waits for it.
  let lastOut: Promise<unknown> = Promise.resolve();

  /**
   * Waits for `slot`, the callers booked before, a shut pacer and the departures' spacing; then leaves. A
   * busy isolate wakes sleepers and sends late: departures count as they really went, never `perSecond` + 1
   * within `span`. A caller after a late one goes at its own slot or half a gap after it, making the delay up
   * in a few slots instead of pushing every later slot back (the load test lost a quarter of the budget so).
   */
  const leave = async (slot: number, deadline: number, before: Promise<unknown>, lent: boolean) => {
    const wait = slot - now();
    if (wait > 0) await sleep(wait);
    await before;
    // A 429 seen while this caller waited shuts the pacer for it too.
    if (closedUntil > now()) {
      if (closedUntil > deadline) return false;
      await sleep(closedUntil - now());
    }
    await lastOut;
    for (;;) {
      const at = now();
      while (departures.length > 0 && (departures[0]?.at ?? 0) <= at - span - gapMs) departures.shift();
      // Half a gap after the last departure, and a span (and the loop's lag) after the `perSecond`-th last.
      const free = Math.max(
        at,
        (departures.at(-1)?.at ?? Number.NEGATIVE_INFINITY) + gapMs / 2,
        (departures.at(-perSecond)?.at ?? Number.NEGATIVE_INFINITY) + span + lagAllowance(),
      );
      if (free <= at) break;
      if (free > deadline) return false;
      await sleep(free - at);
    }
    const departure = { at: now() + (lent ? gapMs : 0) };
    departures.push(departure);
    lastOut = sleep(0).then(() => {
      const lag = now() - departure.at;
      if (lag > 0) lags.push({ at: now(), ms: lag });
      departure.at = Math.max(departure.at, now());
    });
    return true;
  };

  return {
    /**
     * Waits for a slot and takes it; false, taking none, if the wait would exceed `withinMs`, so a
     * caller with a visitor waiting answers in time (a duration: the caller's and the pacer's clocks
     * may differ). `lent`: the slot is lent elsewhere (the desk's POST /pace), whose request leaves
     * once the answer reaches it: counted as leaving a gap later.
     */
    async acquire(withinMs = Number.POSITIVE_INFINITY, { lent = false } = {}): Promise<boolean> {
      const deadline = now() + withinMs;
      // The earliest a new slot may start, a gap after the last one booked; booked only if taken.
      const slot = Math.max(now(), closedUntil, lastBooked + gapMs);
      if (slot > deadline) return false;
      lastBooked = slot;
      const turn = leave(slot, deadline, lastTurn, lent);
      lastTurn = turn.catch(() => undefined);
      return turn;
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
