/**
 * The Worker's mail, sent by queue consumers, never in a visitor's request (docs/decisions/0013):
 *
 * 1. The queue writer stores a batch (consent.ts: new addresses Pending, stored ones held). For
 *    each write it builds the emails, counts them against the recipients' limits (the KV ledger
 *    MAIL_LEDGER) and puts one job per email on the mail queue (MAIL_JOBS); its submissions are
 *    acknowledged whatever happens to the mail, so a mail failure never writes a record twice.
 * 2. The mail queue's consumer sends each job through Cloudflare Email Service's `send_email`
 *    binding (EMAIL). A send that may pass later is retried with backoff; one that cannot, or
 *    whose retries ran out (the mail queue's dead-letter queue), is kept as a dead letter for the
 *    owner to replay. A job whose email went out is marked sent (by its idempotency key, the
 *    submission and the email's kind): a job delivered again is acknowledged, not sent again.
 */
import { type DeadLetterStore, keepDeadLetter } from '#src/server/dead-letters.ts';
import type { QueueMessage } from '#src/server/queue-writer.ts';
import { retryDelaySeconds } from '#src/server/queue-writer.ts';
import type { MailJob } from './mail-job.ts';
import { kvMailLedger, type MailLedger, type MailLedgerKv, memoryMailLedger } from './mail-limits.ts';
import { createMailService, type MailService } from './mail-service.ts';
import { type MailEnv, parseMailSettings } from './mail-settings.ts';
import {
  cloudflareMailer,
  localOutboxMailer,
  type Mailer,
  MailFailure,
  type SendEmailBinding,
} from './mailer.ts';
import type { WriteOutcome } from './outgoing.ts';

export { isMailJob, type MailJob } from './mail-job.ts';

/** Which emails went out already, by idempotency key. */
export interface SentMarks {
  has(key: string): Promise<boolean>;
  add(key: string): Promise<void>;
}

/** How long a sent mark is kept: far longer than a job's retries, and any replay of its dead letter. */
const SENT_MARK_TTL_SECONDS = 30 * 24 * 60 * 60;
const SENT_PREFIX = 'mail-sent:';

/** The key's SHA-256, so no address is a KV key of its own. */
async function digest(key: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key)));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Sent marks in Workers KV (the mail ledger's namespace), expiring after 30 days. */
export function kvSentMarks(kv: MailLedgerKv): SentMarks {
  return {
    async has(key) {
      return (await kv.get(SENT_PREFIX + (await digest(key)))) !== null;
    },
    async add(key) {
      await kv.put(SENT_PREFIX + (await digest(key)), '1', { expirationTtl: SENT_MARK_TTL_SECONDS });
    },
  };
}

/** Sent marks in this isolate's memory (a Worker without the MAIL_LEDGER namespace). */
export function memorySentMarks(): SentMarks {
  const sent = new Set<string>();
  return {
    has: async (key) => sent.has(key),
    add: async (key) => {
      sent.add(key);
    },
  };
}

/** What one batch of the mail queue did, for logs and the load test. */
export interface MailBatchReport {
  sent: number;
  /** Delivered again after their email went out: acknowledged, not sent again. */
  alreadySent: number;
  retried: number;
  deadLettered: number;
}

export interface MailSenderOptions {
  mailer: Mailer;
  sent: SentMarks;
  /** Where an email no retry can send goes (the dead letters); without it, the queue's DLQ. */
  deadLetter?: (job: MailJob, reason: string) => Promise<void>;
  log?: (message: string) => void;
  /** Emails sent at once within a batch. */
  concurrency?: number;
}

/** Sends one batch of mail jobs; every message is acked or retried before it returns. */
export async function sendMailJobs(
  messages: readonly { message: QueueMessage; job: MailJob }[],
  options: MailSenderOptions,
): Promise<MailBatchReport> {
  const log = options.log ?? ((line: string) => console.log(line));
  const report: MailBatchReport = { sent: 0, alreadySent: 0, retried: 0, deadLettered: 0 };
  const sendOne = async ({ message, job }: { message: QueueMessage; job: MailJob }) => {
    const key = job.message.idempotencyKey;
    if (await options.sent.has(key)) {
      report.alreadySent += 1;
      message.ack();
      return;
    }
    try {
      await options.mailer.send(job.message);
    } catch (error) {
      const failure = error instanceof MailFailure ? error : undefined;
      const reason = error instanceof Error ? error.message : String(error);
      if (failure && !failure.retryable && options.deadLetter) {
        await options.deadLetter(job, reason);
        message.ack();
        report.deadLettered += 1;
        log(`Mailer: an email could not be sent (${reason}); kept as a dead letter`);
        return;
      }
      message.retry({ delaySeconds: retryDelaySeconds(message.attempts, false) });
      report.retried += 1;
      log(`Mailer: an email failed (attempt ${message.attempts}: ${reason}); retrying`);
      return;
    }
    report.sent += 1;
    message.ack();
    // The email went out: if the mark cannot be written, a redelivery may send it again, which
    // beats retrying this one (that would send it again for sure).
    await options.sent.add(key).catch((error: unknown) => {
      log(`Mailer: an email went out but could not be marked sent (${String(error)})`);
    });
  };
  const queue = [...messages];
  const workers = Array.from({ length: Math.max(1, options.concurrency ?? 6) }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await sendOne(next);
  });
  await Promise.all(workers);
  return report;
}

/** The Worker's bindings and settings for mail (wrangler.jsonc; docs/deploy.md). */
export interface WorkerMailEnv extends MailEnv {
  /** Cloudflare Email Service's `send_email` binding: with it, consent and mail are on. */
  EMAIL?: SendEmailBinding;
  /** Local runs only (`vite`, `vite preview`, tests): the emails go to this outbox, not EMAIL. */
  MAIL_OUTBOX_URL?: string;
  /** The mail limits and sent marks (a KV namespace); per isolate when unbound. */
  MAIL_LEDGER?: MailLedgerKv;
  /** The mail queue's producer. */
  MAIL_JOBS?: { send(body: MailJob, options?: { contentType?: 'json' }): Promise<void> };
  DEAD_LETTERS?: DeadLetterStore;
}

/** The Worker's mail, put together from its bindings. */
export interface WorkerMail {
  readonly service: MailService;
  readonly mailer: Mailer;
  readonly sent: SentMarks;
  /** Puts one job on the mail queue. */
  enqueue(job: MailJob): Promise<void>;
  /** Keeps an email no retry can send, or one that could not be queued, for the owner. */
  deadLetter?: (job: MailJob, reason: string) => Promise<void>;
}

// Per isolate when MAIL_LEDGER is not bound: the queue's consumers run one batch at a time.
let isolateLedger: MailLedger | undefined;
let isolateSent: SentMarks | undefined;

/**
 * The Worker's mail from its environment: `mail` when EMAIL is bound and the settings hold;
 * `problem` when EMAIL is bound but something it needs is missing or wrong (the Worker then
 * stores nothing rather than store without consent: see worker.ts); neither when EMAIL is not
 * bound (the spec's upsert, no mail).
 */
export function workerMail(
  env: WorkerMailEnv,
  now: () => number = Date.now,
): { mail?: WorkerMail; problem?: string } {
  const binding = env.EMAIL;
  const outbox = env.MAIL_OUTBOX_URL;
  if (!binding && !outbox) return {};
  const jobs = env.MAIL_JOBS;
  if (!jobs) return { problem: 'EMAIL is bound but the MAIL_JOBS queue is not (wrangler.jsonc)' };
  let settings;
  try {
    settings = parseMailSettings(env);
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
  const ledger = env.MAIL_LEDGER ? kvMailLedger(env.MAIL_LEDGER) : (isolateLedger ??= memoryMailLedger());
  const sent = env.MAIL_LEDGER ? kvSentMarks(env.MAIL_LEDGER) : (isolateSent ??= memorySentMarks());
  const mailer = outbox ? localOutboxMailer(outbox) : cloudflareMailer(binding as SendEmailBinding);
  const store = env.DEAD_LETTERS;
  return {
    mail: {
      service: createMailService({ settings, ledger, now }),
      mailer,
      sent,
      enqueue: (job) => jobs.send(job, { contentType: 'json' }),
      ...(store
        ? {
            deadLetter: (job: MailJob, reason: string) =>
              keepDeadLetter(store, { mail: job, reason, failedAt: new Date(now()).toISOString() }),
          }
        : {}),
    },
  };
}

/**
 * Queues the emails of one write (a queued submission's, or a pressed email link's), within the
 * recipients' limits, one job per email. Never throws on a job that cannot be queued: it is kept
 * as a dead letter (or logged lost), since the write is done and must not be retried for it.
 */
export async function queueOutcomeMail(
  mail: Pick<WorkerMail, 'service' | 'enqueue' | 'deadLetter'>,
  outcome: WriteOutcome,
  origin: string,
  options: { now?: () => number; log?: (line: string) => void } = {},
): Promise<{ queued: number; limited: number }> {
  const now = options.now ?? Date.now;
  const log = options.log ?? ((line: string) => console.error(line));
  const { messages, limited } = await mail.service.reserveEmails(outcome, origin);
  let queued = 0;
  for (const message of messages) {
    const job: MailJob = {
      kind: 'mail',
      message,
      email: outcome.email,
      form: outcome.form,
      queuedAt: new Date(now()).toISOString(),
    };
    try {
      await mail.enqueue(job);
      queued += 1;
    } catch (error) {
      const reason = `could not be queued: ${error instanceof Error ? error.message : String(error)}`;
      log(`Mailer: an email ${reason}; ${mail.deadLetter ? 'kept as a dead letter' : 'lost'}`);
      await mail.deadLetter?.(job, reason).catch(() => undefined);
    }
  }
  return { queued, limited };
}
