/**
 * The one paced writer: the consumer of the SUBMISSIONS queue (max concurrency 1, wrangler.jsonc)
 * is the only thing that talks to Airtable. Per batch it merges the submissions of one email and
 * table (the later one wins, as two submits in a row would: mergeLaterSubmission) and upserts them
 * by email (upsertByEmail: up to 100 emails per lookup, 10 records per write, through the pacer).
 *
 * This module is the queue's policy around that upsert. Acknowledged messages are stored; a
 * transient failure (429, 5xx, timeout, dropped connection) is retried with backoff; a permanent
 * one (say, a field the base does not have) is retried record by record to find the culprit,
 * whose message goes to the dead letters. Every retry starts with a fresh lookup, so a create
 * whose answer was lost becomes an update, never a second record.
 *
 * With mail (the Worker's EMAIL binding: `WriterOptions.mail`), consent applies (a new address
 * stored Pending, a stored one held and its owner asked by email), and each write's emails go on
 * the mail queue (mail.ts), which this same handler consumes: a batch of mail jobs is sent, never
 * written.
 */
import { AIRTABLE_SCHEMA, keyedSerialiser, normaliseEmail } from '#src/lib/airtable/schema.ts';
import { type AirtableClient, AirtableError, createAirtableClient } from './airtable-client.ts';
import { createPacer, RATE_WINDOW_MS, type Pacer } from './pacer.ts';
import { airtableAccess, type AirtableEnv } from './settings.ts';
import { type Submission } from '#src/lib/forms/submission.ts';
import { FORMS, isFormTable } from '#src/lib/forms/forms.ts';
import {
  SUBMISSION_UPSERT,
  type UpsertHow,
  upsertByEmail,
  CONSENTED_UPSERT,
  chunks,
  EMAILS_PER_LOOKUP,
  isWithdrawn,
  type UpsertResult,
  writeOutcome,
} from './submission.ts';
import { isMailJob, queueOutcomeMail, sendMailJobs, type WorkerMail } from './mail.ts';
import { type QueuedSubmission, submissionMailKey } from './request-check.ts';
import {
  DEAD_LETTER_QUEUE_SUFFIX,
  type DeadLetterStore,
  keepDeadLetter,
  type QueueBatch,
  type QueueMessage,
  retryDelaySeconds,
} from './queues.ts';

/** Longest any one request may take before it counts as failed (plus a 429's penalty). */
const REQUEST_BOUND_MS = 30_000;

export interface WriterOptions {
  fetch?: typeof fetch;
  pacer?: Pacer;
  now?: () => number;
  /** Where permanently failing submissions go (the dead-letter queue's producer). */
  deadLetter?: (submission: Submission, reason: string) => Promise<void>;
  log?: (message: string) => void;
  /** With mail, consent applies and each write's emails are queued (see the module's comment). */
  mail?: Pick<WorkerMail, 'settings' | 'ledger' | 'enqueue' | 'deadLetter'>;
}

/**
 * What one batch did, for logs and the load test. `held`: addresses already stored, nothing
 * written; `emailsQueued` and `emailsLimited`: emails put on the mail queue, and held back by limits.
 */
const emptyReport = () => ({
  stored: 0,
  created: 0,
  updated: 0,
  held: 0,
  retried: 0,
  deadLettered: 0,
  requests: 0,
  emailsQueued: 0,
  emailsLimited: 0,
});
type BatchReport = ReturnType<typeof emptyReport>;

export function isSubmission(body: unknown): body is Submission {
  if (typeof body !== 'object' || body === null) return false;
  const { table, email, cells, acceptedAt, defaults } = body as Partial<Submission>;
  return (
    typeof table === 'string' &&
    isFormTable(table) &&
    typeof email === 'string' &&
    typeof acceptedAt === 'string' &&
    typeof cells === 'object' &&
    cells !== null &&
    (defaults === undefined || (typeof defaults === 'object' && defaults !== null))
  );
}

/** A table's submissions for one email, merged in the order they were accepted, and their messages. */
export interface Queued {
  submission: Submission;
  messages: readonly QueueMessage[];
  /** The site's origin the visitor reached (its emails' links point there). */
  origin?: string;
}

/** The upsert's view of queued submissions: merged and written as `how` does submissions, their messages kept. */
const queuedUpsert = ({ merge, cells, lookupFields }: UpsertHow<Submission>): UpsertHow<Queued> => ({
  emailOf: (queued) => queued.submission.email,
  merge: (earlier, later) => {
    const origin = later.origin ?? earlier.origin;
    return {
      submission: merge(earlier.submission, later.submission),
      messages: [...earlier.messages, ...later.messages],
      ...(origin ? { origin } : {}),
    };
  },
  cells: (queued, at, stored) => cells(queued.submission, at, stored),
  ...(lookupFields ? { lookupFields } : {}),
});
export const QUEUED_UPSERT = queuedUpsert(SUBMISSION_UPSERT);
/** With consent: a new address is created Pending, a stored one held. */
const CONSENTED_QUEUED_UPSERT = queuedUpsert(CONSENTED_UPSERT);

const WAITLIST_TABLE = FORMS.waitlist.table;
const CONSENT_FIELD = FORMS.waitlist.fields.consent.airtable;
const EMAIL_FIELD = FORMS.waitlist.fields.email.airtable;

/** The submission as queued again (a dead letter replayed): its origin kept for its emails. */
const requeueable = (item: Queued): QueuedSubmission =>
  item.origin ? { ...item.submission, origin: item.origin } : item.submission;

/** Oldest first: the order the request check accepted them in, so the later one wins the merge. */
const byAcceptance = (a: Queued, b: Queued) => a.submission.acceptedAt.localeCompare(b.submission.acceptedAt);

// The consumer runs with max concurrency 1: one pacer per isolate paces every request it sends.
let sharedPacer: Pacer | undefined;

// One batch of submissions written at a time in an isolate, whatever the queue does: a batch
// delivered again while its first delivery still runs (`wrangler dev` retries a whole batch whose
// handler it gave up on, without stopping it) waits, then finds its records and holds them,
// instead of looking them up before the first delivery created them and creating them twice.
const oneBatchAtATime = keyedSerialiser();

/**
 * The isolate's one pacer for Airtable, shared by the queue's writer and the retention job.
 * A new isolate does not know what the last one sent: it waits one window before its first request.
 */
export function isolatePacer(): Pacer {
  return (sharedPacer ??= createPacer({ startClosedForMs: RATE_WINDOW_MS }));
}

export function createQueueWriter(env: AirtableEnv, options: WriterOptions = {}) {
  const now = options.now ?? Date.now;
  const log = options.log ?? ((message: string) => console.log(message));
  const client: AirtableClient = createAirtableClient(airtableAccess(env), {
    pacer: options.pacer ?? isolatePacer(),
    fetch: options.fetch,
    now,
    requestBoundMs: REQUEST_BOUND_MS,
  });

  async function retryOrDeadLetter(items: readonly Queued[], error: unknown, report: BatchReport) {
    const airtableError = error instanceof AirtableError ? error : undefined;
    if (!airtableError || airtableError.transient) {
      for (const item of items) {
        for (const message of item.messages) {
          message.retry({ delaySeconds: retryDelaySeconds(message.attempts, airtableError?.status === 429) });
          report.retried += 1;
        }
      }
      return;
    }
    // Permanent: with one record the culprit is known; with more, try each on its own.
    if (items.length > 1) {
      for (const item of items) await write(item.submission.table, [item], report);
      return;
    }
    for (const item of items) {
      const reason = `${airtableError.status} ${airtableError.type}: ${airtableError.message}`;
      if (options.deadLetter) {
        await options.deadLetter(requeueable(item), reason);
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

  /**
   * Queues the emails one write causes, within the recipients' limits. Never throws: the record is
   * stored and its messages acknowledged whatever happens here, so mail never writes it twice.
   */
  async function queueMail(
    item: Queued,
    outcome: 'created' | 'updated' | 'held',
    report: BatchReport,
    about: Parameters<typeof writeOutcome>[3],
  ) {
    const { mail } = options;
    if (!mail) return;
    const written = writeOutcome(item.submission, outcome, submissionMailKey(item.submission), about);
    if (!written) return;
    if (!item.origin) {
      log(`Mailer: a ${item.submission.table} submission came with no site origin; no email for it`);
      return;
    }
    try {
      const { queued, limited } = await queueOutcomeMail(mail, written, item.origin, { now, log });
      report.emailsQueued += queued;
      report.emailsLimited += limited;
    } catch (error) {
      log(
        `Mailer: the emails of a stored ${item.submission.table} submission could not be prepared (${String(error)})`,
      );
    }
  }

  /**
   * The quotes' contacts on the waitlist's suppression list (Consent 'Withdrawn'): they hear
   * nothing a stranger's quote causes. One lookup per 100 written quotes; if it fails, every
   * contact of the batch is treated as withdrawn (the team still hears of each quote).
   */
  async function withdrawnContacts(table: string, results: readonly UpsertResult<Queued>[]) {
    const emails = results.filter((result) => result.outcome !== 'failed').map((result) => result.email);
    if (table === WAITLIST_TABLE || emails.length === 0) return new Set<string>();
    const withdrawn = new Set<string>();
    for (const part of chunks(emails, EMAILS_PER_LOOKUP)) {
      try {
        const records = await client.findByEmails(WAITLIST_TABLE, part, undefined, [CONSENT_FIELD]);
        for (const record of records)
          if (isWithdrawn(record.fields)) withdrawn.add(normaliseEmail(String(record.fields[EMAIL_FIELD])));
      } catch (error) {
        log(
          `Airtable writer: the suppression list could not be read (${String(error)}); no email to these contacts`,
        );
        for (const email of part) withdrawn.add(email);
      }
    }
    return withdrawn;
  }

  /** Upserts one table's items; acks what was stored, retries or dead-letters the rest per request. */
  async function write(table: string, items: readonly Queued[], report: BatchReport) {
    const how = options.mail ? CONSENTED_QUEUED_UPSERT : QUEUED_UPSERT;
    const results = await upsertByEmail(client, table, items, how, { now });
    const withdrawn = options.mail ? await withdrawnContacts(table, results) : new Set<string>();
    const failures = new Map<unknown, Queued[]>();
    for (const result of results) {
      if (result.outcome === 'failed') {
        failures.set(result.error, [...(failures.get(result.error) ?? []), result.item]);
        continue;
      }
      for (const message of result.item.messages) message.ack();
      report[result.outcome] += 1;
      if (result.outcome !== 'held') report.stored += 1;
      await queueMail(result.item, result.outcome, report, {
        ...(result.stored ? { stored: result.stored } : {}),
        contactWithdrawn: withdrawn.has(result.email),
      });
    }
    // One failed request's records together: its error says whether to retry or find the culprit.
    for (const [error, failed] of failures) await retryOrDeadLetter(failed, error, report);
  }

  return {
    /** Writes one batch of queue messages; every message is acked or retried before it returns. */
    async writeBatch(batch: QueueBatch): Promise<BatchReport> {
      const sentBefore = client.requestsSent();
      const report = emptyReport();
      const queued: Queued[] = [];
      for (const message of batch.messages) {
        if (isSubmission(message.body)) {
          const { origin, ...submission } = message.body as QueuedSubmission;
          queued.push({
            submission,
            messages: [message],
            ...(typeof origin === 'string' && origin ? { origin } : {}),
          });
        } else {
          log('Airtable writer: dropped a queue message that is not a submission');
          message.ack();
        }
      }
      queued.sort(byAcceptance);
      for (const table of [AIRTABLE_SCHEMA.waitlist.name, AIRTABLE_SCHEMA.quotes.name]) {
        const group = queued.filter((item) => item.submission.table === table);
        if (group.length > 0) await write(table, group, report);
      }
      report.requests = client.requestsSent() - sentBefore;
      return report;
    },
  };
}

/** The Worker's queue handler: submissions are written, mail jobs sent, dead-letter queues kept. */
export async function writeQueuedBatch(
  batch: QueueBatch,
  env: AirtableEnv & { DEAD_LETTERS?: DeadLetterStore },
  mail?: WorkerMail,
): Promise<void> {
  const log = (message: string) => console.log(message);
  const store = env.DEAD_LETTERS;
  if (batch.queue.endsWith(DEAD_LETTER_QUEUE_SUFFIX)) {
    // Messages whose retries ran out: keep them for the owner to list and replay.
    for (const message of batch.messages) {
      const { body } = message;
      const failedAt = new Date().toISOString();
      const reason = 'retries exhausted';
      if (store && isSubmission(body)) {
        await keepDeadLetter(store, { submission: body, reason, failedAt });
        log('Airtable writer: a submission ran out of retries; kept as a dead letter');
      } else if (store && isMailJob(body)) {
        await keepDeadLetter(store, { mail: body, reason, failedAt });
        log('Mailer: an email ran out of retries; kept as a dead letter');
      }
      message.ack();
    }
    return;
  }
  const jobs = batch.messages.flatMap((message) =>
    isMailJob(message.body) ? [{ message, job: message.body }] : [],
  );
  if (jobs.length > 0) {
    if (mail) {
      const mailReport = await sendMailJobs(jobs, { ...mail, log });
      log(
        `Mailer: ${jobs.length} emails, ${mailReport.sent} sent, ${mailReport.alreadySent} already sent, ` +
          `${mailReport.retried} retried, ${mailReport.deadLettered} dead-lettered`,
      );
    } else {
      // Mail is off (EMAIL unbound or misconfigured): the jobs wait for it, then go to dead letters.
      for (const { message } of jobs)
        message.retry({ delaySeconds: retryDelaySeconds(message.attempts, false) });
      log(`Mailer: ${jobs.length} emails wait: mail is not set up on this Worker`);
    }
  }
  const submissions = batch.messages.filter((message) => !isMailJob(message.body));
  if (submissions.length === 0) return;
  const writer = createQueueWriter(env, {
    mail,
    log,
    deadLetter:
      store &&
      ((submission, reason) =>
        keepDeadLetter(store, { submission, reason, failedAt: new Date().toISOString() })),
  });
  const report = await oneBatchAtATime('submissions', () =>
    writer.writeBatch({ queue: batch.queue, messages: submissions }),
  );
  log(
    `Airtable writer: ${submissions.length} messages, ${report.stored} records stored ` +
      `(${report.created} new, ${report.updated} updated, ${report.held} held), ${report.retried} retried, ` +
      `${report.deadLettered} dead-lettered, ${report.requests} requests` +
      (mail ? `; ${report.emailsQueued} emails queued, ${report.emailsLimited} held back by limits` : ''),
  );
}
