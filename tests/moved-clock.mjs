#!/usr/bin/env node
/**
 * The time-bomb guard: runs the test files that can depend on the date again with the system
 * clock moved years ahead (libfaketime, Debian's `faketime`), so a test that compares a pinned
 * date with the real clock fails the day it is written, not the day the date passes.
 *
 * Ahead only, because the real clock only moves ahead: a pinned date falls behind it, and that is
 * what breaks a test one day. A clock moved back fails only tests that need today to be after a
 * date already past (a record dated last year counted as old), which no day to come can break;
 * and a test that mixes a pinned clock with the real one (decision 0009) fails ahead as well.
 *
 * Only a file that pins a date or tests a rule about age can depend on the date: the files are
 * chosen by DATE_DEPENDENT below (an ISO date, Date.UTC, new Date of a literal, a faked system
 * time, retention or expiry), listed with the run. Every other file reads the clock only for
 * relative times and unique names, which no date can break.
 *
 * A file that runs the Worker in workerd is left out: workerd runs on the real clock
 * (startWorker drops libfaketime from its environment), so only the test's side would move. The
 * Worker's date rules are the same modules whose unit tests run here (retention, link expiry).
 *
 * Timers and performance.now() keep real time (FAKETIME_DONT_FAKE_MONOTONIC): only the date moves.
 * Where `faketime` is missing it says so and skips, unless CI is set (.ci/run installs it).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RUNS_WORKERD } from './runner/workerd-files.mjs';

/** Far enough ahead that no pinned date near today sits between the real and the moved clock. */
const CLOCK_OFFSET = '+8y';
const SUITES = ['tests/unit', 'tests/component', 'tests/integration'];

/** What makes a test file's outcome depend on the date. */
const DATE_DEPENDENT =
  /\b(19|20)\d\d-[01]\d-[0-3]\d|Date\.UTC\(|new Date\(\s*['"`\d]|setSystemTime|retention|expir/i;

/** The test files under `dirs` that DATE_DEPENDENT selects, without those that run workerd. */
function dateDependentFiles(dirs = SUITES) {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.test\.tsx?$/.test(entry.name)) {
        const text = readFileSync(path, 'utf8');
        if (DATE_DEPENDENT.test(text) && !RUNS_WORKERD.test(text)) files.push(path);
      }
    }
  };
  for (const dir of dirs) walk(dir);
  return files.sort();
}

/** Runs the files once under `offset`, its output as it comes; returns the exit code. */
function runMoved(offset, files) {
  const env = { ...process.env, FAKETIME_DONT_FAKE_MONOTONIC: '1' };
  const date = spawnSync('faketime', ['-f', offset, 'date', '-u', '+%Y-%m-%dT%H:%M:%SZ'], {
    env,
    encoding: 'utf8',
  }).stdout.trim();
  console.log(`\ntest:clock: the clock at ${date} (${offset})`);
  const args = ['-f', offset, 'node', 'node_modules/vitest/vitest.mjs', 'run', ...files];
  return spawnSync('faketime', args, { env, stdio: 'inherit' }).status ?? 1;
}

function main() {
  const found = spawnSync('faketime', ['-f', '+0', 'true'], { stdio: 'ignore' });
  if (found.error || found.status !== 0) {
    const message = 'test:clock: `faketime` is not installed (Debian: apt-get install faketime)';
    if (process.env.CI) {
      console.error(`${message}; CI needs it.`);
      process.exit(1);
    }
    console.warn(`${message}; skipping the moved-clock run.`);
    process.exit(0);
  }
  const files = dateDependentFiles();
  console.log(`test:clock: ${files.length} date-dependent files, clock moved ${CLOCK_OFFSET}:`);
  for (const file of files) console.log(`  ${file}`);
  if (runMoved(CLOCK_OFFSET, files) !== 0) {
    console.error(
      `test:clock: the files fail with the clock moved ${CLOCK_OFFSET}: a test depends on the date.`,
    );
    process.exit(1);
  }
  console.log('\ntest:clock: the date-dependent files pass with the clock moved ahead.');
}

main();
