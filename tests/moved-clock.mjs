#!/usr/bin/env node
/**
 * The time-bomb guard: runs the unit and integration suites again with the system clock moved
 * years ahead and years back (libfaketime, Debian's `faketime`), so a test that compares a pinned
 * date with the real clock fails the day it is written, not the day the date passes.
 *
 * Timers and performance.now() keep real time (FAKETIME_DONT_FAKE_MONOTONIC): only the date moves.
 * Where `faketime` is missing it says so and skips, unless CI is set (.ci/run installs it).
 */
import { spawnSync } from 'node:child_process';

/** Far enough that no pinned date near today sits between the real and the moved clock. */
export const CLOCK_OFFSETS = ['+8y', '-6y'];
const SUITES = ['tests/unit', 'tests/integration'];

const found = spawnSync('faketime', ['-f', '+0', 'true'], { stdio: 'ignore' });
if (found.error || found.status !== 0) {
  const message = 'test:clock: `faketime` is not installed (Debian: apt-get install faketime)';
  if (process.env.CI) {
    console.error(`${message}; CI needs it.`);
    process.exit(1);
  }
  console.warn(`${message}; skipping the moved-clock runs.`);
  process.exit(0);
}

for (const offset of CLOCK_OFFSETS) {
  const env = { ...process.env, FAKETIME_DONT_FAKE_MONOTONIC: '1' };
  const date = spawnSync('faketime', ['-f', offset, 'date', '-u', '+%Y-%m-%dT%H:%M:%SZ'], {
    env,
    encoding: 'utf8',
  }).stdout.trim();
  console.log(`\ntest:clock: unit and integration suites with the clock at ${date} (${offset})`);
  const run = spawnSync('faketime', ['-f', offset, 'npx', 'vitest', 'run', ...SUITES], {
    env,
    stdio: 'inherit',
  });
  if (run.status !== 0) {
    console.error(`test:clock: the suites fail with the clock moved ${offset}: a test depends on the date.`);
    process.exit(run.status ?? 1);
  }
}
console.log('\ntest:clock: the suites pass with the clock moved ahead and back.');
