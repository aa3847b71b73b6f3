// `npm run loadtest`: the real storage layer (airtable.js in Node) against the local emulator with
// Airtable's limit of 5 requests per second per base. Phases: 100 distinct waitlist sign-ups at
// once, then one email 10 times at once, then 50 quote requests at once. Prints one table, then
// what limited the success rate. Exits 1 if a sign-up was lost or stored twice, or a visitor
// waited longer than the answer bound; a success rate under 100 % alone is not a failure.
//
//   node scripts/run-ts.mjs scripts/loadtest.mjs [--signups 100] [--same 10] [--quotes 50] [--rate-limit 5]
//                             [--penalty 0] [--bound 30000]
//
// --penalty keeps answering 429 that long after a breach, as real Airtable does (30000 ms).

import { DEFAULT_ANSWER_BOUND_MS, formatTable, loadStorageLayer, runLoad } from './loadtest-core.mjs';
import { AIRTABLE_RATE_LIMIT_PER_SECOND } from './airtable-emulator/emulator.ts';

/** Requests one new record costs: the lookup, then the create. */
const REQUESTS_PER_NEW_RECORD = 2;

/** @param {string[]} argv */
function parseArgs(argv) {
  const options = {
    signups: 100,
    sameEmail: 10,
    quotes: 50,
    rateLimitPerSecond: AIRTABLE_RATE_LIMIT_PER_SECOND,
    rateLimitPenaltyMs: 0,
    answerBoundMs: DEFAULT_ANSWER_BOUND_MS,
  };
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i];
    const raw = argv[++i];
    const value = Number(raw);
    if (raw === undefined || !Number.isFinite(value) || value < 0) throw new Error(`${flag} needs a number`);
    if (flag === '--signups') options.signups = value;
    else if (flag === '--same') options.sameEmail = value;
    else if (flag === '--quotes') options.quotes = value;
    else if (flag === '--rate-limit') options.rateLimitPerSecond = value;
    else if (flag === '--penalty') options.rateLimitPenaltyMs = value;
    else if (flag === '--bound') options.answerBoundMs = value;
    else throw new Error(`Unknown option ${flag}`);
  }
  return options;
}

/**
 * Runs the load test; run through scripts/run-ts.mjs, which passes the arguments (the emulator is TypeScript).
 * @param {string[]} argv
 */
export async function main(argv) {
  const options = parseArgs(argv);
  const { storage, close } = await loadStorageLayer();
  let report;
  try {
    process.stdout.write(
      `Load test: storage layer → airtable.js → emulator at ${options.rateLimitPerSecond} requests/s per base` +
        ` (429 penalty ${options.rateLimitPenaltyMs} ms), answer bound ${options.answerBoundMs} ms, production retry policy.\n\n`,
    );
    report = await runLoad({ storage, ...options });
  } finally {
    await close();
  }

  const { phases } = report;
  process.stdout.write(`${formatTable(phases)}\n\n`);

  const percent = (/** @type {number} */ part, /** @type {number} */ whole) =>
    whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)} %`;
  for (const p of phases) {
    const errors = Object.entries(p.errors)
      .map(([message, count]) => `${count} × '${message}'`)
      .join(', ');
    process.stdout.write(
      `${p.phase}: success ${percent(p.succeeded, p.attempted)}, ${p.requests.total} requests ` +
        `(${p.requests.ok} ok, ${p.requests.rateLimited} × 429, ${p.requests.other} other) in ${p.durationMs} ms` +
        `${p.storedDespiteError ? `, ${p.storedDespiteError} stored although answered with an error` : ''}` +
        `${p.overBound ? `, ${p.overBound} answered after the bound` : ''}` +
        `${errors ? `; errors: ${errors}` : ''}\n`,
    );
  }
  const attempted = phases.reduce((sum, p) => sum + p.attempted, 0);
  const succeeded = phases.reduce((sum, p) => sum + p.succeeded, 0);
  const ceiling = Math.floor(
    (options.rateLimitPerSecond * options.answerBoundMs) / 1000 / REQUESTS_PER_NEW_RECORD,
  );
  process.stdout.write(
    `\nOverall success ${percent(succeeded, attempted)} (${succeeded}/${attempted}). ` +
      `Ceiling: ${options.rateLimitPerSecond} requests/s × ${options.answerBoundMs / 1000} s bound ÷ ` +
      `${REQUESTS_PER_NEW_RECORD} requests per new record = at most ${ceiling} new records answered within the ` +
      `bound from one burst, before any 429 is wasted.\n`,
  );

  if (options.rateLimitPenaltyMs === 0) {
    process.stdout.write(
      'Real Airtable also answers 429 for 30 s after a breach, to every client of the base: ' +
        'run with --penalty 30000 to see a burst under that rule.\n',
    );
  }

  const lost = phases.reduce((sum, p) => sum + p.lost, 0);
  const duplicates = phases.reduce((sum, p) => sum + p.duplicates, 0);
  const overBound = phases.reduce((sum, p) => sum + p.overBound, 0);
  if (lost > 0 || duplicates > 0 || overBound > 0) {
    process.stdout.write(
      `FAIL: ${lost} lost, ${duplicates} duplicates, ${overBound} answered after the bound.\n`,
    );
    process.exitCode = 1;
  } else {
    process.stdout.write('PASS: 0 lost, 0 duplicates, every visitor answered within the bound.\n');
  }
}
