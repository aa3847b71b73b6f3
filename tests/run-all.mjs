#!/usr/bin/env node
/**
 * `npm test`: every suite, in two lanes side by side, so the machine's idle time goes to tests.
 *
 * - checks: `test:static` (tsc, ESLint, Prettier), then all of Vitest, then `test:clock`;
 * - browser: all of Playwright (its sites built, its servers started).
 *
 * Run one after the other on 2 cores, the suites kept the CPU busy about 40 % of the time:
 * Playwright waits on its servers, its bounds and its browsers, and the type-check and ESLint
 * use one core. The browser lane's output streams as it comes; each check's output is printed
 * whole when it ends, so neither is cut into the other's lines. Every suite runs to the end
 * even when another has failed, and a summary lists each with its time. `--serial` runs them
 * one after the other instead (to time one suite, or on a machine with one core).
 *
 * No suite shares a port or a file with another: the Vitest servers listen on ports the system
 * picks, Playwright's on its own fixed ones (E2E_PORT_BASE), and each writes its own scratch
 * directory.
 */
import { spawn } from 'node:child_process';

/** The lanes, each a list of npm scripts run in order. */
const LANES = [
  { name: 'checks', scripts: ['test:static', 'test:vitest', 'test:clock'], stream: false },
  { name: 'browser', scripts: ['test:e2e'], stream: true },
];

/** @typedef {{ script: string, code: number, ms: number }} Outcome */

/**
 * Runs `npm run <script>`; its output streams, or is kept and printed whole at the end.
 * @param {string} script @param {boolean} stream @returns {Promise<Outcome>}
 */
function run(script, stream) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], {
      stdio: stream ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      env: process.env,
    });
    /** @type {Buffer[]} */
    const kept = [];
    child.stdout?.on('data', (chunk) => kept.push(chunk));
    child.stderr?.on('data', (chunk) => kept.push(chunk));
    child.on('close', (code, signal) => {
      const ms = Date.now() - started;
      if (!stream) {
        process.stdout.write(`\n──── npm run ${script} ────\n`);
        process.stdout.write(Buffer.concat(kept));
      }
      const outcome = { script, code: code ?? (signal ? 1 : 0), ms };
      process.stdout.write(
        `──── npm run ${script}: ${outcome.code === 0 ? 'passed' : 'FAILED'} in ${seconds(ms)} ────\n`,
      );
      resolve(outcome);
    });
  });
}

/** @param {number} ms */
const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`;

/** @param {{ scripts: string[], stream: boolean }} lane @returns {Promise<Outcome[]>} */
async function runLane(lane) {
  const outcomes = [];
  for (const script of lane.scripts) outcomes.push(await run(script, lane.stream));
  return outcomes;
}

const serial = process.argv.includes('--serial');
const started = Date.now();
/** @type {Outcome[]} */
let outcomes;
if (serial) {
  outcomes = [];
  for (const lane of LANES) outcomes.push(...(await runLane({ ...lane, stream: true })));
} else {
  process.stdout.write(
    `Lanes side by side: ${LANES.map((lane) => `${lane.name} (${lane.scripts.join(', ')})`).join('; ')}\n`,
  );
  outcomes = (await Promise.all(LANES.map(runLane))).flat();
}

process.stdout.write('\nnpm test:\n');
for (const outcome of outcomes) {
  process.stdout.write(
    `  ${outcome.code === 0 ? 'passed' : 'FAILED'}  ${seconds(outcome.ms).padStart(6)}  ${outcome.script}\n`,
  );
}
process.stdout.write(
  `  total ${seconds(Date.now() - started)}${serial ? ' (one after the other)' : ' (two lanes)'}\n`,
);
process.exit(outcomes.every((outcome) => outcome.code === 0) ? 0 : 1);
