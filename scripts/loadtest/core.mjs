// The storage layer's phase-by-phase load engine (one tab's guarantees under load: the per-email
// queue, bounded answers), used by tests/integration/load.test.ts. The launch rush across deploy
// modes (direct, queued) is scripts/loadtest/rush.ts, run by `npm run loadtest`.
//
// It drives the REAL storage layer (src/lib/airtable/upsert.ts → airtable.js over HTTP) against
// a fresh local emulator, one phase after another:
//   A. `signups` distinct waitlist sign-ups at once,
//   B. the same email `sameEmail` times at once (in different case and spacing, as typed),
//   C. `quotes` quote requests at once,
// then compares every answer with what the emulator stored.

import { AIRTABLE_RATE_LIMIT_PER_SECOND, startEmulator } from '#scripts/airtable-emulator/emulator.ts';

/**
 * @typedef {import('#src/lib/airtable/upsert.ts').StorageOptions} StorageOptions
 * @typedef {import('#src/lib/forms/forms.ts').WaitlistPosted} WaitlistEntryInput
 * @typedef {import('#src/lib/forms/forms.ts').QuotePosted} QuoteRequestInput
 * @typedef {import('#src/lib/airtable/upsert.ts').UpsertResult} UpsertResult
 * @typedef {{
 *   upsertWaitlistEntry: (input: WaitlistEntryInput, options?: StorageOptions) => Promise<UpsertResult>,
 *   upsertQuoteRequest: (input: QuoteRequestInput, options?: StorageOptions) => Promise<UpsertResult>,
 * }} StorageLayer
 * @typedef {{ email: string, ok: true, result: UpsertResult, ms: number }
 *   | { email: string, ok: false, error: string, ms: number }} Answer
 * @typedef {{
 *   phase: string,
 *   table: string,
 *   attempted: number,
 *   succeeded: number,
 *   failed: number,
 *   stored: number,
 *   duplicates: number,
 *   lost: number,
 *   storedDespiteError: number,
 *   overBound: number,
 *   p50: number,
 *   p95: number,
 *   max: number,
 *   durationMs: number,
 *   requests: { total: number, ok: number, rateLimited: number, other: number },
 *   errors: Record<string, number>,
 * }} PhaseResult
 * @typedef {{
 *   storage: StorageLayer,
 *   signups?: number,
 *   sameEmail?: number,
 *   quotes?: number,
 *   rateLimitPerSecond?: number,
 *   rateLimitPenaltyMs?: number,
 *   answerBoundMs?: number,
 *   retry?: StorageOptions['retry'],
 *   pauseBetweenPhasesMs?: number,
 * }} LoadOptions
 * @typedef {{
 *   phases: PhaseResult[],
 *   rateLimitPerSecond: number,
 *   rateLimitPenaltyMs: number,
 *   answerBoundMs: number,
 * }} LoadReport
 */

/** The production answer bound (STORAGE_ANSWER_BOUND_MS in src/config/constants.ts). */
export const DEFAULT_ANSWER_BOUND_MS = 30_000;

/** The stored form of an email (spec section 3: lower-cased and trimmed). */
const stored = (/** @type {string} */ email) => email.trim().toLowerCase();

/**
 * Nearest-rank percentile of an ascending list.
 * @param {number[]} sorted
 * @param {number} p 0–100
 */
export function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return /** @type {number} */ (sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]);
}

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts every call at once and times each answer.
 * @template T
 * @param {T[]} inputs
 * @param {(input: T) => string} emailOf
 * @param {(input: T) => Promise<UpsertResult>} call
 * @returns {Promise<Answer[]>}
 */
function allAtOnce(inputs, emailOf, call) {
  return Promise.all(
    inputs.map(async (input) => {
      const started = performance.now();
      const email = emailOf(input);
      try {
        const result = await call(input);
        return /** @type {Answer} */ ({ email, ok: true, result, ms: performance.now() - started });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return /** @type {Answer} */ ({ email, ok: false, error: message, ms: performance.now() - started });
      }
    }),
  );
}

/**
 * Collects the emulator's request log while a phase runs. The log keeps only the last 500
 * entries, so it is polled; entries are objects whose status is filled in when the answer ends.
 * @param {Awaited<ReturnType<typeof startEmulator>>} emulator
 */
function watchRequests(emulator) {
  // Entries from earlier phases are still in the log: only count the ones that are new.
  const earlier = new Set(emulator.requests());
  /** @type {Set<{ status: number }>} */
  const seen = new Set();
  const poll = () =>
    emulator.requests().forEach((entry) => {
      if (!earlier.has(entry)) seen.add(entry);
    });
  const timer = setInterval(poll, 20);
  return {
    stop() {
      clearInterval(timer);
      poll();
      const all = [...seen];
      const ok = all.filter((entry) => entry.status >= 200 && entry.status < 300).length;
      const rateLimited = all.filter((entry) => entry.status === 429).length;
      return { total: all.length, ok, rateLimited, other: all.length - ok - rateLimited };
    },
  };
}

/**
 * Compares the answers of one phase with the table's records.
 * @param {string} phase
 * @param {string} table
 * @param {Answer[]} answers
 * @param {{ id: string, fields: Record<string, unknown> }[]} records
 * @param {number} answerBoundMs
 * @param {number} durationMs
 * @param {PhaseResult['requests']} requests
 * @returns {PhaseResult}
 */
function summarise(phase, table, answers, records, answerBoundMs, durationMs, requests) {
  const emails = new Set(answers.map((answer) => stored(answer.email)));
  const mine = records.filter((record) => emails.has(String(record.fields.Email)));
  const storedEmails = new Set(mine.map((record) => String(record.fields.Email)));
  const byId = new Map(mine.map((record) => [record.id, record]));
  const succeededEmails = new Set(answers.filter((a) => a.ok).map((a) => stored(a.email)));
  /** @type {Record<string, number>} */
  const errors = {};
  for (const answer of answers) if (!answer.ok) errors[answer.error] = (errors[answer.error] ?? 0) + 1;
  const times = answers.map((answer) => answer.ms).sort((a, b) => a - b);
  return {
    phase,
    table,
    attempted: answers.length,
    succeeded: answers.filter((answer) => answer.ok).length,
    failed: answers.filter((answer) => !answer.ok).length,
    stored: mine.length,
    duplicates: mine.length - storedEmails.size,
    // A success whose record is missing, or holds another address, is a lost sign-up.
    lost: answers.filter(
      (answer) => answer.ok && byId.get(answer.result.recordId)?.fields.Email !== stored(answer.email),
    ).length,
    // Every call for the address answered with an error, yet a record exists: the visitor was
    // told to try again and will update it (not a duplicate), but it is reported.
    storedDespiteError: [...storedEmails].filter((email) => !succeededEmails.has(email)).length,
    overBound: answers.filter((answer) => answer.ms > answerBoundMs).length,
    p50: Math.round(percentile(times, 50)),
    p95: Math.round(percentile(times, 95)),
    max: Math.round(times[times.length - 1] ?? 0),
    durationMs: Math.round(durationMs),
    requests,
    errors,
  };
}

/**
 * Runs the three phases against a fresh emulator and reports each.
 * @param {LoadOptions} options
 * @returns {Promise<LoadReport>}
 */
export async function runLoad({
  storage,
  signups = 100,
  sameEmail = 10,
  quotes = 50,
  rateLimitPerSecond = AIRTABLE_RATE_LIMIT_PER_SECOND,
  rateLimitPenaltyMs = 0,
  answerBoundMs = DEFAULT_ANSWER_BOUND_MS,
  retry,
  pauseBetweenPhasesMs = 1_100,
}) {
  const emulator = await startEmulator({ port: 0, rateLimitPerSecond, rateLimitPenaltyMs });
  /** @type {StorageOptions} */
  const options = {
    answerBoundMs,
    config: { apiKey: emulator.apiKey, baseId: emulator.baseId, endpointUrl: emulator.url },
    ...(retry ? { retry } : {}),
  };

  /**
   * @template T
   * @param {string} phase
   * @param {string} table
   * @param {T[]} inputs
   * @param {(input: T) => string} emailOf
   * @param {(input: T) => Promise<UpsertResult>} call
   */
  const runPhase = async (phase, table, inputs, emailOf, call) => {
    const watch = watchRequests(emulator);
    const started = performance.now();
    const answers = await allAtOnce(inputs, emailOf, call);
    const durationMs = performance.now() - started;
    return summarise(phase, table, answers, emulator.records(table), answerBoundMs, durationMs, watch.stop());
  };

  try {
    /** @type {PhaseResult[]} */
    const phases = [];

    /** @type {WaitlistEntryInput[]} */
    const signupInputs = Array.from({ length: signups }, (_, i) => ({
      email: `parent.${String(i + 1).padStart(3, '0')}@example.com`,
      interests: i % 3 === 0 ? [] : ['use'],
    }));
    phases.push(
      await runPhase(
        `A: ${signups} distinct sign-ups`,
        'Waitlist',
        signupInputs,
        (input) => input.email,
        (input) => storage.upsertWaitlistEntry(input, options),
      ),
    );

    await sleep(pauseBetweenPhasesMs);
    // The same address as a visitor might type it on repeated clicks: case and spaces vary.
    const spellings = ['Same.Parent@Example.com', 'same.parent@example.com', '  SAME.PARENT@EXAMPLE.COM '];
    /** @type {WaitlistEntryInput[]} */
    const sameInputs = Array.from({ length: sameEmail }, (_, i) => ({
      email: /** @type {string} */ (spellings[i % spellings.length]),
      interests: /** @type {string[]} */ ([['use'], ['invest'], ['partner']][i % 3]),
    }));
    phases.push(
      await runPhase(
        `B: 1 email x ${sameEmail}`,
        'Waitlist',
        sameInputs,
        (input) => input.email,
        (input) => storage.upsertWaitlistEntry(input, options),
      ),
    );

    await sleep(pauseBetweenPhasesMs);
    /** @type {QuoteRequestInput[]} */
    const quoteInputs = Array.from({ length: quotes }, (_, i) => ({
      email: `head.${String(i + 1).padStart(3, '0')}@school${i + 1}.sch.uk`,
      contactName: `Head Teacher ${i + 1}`,
      schoolName: `Primary School ${i + 1}`,
      role: 'Head teacher',
      useCases: i % 2 === 0 ? ['support-learners'] : ['practice-speaking', 'other'],
      otherUseCase: i % 2 === 0 ? '' : 'assemblies',
    }));
    phases.push(
      await runPhase(
        `C: ${quotes} quote requests`,
        'School Quotes',
        quoteInputs,
        (input) => input.email,
        (input) => storage.upsertQuoteRequest(input, options),
      ),
    );

    return { phases, rateLimitPerSecond, rateLimitPenaltyMs, answerBoundMs };
  } finally {
    await emulator.close();
  }
}

/**
 * The one table `npm run loadtest` prints.
 * @param {PhaseResult[]} phases
 */
export function formatTable(phases) {
  const header = [
    'phase',
    'attempted',
    'succeeded',
    'answered-with-error',
    'stored',
    'duplicates',
    'lost',
    'p50 ms',
    'p95 ms',
    'max ms',
  ];
  const rows = phases.map((p) => [
    p.phase,
    ...[p.attempted, p.succeeded, p.failed, p.stored, p.duplicates, p.lost, p.p50, p.p95, p.max].map(String),
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  /** @param {string[]} cells */
  const line = (cells) =>
    `| ${cells
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join(' | ')} |`;
  // Markdown alignment: the phase column left, the numbers right.
  const rule = `|${widths
    .map((width, column) => (column === 0 ? `:${'-'.repeat(width + 1)}` : `${'-'.repeat(width + 1)}:`))
    .join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}
