// The launch-day rush (README.md). direct: the page through the REAL storage layer (upsert.ts →
// airtable.js, production 30 s answer bound); queued: the Worker's door (JSON) → Queue → one paced
// consumer, with mail as deployed (docs/consent.md).
import { setTimeout as sleep } from 'node:timers/promises';
import { normaliseEmail } from '#src/lib/forms/submission.ts';
import { upsertQuoteRequest, upsertWaitlistEntry, type StorageOptions } from '#src/lib/airtable/upsert.ts';
import {
  FORMS,
  formTeams,
  type FormName,
  QUOTE_FORM,
  type QuotePosted,
  WAITLIST_FORM,
  type WaitlistPosted,
} from '#src/lib/forms/forms.ts';
import type { FormContract } from '#src/lib/forms/contract.ts';
import { TEAM_NOTICES_PER_HOUR } from '#src/server/mail/team-inbox.ts';
import { EMAIL_COPY } from '#src/config/messages.ts';
import { AIRTABLE_RATE_LIMIT_PER_SECOND } from '#scripts/airtable-emulator/emulator.ts';
import { startAirtableThread } from './airtable-thread.ts';
import { startClientSpread } from './client-spread.ts';
import { startWorker } from './worker-process.ts';
import { enhancedPost } from '#tests/integration/support/door.ts';

export type RushMode = 'direct' | 'queued';
export const RUSH_MODES: readonly RushMode[] = ['direct', 'queued'];

export interface RushOptions {
  mode: RushMode;
  signups: number;
  quotes: number;
  /** Re-submissions of earlier emails as typed again (other case, spaces). */
  repeats: number;
  overMs: number;
  /** Airtable: 30 s. */
  penaltyMs: number;
  /** Airtable: 5, the default. */
  rateLimitPerSecond?: number;
  errorRate?: number;
  dropRate?: number;
  /** Production: 30 s. */
  answerBoundMs?: number;
  /** Direct mode (the integration test's shorter ones). */
  retry?: StorageOptions['retry'];
  settleTimeoutMs?: number;
  /** Stop once nothing was stored or sent this long (busy machines only slow). Default: 2 penalties + 1 min. */
  settleStallMs?: number;
  /** Queued mode: one attacking client keeps this many creates in flight. */
  attackInFlight?: number;
  /** Queued mode: the desk and the mail in a `wrangler dev` of their own (worker-process.ts). */
  deskApart?: boolean;
  log?: (line: string) => void;
}

const KINDS = ['waitlist', 'quote'] as const satisfies readonly FormName[];
type Submission = { at: number; kind: (typeof KINDS)[number]; email: string };

/** The subject of the email a new address of `form` gets first, as its contract's conduct says. */
function firstEmailSubject({ conduct }: FormContract): string | undefined {
  if (conduct.confirms) return EMAIL_COPY.confirm.subject;
  return conduct.acknowledgement && EMAIL_COPY[conduct.acknowledgement.copy].subject;
}

/** Whether the team hears of each new record of `form`. */
const tellsTeam = ({ conduct }: FormContract) => conduct.tellsTeam !== undefined;
/** The teams' addresses as the load test's Worker has them (each setting unset: its default). */
const teamAddresses = new Set(formTeams().map((team) => team.defaultAddress));

/** Originals evenly spread, quotes among the sign-ups (not one form first), repeats after theirs. */
function schedule(options: Pick<RushOptions, 'signups' | 'quotes' | 'repeats' | 'overMs'>, token: string) {
  const placed: { place: number; submission: Submission }[] = [];
  for (let i = 0; i < options.signups; i += 1)
    placed.push({
      place: (i + 0.5) / options.signups,
      submission: { at: 0, kind: 'waitlist', email: `rush.s${i}.${token}@example.com` },
    });
  for (let i = 0; i < options.quotes; i += 1)
    placed.push({
      place: (i + 0.5) / options.quotes,
      submission: { at: 0, kind: 'quote', email: `rush.q${i}.${token}@school.sch.uk` },
    });
  const originals = placed.sort((a, b) => a.place - b.place).map(({ submission }) => submission);
  const step = options.overMs / Math.max(1, originals.length + options.repeats);
  const all: Submission[] = [];
  const repeatEvery = Math.max(1, Math.floor(originals.length / Math.max(1, options.repeats)));
  let repeats = 0;
  originals.forEach((original, index) => {
    all.push({ ...original, at: all.length * step });
    if (repeats < options.repeats && index % repeatEvery === repeatEvery - 1) {
      const earlier = originals[Math.floor(index / 2)] ?? original;
      all.push({ kind: earlier.kind, email: `  ${earlier.email.toUpperCase()} `, at: all.length * step });
      repeats += 1;
    }
  });
  return all;
}

/** Nearest-rank percentile of an ascending list (p: 0–100). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? 0;
}

function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as
    { statusCode?: number; error?: string; code?: string; message?: string } | undefined;
  const detail = cause
    ? [cause.statusCode, cause.error ?? cause.code, cause.message].filter(Boolean).join(' ')
    : '';
  return detail ? `${error.message} (${detail.slice(0, 120)})` : error.message;
}

/** Polls `countLeft` until 0, the deadline, or no fall for `stallMs`, logging every 15 s. */
async function waitWhileProgressing(
  countLeft: () => number | Promise<number>,
  wait: { deadline: number; stallMs: number; log: (left: number) => void },
): Promise<number> {
  let left = await countLeft();
  let fewest = left;
  let lastProgress = performance.now();
  let lastLog = Number.NEGATIVE_INFINITY;
  while (left > 0 && performance.now() < wait.deadline && performance.now() - lastProgress <= wait.stallMs) {
    if (performance.now() - lastLog >= 15_000) {
      lastLog = performance.now();
      wait.log(left);
    }
    // Each count blocks the emulator's thread; once a second will do (times come from createdTime).
    await sleep(1_000);
    left = await countLeft();
    if (left < fewest) [fewest, lastProgress] = [left, performance.now()];
  }
  return left;
}

/** One client keeping `inFlight` sign-ups going until stopped. */
function floodFrom(url: string, inFlight: number) {
  let running = true;
  const counts = { sent: 0, accepted: 0 };
  const started = performance.now();
  const token = Date.now().toString(36);
  const workers = Array.from({ length: inFlight }, async () => {
    while (running) {
      const email = `attack.${(counts.sent += 1)}.${token}@example.com`;
      const response = await enhancedPost(url, { email, interests: ['use'] }).catch(() => null);
      if (response?.ok) counts.accepted += 1;
      await response?.arrayBuffer();
    }
  });
  return async () => {
    running = false;
    await Promise.all(workers);
    return { ...counts, durationMs: performance.now() - started };
  };
}

/** `settledMs`: from the last submission to the last record stored (null: not all were). */
export type RushReport = Awaited<ReturnType<typeof runRush>>;

export async function runRush(options: RushOptions) {
  const log = options.log ?? (() => undefined);
  const airtable = await startAirtableThread({
    rateLimitPerSecond: options.rateLimitPerSecond ?? AIRTABLE_RATE_LIMIT_PER_SECOND,
    rateLimitPenaltyMs: options.penaltyMs,
    errorRate: options.errorRate ?? 0,
    dropRate: options.dropRate ?? 0,
  });
  const closers: (() => Promise<void>)[] = [() => airtable.close()];
  let stopAttack: ReturnType<typeof floodFrom> | undefined;
  let sentMail: (() => { to: string; subject: string; at: number }[]) | undefined;
  let workerProcesses = 0;
  let visitorsPastProxy = false;
  let mailQueued = 0;
  try {
    // Queued: each visitor from an address of its own (the site limits per address), as in production.
    let doorFor: ((visitor: number, path: string) => string) | undefined;
    let began = 0;
    if (options.mode === 'queued') {
      const worker = await startWorker({
        deskApart: options.deskApart,
        vars: {
          AIRTABLE_API_KEY: airtable.apiKey,
          AIRTABLE_BASE_ID: airtable.baseId,
          AIRTABLE_ENDPOINT_URL: airtable.url,
        },
        onLog: (line) => {
          const queued = /(\d+) emails queued/.exec(line);
          if (queued) mailQueued += Number(queued[1]);
          // Stamped with the seconds since the burst began, to place a round in the run.
          const at = began > 0 ? `+${((Date.now() - began) / 1000).toFixed(1)} s ` : '';
          if (/Airtable (writer|relay)|rror/.test(line)) log(`  worker: ${at}${line.trim()}`);
        },
      });
      closers.unshift(worker.close);
      sentMail = worker.sentEmails;
      workerProcesses = worker.processes;
      visitorsPastProxy = worker.entryUrl !== worker.url;
      const spread = await startClientSpread(worker.entryUrl);
      closers.unshift(spread.close);
      doorFor = spread.urlFor;
      // The attacker as visitor 9,999,999: an address no real visitor of a run has.
      if (options.attackInFlight)
        stopAttack = floodFrom(spread.urlFor(9_999_999, WAITLIST_FORM.path), options.attackInFlight);
    }
    const storage: StorageOptions = {
      config: { apiKey: airtable.apiKey, baseId: airtable.baseId, endpointUrl: airtable.url },
      ...(options.retry ? { retry: options.retry } : {}),
      answerBoundMs: options.answerBoundMs ?? 30_000,
    };
    const waitlistPost = (email: string): WaitlistPosted => ({ email, interests: ['use'] });
    const quotePost = (email: string): QuotePosted => ({
      email,
      contactName: 'Rush Test',
      schoolName: 'Load School',
      role: '',
      useCases: ['support-learners'],
      otherUseCase: '',
    });
    const submit = async ({ kind, email }: Submission, visitor: number): Promise<unknown> => {
      if (!doorFor)
        return kind === 'waitlist'
          ? upsertWaitlistEntry(waitlistPost(email), storage)
          : upsertQuoteRequest(quotePost(email), storage);
      const [form, posted] =
        kind === 'waitlist' ? [WAITLIST_FORM, waitlistPost(email)] : [QUOTE_FORM, quotePost(email)];
      const response = await enhancedPost(doorFor(visitor, form.path), posted);
      const answer = (await response.json().catch(() => null)) as { success?: unknown } | null;
      if (!response.ok || answer?.success !== true) throw new Error(`door answered ${response.status}`);
    };
    const plan = schedule(options, Date.now().toString(36));
    log(`${options.mode}: ${plan.length} submissions over ${Math.round(options.overMs / 1000)} s…`);

    // `doneAt`: ms since epoch, the clock of the emulator's records and the mail's stamps.
    const answers: (Omit<Submission, 'at'> & { ms: number; doneAt: number; error: string | undefined })[] =
      [];
    const started = performance.now();
    const startedAt = Date.now();
    began = startedAt;
    await Promise.all(
      plan.map(async (submission, visitor) => {
        const wait = submission.at - (performance.now() - started);
        if (wait > 0) await sleep(wait);
        const sent = performance.now();
        const error = await submit(submission, visitor).then(() => undefined, describeFailure);
        answers.push({
          ms: performance.now() - sent,
          doneAt: Date.now(),
          email: submission.email,
          kind: submission.kind,
          error,
        });
      }),
    );
    const attackReport = await stopAttack?.();
    const lastSubmission = performance.now();
    log(
      `${options.mode}: answered in ${Math.round((lastSubmission - started) / 1000)} s; waiting for the store…`,
    );

    const succeeded = answers.filter((answer) => answer.error === undefined);
    const expectedIn = (kind: Submission['kind']) =>
      new Set(succeeded.filter((a) => a.kind === kind).map((a) => normaliseEmail(a.email)));
    const expectedByTable = { Waitlist: expectedIn('waitlist'), 'School Quotes': expectedIn('quote') };
    const expected = expectedByTable.Waitlist.size + expectedByTable['School Quotes'].size;
    const storedIn = async (table: string) => (await airtable.rows(table)).map((row) => row.email);
    const isAttack = (email: string) => email.startsWith('attack.');
    await airtable.expect(
      Object.fromEntries(Object.entries(expectedByTable).map(([table, emails]) => [table, [...emails]])),
    );
    const settleDeadline = lastSubmission + (options.settleTimeoutMs ?? 10 * 60_000);
    const stallMs = options.settleStallMs ?? 2 * options.penaltyMs + 60_000;
    // Direct mode stores as it answers: only the queue is waited for.
    const missingLeft = await waitWhileProgressing(airtable.missing, {
      deadline: options.mode === 'queued' ? settleDeadline : 0,
      stallMs,
      log: (left) => log(`${options.mode}: ${left} records still to store…`),
    });
    const settledMs = missingLeft === 0 ? performance.now() - lastSubmission : null;
    if (missingLeft > 0 && options.mode === 'queued')
      log(`${options.mode}: ${missingLeft} records not stored`);

    // The emails follow their records: wait (within the same deadline) for each new address's first
    // email, as its form's contract says (a confirmation or an acknowledgement), and for the team's
    // notices up to the hour's ceiling (past it they wait for the hour's digest).
    const firstEmails = () => {
      const counts = new Map<string, number>();
      for (const { to, subject } of sentMail?.() ?? []) {
        const key = `${subject}\n${normaliseEmail(to)}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      return counts;
    };
    const expectedFirst = KINDS.flatMap((kind) => {
      const subject = firstEmailSubject(FORMS[kind]);
      return subject === undefined ? [] : [...expectedIn(kind)].map((email) => `${subject}\n${email}`);
    });
    const teamNoticesDue = KINDS.filter((kind) => tellsTeam(FORMS[kind])).reduce(
      (due, kind) => due + expectedIn(kind).size,
      0,
    );
    const teamNotices = () =>
      (sentMail?.() ?? []).filter(({ to }) => teamAddresses.has(normaliseEmail(to))).length;
    const firstUnsent = (counts = firstEmails()) => expectedFirst.filter((key) => !counts.has(key)).length;
    const unsent = () =>
      firstUnsent() + Math.max(0, Math.min(teamNoticesDue, TEAM_NOTICES_PER_HOUR) - teamNotices());
    let mail;
    if (sentMail) {
      const unsentLeft = await waitWhileProgressing(unsent, {
        deadline: settleDeadline,
        stallMs,
        log: (left) => log(`${options.mode}: ${left} emails still to send…`),
      });
      const counts = firstEmails();
      // From each new address's first answer to its first confirmation leaving the Worker.
      const answeredAt = new Map<string, number>();
      for (const answer of answers)
        if (answer.kind === 'waitlist' && answer.error === undefined) {
          const email = normaliseEmail(answer.email);
          answeredAt.set(email, Math.min(answeredAt.get(email) ?? Infinity, answer.doneAt));
        }
      const confirmedAt = new Map<string, number>();
      for (const { to, subject, at } of sentMail())
        if (subject === EMAIL_COPY.confirm.subject && !confirmedAt.has(normaliseEmail(to)))
          confirmedAt.set(normaliseEmail(to), at);
      const waits = [...confirmedAt]
        .flatMap(([email, at]) => {
          const answered = answeredAt.get(email);
          return answered === undefined ? [] : [at - answered];
        })
        .sort((a, b) => a - b);
      mail = {
        queued: mailQueued,
        sent: sentMail().length,
        confirmationsMissing: firstUnsent(counts),
        confirmationsDoubled: expectedFirst.filter((key) => (counts.get(key) ?? 0) > 1).length,
        /** Emails still unsent when the wait ended (first emails and the team's notices). */
        unsent: unsentLeft,
        /** Answer → confirmation leaving, over the new addresses confirmed. */
        confirmP50Ms: percentile(waits, 50),
        confirmP95Ms: percentile(waits, 95),
        confirmMaxMs: waits.at(-1) ?? 0,
        /** The last confirmation left this long after the burst began. */
        lastConfirmationMs: confirmedAt.size > 0 ? Math.max(...confirmedAt.values()) - startedAt : null,
      };
      log(`${options.mode}: ${mail.sent} emails sent (${mail.queued} queued)`);
    }

    // Each table's stored emails, the attacker's left out.
    const byTable = await Promise.all(
      Object.keys(expectedByTable).map(async (table) => (await storedIn(table)).filter((e) => !isAttack(e))),
    );
    const duplicates = byTable.reduce((sum, emails) => sum + emails.length - new Set(emails).size, 0);
    const stored = byTable.reduce((sum, emails) => sum + new Set(emails).size, 0);
    const times = answers.map((answer) => answer.ms).sort((a, b) => a - b);
    const counts = await airtable.counts();
    const errors: Record<string, number> = {};
    for (const { error } of answers) if (error !== undefined) errors[error] = (errors[error] ?? 0) + 1;
    const attackStored = (await storedIn('Waitlist')).filter(isAttack).length;
    const writingSeconds = Math.max(1, (lastSubmission - started + (settledMs ?? 0)) / 1000);
    // When each expected address's record was created (the emulator's createdTime), the last of them.
    const createdAt = new Map<string, number>();
    for (const table of Object.keys(expectedByTable))
      for (const { email, createdTime } of await airtable.rows(table)) {
        const at = Date.parse(createdTime ?? '');
        if (Number.isFinite(at))
          createdAt.set(`${table}:${email}`, Math.min(createdAt.get(`${table}:${email}`) ?? at, at));
      }
    const storedTimes = Object.entries(expectedByTable).flatMap(([table, emails]) =>
      [...emails].flatMap((email) => {
        const at = createdAt.get(`${table}:${email}`);
        return at === undefined ? [] : [at];
      }),
    );
    const lastStoredMs =
      missingLeft === 0 && storedTimes.length > 0 ? Math.max(...storedTimes) - startedAt : null;
    // Airtable's budget over the time requests went to it: requests / (5 × seconds from the first to the last).
    const requestSeconds = (counts.lastAt - counts.firstAt) / 1000;
    const budgetUsed =
      requestSeconds > 0
        ? counts.requests / ((options.rateLimitPerSecond ?? AIRTABLE_RATE_LIMIT_PER_SECOND) * requestSeconds)
        : 0;
    return {
      mode: options.mode,
      submitted: plan.length,
      succeeded: succeeded.length,
      failed: answers.length - succeeded.length,
      p50Ms: percentile(times, 50),
      p95Ms: percentile(times, 95),
      p99Ms: percentile(times, 99),
      // The attacker's creates: sent, answered 200, and stored (attack runs only).
      ...(attackReport && {
        attack: {
          sent: attackReport.sent,
          accepted: attackReport.accepted,
          stored: attackStored,
          perMinuteStored: attackStored / Math.max(1 / 60, attackReport.durationMs / 60_000),
        },
      }),
      stored,
      expected,
      duplicates,
      lost: await airtable.missing(),
      airtableRequests: counts.requests,
      rateLimited: counts.byStatus['429'] ?? 0,
      before429: counts.before429,
      peakRequestsPerSecond: counts.peakPerSecond,
      tightestSpanMs: counts.tightestSpanMs,
      tightestAtMs: counts.tightestAtMs,
      spansUnderPacerSpan: counts.spansUnderPacerSpan,
      requestsPerTenSeconds: counts.perTenSeconds,
      requestsByKind: counts.byKind,
      settledMs,
      /** `wrangler dev` processes (queued mode): 2 with the desk apart. */
      workerProcesses,
      /** The visitors went straight to the Worker's workerd, past wrangler's proxy (worker-entry.ts). */
      visitorsPastProxy,
      /** After the burst began (null: not all were stored). */
      lastStoredMs,
      budgetUsed,
      recordsPerRequest: counts.requests > 0 ? stored / counts.requests : 0,
      requestsPerSecond: counts.requests / writingSeconds,
      errors,
      ...(mail ? { mail } : {}),
    };
  } finally {
    for (const close of closers) await close().catch(() => undefined);
  }
}

/** Whether every new address got exactly one first email (confirmation or acknowledgement), or what went wrong. */
export function confirmationVerdict(mail: { confirmationsMissing: number; confirmationsDoubled: number }) {
  if (mail.confirmationsMissing === 0 && mail.confirmationsDoubled === 0) return 'yes';
  return `no: ${mail.confirmationsMissing} without, ${mail.confirmationsDoubled} with more than one`;
}

/** One row per report; each column: its header and what it shows. */
function markdownTable(
  reports: readonly RushReport[],
  columns: [string, (r: RushReport) => unknown][],
): string {
  const rows = [columns.map(([header]) => header), columns.map(() => '---')];
  for (const report of reports) rows.push(columns.map(([, cell]) => String(cell(report))));
  return rows.map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

const seconds = (ms: number | null) => (ms === null ? 'never' : `${(ms / 1000).toFixed(1)} s`);
const ms = (value: number) => `${Math.round(value)} ms`;
const percent = (share: number) => `${Math.round(share * 100)} %`;

/** One Markdown table, one row per run (times after the burst began, unless said). */
export function formatRushTable(reports: readonly RushReport[]): string {
  return markdownTable(reports, [
    ['mode', (r) => r.mode],
    ['submitted', (r) => r.submitted],
    ['answered success', (r) => r.succeeded],
    ['answered error', (r) => r.failed],
    ['p50 answer', (r) => ms(r.p50Ms)],
    ['p99 answer', (r) => ms(r.p99Ms)],
    ['stored', (r) => r.stored],
    ['last record stored', (r) => (r.mode === 'queued' ? seconds(r.lastStoredMs) : 'when answered')],
    ['records / request', (r) => r.recordsPerRequest.toFixed(2)],
    ['Airtable requests', (r) => r.airtableRequests],
    ['budget used', (r) => percent(r.budgetUsed)],
    ['429s', (r) => r.rateLimited],
    ['duplicates', (r) => r.duplicates],
    ['lost', (r) => r.lost],
    [
      'answer → confirmation p50 / p95 / max',
      (r) =>
        r.mail
          ? `${seconds(r.mail.confirmP50Ms)} / ${seconds(r.mail.confirmP95Ms)} / ${seconds(r.mail.confirmMaxMs)}`
          : 'n/a',
    ],
    ['last confirmation', (r) => (r.mail ? seconds(r.mail.lastConfirmationMs) : 'n/a')],
    ['emails sent', (r) => r.mail?.sent ?? 'n/a'],
    ['one first email per new address', (r) => (r.mail ? confirmationVerdict(r.mail) : 'n/a (no server)')],
  ]);
}

/** The attack runs as one table: what the flooding client got, and what the real visitors did. */
export function formatAttackTable(reports: readonly RushReport[]): string {
  return markdownTable(reports, [
    ['mode', (r) => r.mode],
    ['attacker sent', (r) => r.attack?.sent ?? 0],
    ['attacker accepted', (r) => r.attack?.accepted ?? 0],
    ['attacker stored', (r) => r.attack?.stored ?? 0],
    ['attacker stored / min', (r) => (r.attack?.perMinuteStored ?? 0).toFixed(1)],
    ['real visitors', (r) => r.submitted],
    ['real visitors stored', (r) => r.stored],
    ['success rate', (r) => `${((100 * r.succeeded) / Math.max(1, r.submitted)).toFixed(1)} %`],
    ['p95 answer', (r) => ms(r.p95Ms)],
  ]);
}
