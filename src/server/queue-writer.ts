/**
 * The one paced writer: the consumer of the SUBMISSIONS queue (max concurrency 1, wrangler.jsonc)
 * is the only thing that talks to Airtable in queued mode. Per batch it
 *
 * - merges submissions for the same email and table (the later one wins, as two submits in a
 *   row would: later cells over earlier ones, a quote's Other Use Case cleared if the later one
 *   has none, a default interest only where neither chose: mergeLaterSubmission);
 * - looks up to 100 emails per table with one formula;
 * - creates or updates up to 10 records per request, with the spec's field rules;
 * - never starts more than 5 requests per second, and stays off Airtable for 30 s after a 429
 *   (the pacer).
 *
 * Acknowledged messages are stored; a transient failure (429, 5xx, timeout, dropped connection)
 * is retried with backoff; a permanent one (say, a field the base does not have) is retried
 * record by record to find the culprit, whose message goes to the dead-letter queue. Every
 * retry starts with a fresh lookup, so a create whose answer was lost becomes an update, never
 * a second record.
 */
import { normaliseEmail, QUOTE_FIELDS } from '#src/lib/airtable/fields.ts';
import { submissionKey } from '#src/lib/airtable/one-at-a-time.ts';
import { AIRTABLE_SCHEMA } from '#src/lib/airtable/schema.ts';
import {
  AIRTABLE_MAX_RECORDS_PER_WRITE,
  type AirtableUpstream,
  createAirtableUpstream,
  UpstreamError,
} from './airtable-upstream.ts';
import { AIRTABLE_RATE_LIMIT_PENALTY_MS, createPacer, RATE_WINDOW_MS, type Pacer } from './pacer.ts';
import { type RelayEnv, upstreamSettings } from './stores.ts';
import { DEAD_LETTER_QUEUE_SUFFIX, type DeadLetterStore, keepDeadLetter } from './dead-letters.ts';
import {
  cellsForCreate,
  cellsForUpdate,
  isRelayTable,
  mergeLaterSubmission,
  type Submission,
} from './submission.ts';

/** The parts of Cloudflare's MessageBatch the writer uses. */
export interface QueueMessage {
  readonly id: string;
  readonly body: unknown;
  readonly attempts: number;
  ack(): void;
  retry(options?: { delaySeconds?: number }): void;
}
export interface QueueBatch {
  readonly queue: string;
  readonly messages: readonly QueueMessage[];
}

/** Most emails in one lookup formula. */
export const EMAILS_PER_LOOKUP = 100;
/** Longest any one request may take before it counts as failed. */
const REQUEST_BOUND_MS = 30_000;
/** Backoff for transient failures, in seconds: 2, 4, 8 … capped at 5 minutes. */
export function retryDelaySeconds(attempts: number, rateLimited: boolean): number {
  if (rateLimited) return Math.ceil(AIRTABLE_RATE_LIMIT_PENALTY_MS / 1000);
  return Math.min(300, 2 ** Math.max(1, attempts));
}

export interface WriterOptions {
  fetch?: typeof fetch;
  pacer?: Pacer;
  now?: () => number;
  /** Where permanently failing submissions go (the dead-letter queue's producer). */
  deadLetter?: (submission: Submission, reason: string) => Promise<void>;
  log?: (message: string) => void;
}

/** What one batch did, for logs and the load test. */
export interface BatchReport {
  stored: number;
  created: number;
  updated: number;
  retried: number;
  deadLettered: number;
  requests: number;
}

export function isSubmission(body: unknown): body is Submission {
  if (typeof body !== 'object' || body === null) return false;
  const { table, email, cells, acceptedAt, defaults } = body as Partial<Submission>;
  return (
    typeof table === 'string' &&
    isRelayTable(table) &&
    typeof email === 'string' &&
    typeof acceptedAt === 'string' &&
    typeof cells === 'object' &&
    cells !== null &&
    (defaults === undefined || (typeof defaults === 'object' && defaults !== null))
  );
}

/** A table's submissions for one email, merged in the order they were accepted. */
interface Merged {
  submission: Submission;
  messages: QueueMessage[];
}

/** Merges submissions per table and email: later cells over earlier ones (submission.ts's rule). */
export function mergeSubmissions(
  entries: readonly { submission: Submission; message: QueueMessage }[],
): Merged[] {
  const byKey = new Map<string, Merged>();
  const ordered = [...entries].sort((a, b) => a.submission.acceptedAt.localeCompare(b.submission.acceptedAt));
  for (const { submission, message } of ordered) {
    const email = normaliseEmail(submission.email);
    const key = submissionKey(submission.table, email);
    const earlier = byKey.get(key);
    if (!earlier) {
      byKey.set(key, { submission: { ...submission, email }, messages: [message] });
      continue;
    }
    earlier.submission = mergeLaterSubmission(earlier.submission, { ...submission, email });
    earlier.messages.push(message);
  }
  return [...byKey.values()];
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}

// The consumer runs with max concurrency 1: one pacer per isolate paces every request it sends.
let sharedPacer: Pacer | undefined;

/**
 * The isolate's one pacer for Airtable, shared by the queue's writer and the retention job.
 * A new isolate does not know what the last one sent: it waits one window before its first request.
 */
export function isolatePacer(): Pacer {
  return (sharedPacer ??= createPacer({ startClosedForMs: RATE_WINDOW_MS }));
}

export function createQueueWriter(env: RelayEnv, options: WriterOptions = {}) {
  const now = options.now ?? Date.now;
  const pacer = options.pacer ?? isolatePacer();
  const log = options.log ?? ((message: string) => console.log(message));
  let requests = 0;
  const countingFetch: typeof fetch = (input, init) => {
    requests += 1;
    return (options.fetch ?? fetch)(input, init);
  };
  const upstream: AirtableUpstream = createAirtableUpstream(upstreamSettings(env), {
    pacer,
    fetch: countingFetch,
    now,
  });
  const deadline = () => now() + REQUEST_BOUND_MS + pacer.closedFor();

  /** Writes one part (all creates or all updates, at most 10) in one request. */
  async function writePart(
    table: string,
    part: readonly Merged[],
    existing: Map<string, string>,
    report: BatchReport,
  ) {
    const at = new Date(now());
    const [first] = part;
    if (!first) return;
    if (existing.has(first.submission.email)) {
      await upstream.update(
        table,
        part.map((item) => ({
          id: existing.get(item.submission.email) ?? '',
          fields: cellsForUpdate(item.submission, at),
        })),
        deadline(),
      );
      settle(part, report, 'updated');
    } else {
      await upstream.create(
        table,
        part.map((item) => cellsForCreate(item.submission, at)),
        deadline(),
      );
      settle(part, report, 'created');
    }
  }

  function settle(part: readonly Merged[], report: BatchReport, kind: 'created' | 'updated') {
    for (const item of part) {
      for (const message of item.messages) message.ack();
      report[kind] += 1;
      report.stored += 1;
    }
  }

  async function lookUp(table: string, group: readonly Merged[]): Promise<Map<string, string>> {
    const existing = new Map<string, string>();
    for (const part of chunks(group, EMAILS_PER_LOOKUP)) {
      const records = await upstream.findByEmails(
        table,
        part.map((item) => item.submission.email),
        deadline(),
      );
      for (const record of records) {
        const email = record.fields[QUOTE_FIELDS.email];
        if (typeof email === 'string' && !existing.has(normaliseEmail(email)))
          existing.set(normaliseEmail(email), record.id);
      }
    }
    return existing;
  }

  async function retryOrDeadLetter(items: readonly Merged[], error: unknown, report: BatchReport) {
    const upstreamError = error instanceof UpstreamError ? error : undefined;
    if (!upstreamError || upstreamError.transient) {
      for (const item of items) {
        for (const message of item.messages) {
          message.retry({ delaySeconds: retryDelaySeconds(message.attempts, upstreamError?.status === 429) });
          report.retried += 1;
        }
      }
      return;
    }
    // Permanent: with one record the culprit is known; with more, try each on its own.
    if (items.length > 1) {
      for (const item of items) await writeItems([item], report);
      return;
    }
    for (const item of items) {
      const reason = `${upstreamError.status} ${upstreamError.type}: ${upstreamError.message}`;
      if (options.deadLetter) {
        await options.deadLetter(item.submission, reason);
        for (const message of item.messages) message.ack();
      } else {
        // No dead-letter producer bound: retries run out and the queue moves it to its DLQ.
        for (const message of item.messages)
          message.retry({ delaySeconds: retryDelaySeconds(message.attempts, false) });
      }
      report.deadLettered += 1;
      log(
        `Airtable writer: a ${item.submission.table} submission failed for good (${reason}); sent to dead letters`,
      );
    }
  }

  async function writeItems(items: readonly Merged[], report: BatchReport) {
    const table = items[0]?.submission.table;
    if (!table) return;
    let existing: Map<string, string>;
    try {
      existing = await lookUp(table, items);
    } catch (error) {
      await retryOrDeadLetter(items, error, report);
      return;
    }
    // Creates, then updates, 10 per request, so one failing request only affects its own records.
    const creates = items.filter((item) => !existing.has(item.submission.email));
    const updates = items.filter((item) => existing.has(item.submission.email));
    const parts = [
      ...chunks(creates, AIRTABLE_MAX_RECORDS_PER_WRITE),
      ...chunks(updates, AIRTABLE_MAX_RECORDS_PER_WRITE),
    ];
    for (const part of parts) {
      try {
        await writePart(table, part, existing, report);
      } catch (error) {
        await retryOrDeadLetter(part, error, report);
      }
    }
  }

  return {
    /** Writes one batch of queue messages; every message is acked or retried before it returns. */
    async writeBatch(batch: QueueBatch): Promise<BatchReport> {
      requests = 0;
      const report: BatchReport = {
        stored: 0,
        created: 0,
        updated: 0,
        retried: 0,
        deadLettered: 0,
        requests: 0,
      };
      const entries: { submission: Submission; message: QueueMessage }[] = [];
      for (const message of batch.messages) {
        if (isSubmission(message.body)) entries.push({ submission: message.body, message });
        else {
          log('Airtable writer: dropped a queue message that is not a submission');
          message.ack();
        }
      }
      const merged = mergeSubmissions(entries);
      for (const table of [AIRTABLE_SCHEMA.waitlist.name, AIRTABLE_SCHEMA.quotes.name]) {
        const group = merged.filter((item) => item.submission.table === table);
        if (group.length > 0) await writeItems(group, report);
      }
      report.requests = requests;
      return report;
    },
  };
}

/** The Worker's queue handler: the submissions queue is written; its DLQ is kept as dead letters. */
export async function writeQueuedBatch(
  batch: QueueBatch,
  env: RelayEnv & { DEAD_LETTERS?: DeadLetterStore },
  options: WriterOptions = {},
): Promise<BatchReport | undefined> {
  const log = options.log ?? ((message: string) => console.log(message));
  const now = options.now ?? Date.now;
  const store = env.DEAD_LETTERS;
  if (batch.queue.endsWith(DEAD_LETTER_QUEUE_SUFFIX)) {
    // Messages whose retries ran out: keep them for the owner to list and replay.
    for (const message of batch.messages) {
      if (store && isSubmission(message.body)) {
        await keepDeadLetter(store, {
          submission: message.body,
          reason: 'retries exhausted',
          failedAt: new Date(now()).toISOString(),
        });
        log('Airtable writer: a submission ran out of retries; kept as a dead letter');
      }
      message.ack();
    }
    return undefined;
  }
  const writer = createQueueWriter(env, {
    ...options,
    log,
    deadLetter:
      options.deadLetter ??
      (store
        ? (submission, reason) =>
            keepDeadLetter(store, { submission, reason, failedAt: new Date(now()).toISOString() })
        : undefined),
  });
  const report = await writer.writeBatch(batch);
  log(
    `Airtable writer: ${batch.messages.length} messages, ${report.stored} records stored ` +
      `(${report.created} new, ${report.updated} updated), ${report.retried} retried, ` +
      `${report.deadLettered} dead-lettered, ${report.requests} requests`,
  );
  return report;
}
