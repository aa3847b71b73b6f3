// @vitest-environment node
import { createPacer } from '#src/server/pacer.ts';

/** A clock the pacer's sleeps move forward, so pacing is checked without waiting. */
function virtualClock() {
  let now = 0;
  return {
    now: () => now,
    sleep: async (ms: number) => {
      now += ms;
    },
  };
}

describe('pacer', () => {
  it('starts at most 5 requests in any window of 1.1 s', async () => {
    const clock = virtualClock();
    const pacer = createPacer({ ...clock, perSecond: 5, windowMs: 1100 });
    const starts: number[] = [];
    for (let i = 0; i < 23; i += 1) {
      await pacer.acquire();
      starts.push(clock.now());
    }
    for (const start of starts) {
      expect(starts.filter((other) => other >= start && other < start + 1100).length).toBeLessThanOrEqual(5);
    }
    // And it does not hold back more than the limit needs: 23 starts take four windows.
    expect(starts.at(-1)).toBe(4 * 1100);
  });

  it('stays shut for the penalty after a 429, for callers already waiting too', async () => {
    const clock = virtualClock();
    const pacer = createPacer({ ...clock, penaltyMs: 30_000 });
    await pacer.acquire();
    pacer.penalise();
    expect(pacer.closedFor()).toBe(30_000);
    await pacer.acquire();
    expect(clock.now()).toBe(30_000);
  });

  it('says no at once, taking no slot, when the wait would pass the caller’s deadline', async () => {
    const clock = virtualClock();
    const pacer = createPacer({ ...clock });
    pacer.penalise();
    expect(await pacer.acquire(5_000)).toBe(false);
    expect(clock.now()).toBe(0);
  });
});

describe('a busy isolate', () => {
  it('counts when callers really left: one woken late does not let a window hold one too many', async () => {
    let t = 0;
    let late = 0;
    const pacer = createPacer({
      perSecond: 2,
      windowMs: 1000,
      now: () => t,
      sleep: async (ms) => {
        t += ms + late;
      },
    });
    const left: number[] = [];
    for (const lateness of [0, 0, 500, 0, 0]) {
      late = lateness;
      await pacer.acquire();
      left.push(t);
    }
    // The third caller was due at 1000 but woke at 1500; the fifth, due at 2000, waits for 2500.
    expect(left).toEqual([0, 0, 1500, 1500, 2500]);
    for (let i = 0; i + 2 < left.length; i += 1)
      expect((left[i + 2] ?? 0) - (left[i] ?? 0)).toBeGreaterThanOrEqual(1000);
  });
});

describe('a fresh pacer in a new isolate', () => {
  it('can start shut for a window, since it does not know what the last isolate sent', async () => {
    const clock = virtualClock();
    const pacer = createPacer({ ...clock, startClosedForMs: 1200 });
    await pacer.acquire();
    expect(clock.now()).toBe(1200);
  });
});
