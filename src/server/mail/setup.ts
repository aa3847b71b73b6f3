/**
 * The Worker's mail, from its environment once per instance: settings, ledger, mail queue, dead letters and
 * the entry's transport (host.ts); or the problem that stops the Worker storing and sending until fixed.
 */
import { errorMessage, type MailJob, type Mailer } from './message.ts';
import { kvMailLedger, type MailLedger, type MailLedgerKv, memoryMailLedger } from './ledger.ts';
import type { DeadLetterStore } from '#src/server/queues/dead-letters.ts';
import { parseMailSettings, reportOnce, type WorkerSettingsEnv } from '#src/server/settings.ts';

/** The Worker's bindings and settings for mail (wrangler.jsonc; docs/deploy.md). */
export interface WorkerMailEnv extends WorkerSettingsEnv {
  /** The mail limits and sent marks (a KV namespace); per isolate when unbound. */
  MAIL_LEDGER?: MailLedgerKv;
  MAIL_JOBS?: { send(body: MailJob, options?: { contentType?: 'json' }): Promise<void> };
  DEAD_LETTERS?: DeadLetterStore;
}

/** How long submissions and mail jobs wait while the mail settings are wrong (then they retry). */
export const MAIL_PROBLEM_RETRY_SECONDS = 300;

// Per isolate without MAIL_LEDGER (wrangler.jsonc binds it): the desk and mail consumer may not share one.
const isolateLedger = memoryMailLedger();

/** The mail ledger: in MAIL_LEDGER's KV, else this isolate's memory. */
export function mailLedgerOf(env: Pick<WorkerMailEnv, 'MAIL_LEDGER'>): MailLedger {
  return env.MAIL_LEDGER ? kvMailLedger(env.MAIL_LEDGER) : isolateLedger;
}

/**
 * The Worker's mail from its environment: `mail` with a transport (`mailer`: host.ts; the `send_email`
 * binding, or a local run's outbox) and settings that hold; `problem` when something it needs is missing or
 * wrong (the Worker then stores nothing rather than store without consent); neither without a transport.
 */
export function workerMail(env: WorkerMailEnv, mailer: Mailer | undefined) {
  if (!mailer) return {};
  const { MAIL_JOBS: jobs, DEAD_LETTERS: store } = env;
  if (!jobs) return { problem: 'EMAIL is bound but the MAIL_JOBS queue is not (wrangler.jsonc)' };
  let settings;
  try {
    settings = parseMailSettings(env);
  } catch (error) {
    return { problem: errorMessage(error) };
  }
  return {
    mail: {
      settings,
      ledger: mailLedgerOf(env),
      mailer,
      enqueue: (job: MailJob) => jobs.send(job, { contentType: 'json' }),
      /** Keeps an email no retry can send, or one that could not be queued, for the owner. */
      deadLetter:
        store &&
        (async (job: MailJob, reason: string) =>
          (await import('#src/server/queues/dead-letters.ts')).keepDeadLetter(store, { mail: job, reason })),
    },
  };
}

export type WorkerMail = NonNullable<ReturnType<typeof workerMail>['mail']>;
/** What queueing a write's emails needs of it (mail/plan.ts's queueOutcomeMail). */
export type QueueingMail = Pick<WorkerMail, 'settings' | 'ledger' | 'enqueue' | 'deadLetter'>;

/** workerMail, its problem logged once per isolate. */
export function checkedMail(env: WorkerMailEnv, mailer: Mailer | undefined) {
  const found = workerMail(env, mailer);
  if (found.problem) reportOnce(found.problem);
  return found;
}
