// A virtual clock for pacing tests (the pacer's, the queue writer's).

/**
 * A clock with timers that only moves when every caller is asleep: concurrent callers' sleeps end
 * in time order, each `late` ms after it was due (a busy isolate's late wake-up).
 */
export function timedClock(late: () => number = () => 0) {
  let now = 0;
  const timers: { at: number; wake: () => void }[] = [];
  return {
    now: () => now,
    sleep: (ms: number) => new Promise<void>((wake) => timers.push({ at: now + ms + late(), wake })),
    /** Runs until `until` (virtual ms), waking sleepers in order. */
    async runUntil(until: number) {
      for (;;) {
        await new Promise((resolve) => setImmediate(resolve));
        timers.sort((a, b) => a.at - b.at);
        const next = timers[0];
        if (!next || next.at > until) return;
        timers.shift();
        now = Math.max(now, next.at);
        next.wake();
      }
    },
  };
}
