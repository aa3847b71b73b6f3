// @vitest-environment node
import { createPacer, type PacerOptions } from '#src/server/airtable/pacer.ts';
import { timedClock } from './support/timed-clock.ts';

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

/** Most starts within any `windowMs` (a window opening at each start). */
const busiest = (starts: readonly number[], windowMs = 1000) =>
  Math.max(0, ...starts.map((start) => starts.filter((t) => t >= start && t < start + windowMs).length));

/** `callers` callers each asking for a slot again as soon as they have one, for `ms` virtual ms. */
async function steadyDemand(
  clock: ReturnType<typeof timedClock>,
  callers: number,
  ms: number,
  options: PacerOptions = {},
) {
  const pacer = createPacer({ now: clock.now, sleep: clock.sleep, ...options });
  const starts: number[] = [];
  let running = true;
  const loops = Array.from({ length: callers }, async () => {
    while (running && (await pacer.acquire())) starts.push(clock.now());
  });
  await clock.runUntil(ms);
  running = false;
  void loops;
  return starts.filter((t) => t < ms);
}

/** The clock's sleep, the first sleep(0) (a request going out) `lagMs` late: a loop busy once. */
function sendsLateOnce(clock: ReturnType<typeof timedClock>, lagMs: number) {
  let lag = lagMs;
  return (ms: number) => {
    const extra = ms === 0 ? lag : 0;
    if (ms === 0) lag = 0;
    return clock.sleep(ms + extra);
  };
}

describe('pacer', () => {
  it('spaces starts evenly: never 6 in any second, and at least 4.5 a second under steady demand', async () => {
    const clock = timedClock();
    const starts = await steadyDemand(clock, 8, 60_000);
    expect(busiest(starts)).toBe(5);
    expect(starts.length / 60).toBeGreaterThanOrEqual(4.5);
    for (let i = 1; i < starts.length; i += 1)
      expect((starts[i] ?? 0) - (starts[i - 1] ?? 0)).toBeGreaterThanOrEqual(200);
  });

  it('stays under the limit when sleepers wake late, by up to a second', async () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 1000;
    const clock = timedClock(() => (random() < 100 ? random() : 0));
    const starts = await steadyDemand(clock, 8, 60_000);
    expect(busiest(starts)).toBeLessThanOrEqual(5);
    expect(starts.length / 60).toBeGreaterThanOrEqual(3);
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
  it('counts when callers really left: the one after a late caller goes half a gap after it', async () => {
    let t = 0;
    let late = 0;
    const pacer = createPacer({
      gapMs: 250,
      now: () => t,
      // Late wake-ups only (a request leaving at once goes out at once: sleep(0) is not late).
      sleep: async (ms) => {
        t += ms + (ms > 0 ? late : 0);
      },
    });
    const left: number[] = [];
    for (const lateness of [0, 0, 400, 0, 0]) {
      late = lateness;
      await pacer.acquire();
      left.push(t);
    }
    // The third caller was due at 500 but woke at 900; the fourth goes at 1025, the fifth at its slot.
    expect(left).toEqual([0, 250, 900, 1025, 1150]);
  });

  it('makes up a late wake-up in a few slots instead of pushing every later slot back, never 6 in five gaps', async () => {
    const clock = timedClock();
    let hiccups = 0;
    // The first sleeper due after 2 s wakes 400 ms late; every other one, and every send, on time.
    const sleep = (ms: number) =>
      clock.sleep(ms > 0 && clock.now() >= 2_000 && hiccups++ === 0 ? ms + 400 : ms);
    const within = await steadyDemand(clock, 8, 10_000, { sleep });
    expect(hiccups).toBeGreaterThan(0);
    expect(busiest(within, 1_050)).toBe(5);
    // Without the hiccup, 48 starts in 10 s (0, 210 … 9,870); a schedule pushed back 400 ms has 46.
    expect(within.length).toBeGreaterThanOrEqual(47);
    for (let i = 1; i < within.length; i += 1)
      expect((within[i] ?? 0) - (within[i - 1] ?? 0)).toBeGreaterThanOrEqual(105);
  });
});

describe('a busy event loop', () => {
  it('spaces a request half a gap after the one before really went out, when the loop sent that one late', async () => {
    const clock = timedClock();
    // The loop is busy for 300 ms once the first caller leaves, so its request goes out then.
    const pacer = createPacer({ now: clock.now, sleep: sendsLateOnce(clock, 300) });
    const starts: number[] = [];
    const callers = Promise.all(
      [0, 1, 2].map(async () => {
        await pacer.acquire();
        starts.push(clock.now());
      }),
    );
    await clock.runUntil(10_000);
    await callers;
    expect(starts).toEqual([0, 405, 510]);
  });
});

describe('a lagging event loop', () => {
  it('widens its second by the lag it saw lately, up to a gap, and narrows it again after 5 s', async () => {
    const clock = timedClock();
    // The first request goes out 150 ms after its caller left; every other one at once.
    const starts = await steadyDemand(clock, 8, 30_000, { sleep: sendsLateOnce(clock, 150) });
    // For 5 s six starts span 1,050 ms and the 150 ms lag; then 1,050 ms again, at full pace.
    expect(
      busiest(
        starts.filter((t) => t < 5_000),
        1_200,
      ),
    ).toBe(5);
    const calm = starts.filter((t) => t >= 6_000 && t < 30_000);
    expect(busiest(calm, 1_050)).toBe(5);
    expect(calm.length / 24).toBeGreaterThanOrEqual(4.7);
  });
});

describe('a fresh pacer in a new isolate', () => {
  it('can start shut for a window, since it does not know what the last isolate sent', async () => {
    const clock = virtualClock();
    const pacer = createPacer({ ...clock, startClosedForMs: 1200 });
    await pacer.acquire();
    expect(clock.now()).toBe(1200);
  });

  it('lets callers leave in the order they booked, even when the first one wakes after the second', async () => {
    let now = 0;
    let wakeFirst = () => undefined as void;
    const sleep = (ms: number) =>
      new Promise<void>((resolve) => {
        const wake = () => resolve(void (now += ms));
        // The first caller's wait (for the pacer to open) ends only when the test says so.
        if (ms === 100 && now === 0) wakeFirst = wake;
        else wake();
      });
    const pacer = createPacer({ now: () => now, sleep, startClosedForMs: 100 });
    const left: string[] = [];
    const first = pacer.acquire().then(() => left.push('first'));
    const second = pacer.acquire().then(() => left.push('second'));
    // Every pending step runs (the second caller's wait is over), then the first caller wakes.
    await new Promise((resolve) => setImmediate(resolve));
    wakeFirst();
    await Promise.all([first, second]);
    expect(left).toEqual(['first', 'second']);
  });
});
