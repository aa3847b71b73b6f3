/**
 * The Worker's mail, sent by queue consumers, never in a visitor's request (docs/decisions/0013):
 * 1. the plan: a write (a queued submission's, or a pressed email link's) causes the emails its
 *    form's conduct says; those the recipients' limits allow (mail-ledger.ts) go on the mail queue
 *    (MAIL_JOBS), one job per email. The write is done whatever happens to its mail, so a mail
 *    failure never writes a record twice;
 * 2. the send: the mail queue's consumer sends each job through the mailer (mailer.ts), retries
 *    what may pass later and keeps the rest as dead letters for the owner to replay. A job whose
 *    email went out is marked sent (by its idempotency key): delivered again, it is not sent again.
 */
import { formNamed } from '#src/lib/forms/forms.ts';
import {
  acknowledgement,
  changeEmail,
  confirmationEmail,
  type HeldNotice,
  type MailContext,
  type TeamNotice,
  teamNotification,
} from './emails.ts';
import type { LinkValues } from './link-tokens.ts';
import {
  inboxKey,
  kvMailLedger,
  type MailLedger,
  type MailLedgerKv,
  memoryMailLedger,
  TEAM_MAIL_LIMITS,
} from './mail-ledger.ts';
import {
  cloudflareMailer,
  errorMessage,
  localOutboxMailer,
  type Mailer,
  MailFailure,
  type MailJob,
  type MailMessage,
  type SendEmailBinding,
} from './mailer.ts';
import type { DeadLetterStore, QueueMessage } from './queues.ts';
import { retryDelaySeconds } from './pacer.ts';
import { parseMailSettings, type WorkerSettingsEnv } from './settings.ts';

/** What the write path did with one submission, as the mail needs it. */
export interface WriteOutcome {
  /** The form's name (any form in FORM_LIST). */
  readonly form: string;
  /** The address on record (the one the email goes to). */
  readonly email: string;
  /**
   * 'held': the address was stored already and nothing was written; 'confirmed-change': a held
   * change its contact has just confirmed; 'rejoin': a withdrawn address asked to join again.
   */
  readonly outcome: 'created' | 'held' | 'confirmed-change' | 'rejoin';
  /** A rejoin's: the withdrawn record's Last Updated, which its confirmation link carries. */
  readonly withdrawnAt?: string;
  /** The submission's values by post name (a held change carries them in its link). */
  readonly values: LinkValues;
  /** For a form that tells the team: its fields, label and value, and the one its subject names. */
  readonly teamRows?: readonly (readonly [string, string])[];
  readonly subject?: string;
  /** The address withdrew (it is on the suppression list): only the team hears. */
  readonly contactWithdrawn?: boolean;
  /** Unique per submission (the queue message's id): a retried send is the same email. */
  readonly key: string;
}

/** One email to send, and the limits it counts against. */
interface Outgoing {
  readonly message: MailMessage;
  /** The recipient's inbox: at most MAIL_LIMITS of the site's emails reach it. */
  readonly limitedInbox?: string;
  /** A team notice's contact: at most TEAM_MAIL_LIMITS about one, so nobody floods the team with one. */
  readonly limitedContact?: string;
  /** A team notice, as the hour's digest lists it if the team inbox's ceiling holds it back. */
  readonly teamNotice?: HeldNotice;
}

/**
 * The emails one write causes, by its form's conduct (docs/consent.md has them as a table).
 * `inboxOf` gives an address's inbox (the limits count per inbox).
 */
export async function emailsFor(
  outcome: WriteOutcome,
  context: MailContext,
  teamEmail: string,
  inboxOf: (email: string) => string,
): Promise<Outgoing[]> {
  const { form, email, key } = outcome;
  const conduct = formNamed(form)?.conduct ?? {};
  // Nothing a stranger can cause reaches an address that withdrew.
  const toVisitor = async (message: Promise<MailMessage>): Promise<Outgoing[]> =>
    outcome.contactWithdrawn ? [] : [{ message: await message, limitedInbox: inboxOf(email) }];
  const { subject = '', teamRows = [] } = outcome;
  const toTeam = async (kind: TeamNotice): Promise<Outgoing[]> => {
    if (!conduct.tellsTeam) return [];
    const message = await teamNotification(context, teamEmail, email, subject, teamRows, kind, key);
    const teamNotice = { subject, contact: email, at: context.now.toISOString(), kind };
    return [{ message, limitedContact: inboxOf(email), teamNotice }];
  };
  switch (outcome.outcome) {
    case 'confirmed-change':
      return toTeam('confirmed-change');
    case 'held':
      // The team hears of it at once (a contact's own request is never lost behind a stranger's
      // earlier one), and the address on record is asked to confirm it.
      return [
        ...(await toTeam('held')),
        ...(await toVisitor(changeEmail(context, form, email, outcome.values, key))),
      ];
    case 'rejoin':
      return conduct.confirms
        ? toVisitor(confirmationEmail(context, form, email, key, outcome.withdrawnAt))
        : [];
    case 'created':
      return [
        ...(await toTeam('new')),
        ...(conduct.confirms ? await toVisitor(confirmationEmail(context, form, email, key)) : []),
        ...(conduct.acknowledgement
          ? await toVisitor(acknowledgement(context, conduct.acknowledgement, form, email, key))
          : []),
      ];
  }
}

/**
 * Queues the emails of one write that the recipients' limits allow (`limited`: how many they
 * dropped; `held`: team notices past the team inbox's hourly ceiling, kept for the hour's digest),
 * links signed by the current secret. Never throws on a job that cannot be queued: it is kept as
 * a dead letter (or logged lost), since the write is done and must not be retried for it.
 */
export async function queueOutcomeMail(
  mail: Pick<WorkerMail, 'settings' | 'ledger' | 'enqueue' | 'deadLetter'>,
  outcome: WriteOutcome,
  origin: string,
  options: { now?: () => number; log?: (line: string) => void } = {},
): Promise<{ queued: number; limited: number; held: number }> {
  const at = new Date((options.now ?? Date.now)());
  const log = options.log ?? ((line: string) => console.error(line));
  const { from, schoolsTeamEmail, linkSecrets } = mail.settings;
  const context: MailContext = { from, siteUrl: origin, now: at, linkSecret: linkSecrets[0] ?? '' };
  const planned = await emailsFor(outcome, context, schoolsTeamEmail, inboxKey);
  // Only a team notice needs the team inbox (its ceiling and digests), so only then is it loaded.
  const teamInbox = planned.some((email) => email.teamNotice) ? await import('./team-inbox.ts') : undefined;
  await teamInbox?.queueTeamDigests(mail, at, log);
  const counts = { queued: 0, limited: 0, held: 0 };
  const enqueue = async (job: MailJob) => {
    try {
      await mail.enqueue(job);
      counts.queued += 1;
    } catch (error) {
      const reason = `could not be queued: ${errorMessage(error)}`;
      log(`Mailer: an email ${reason}; ${mail.deadLetter ? 'kept as a dead letter' : 'lost'}`);
      await mail.deadLetter?.(job, reason).catch(() => undefined);
    }
  };
  const { email, form } = outcome;
  for (const { message, limitedInbox, limitedContact, teamNotice } of planned) {
    const allowed =
      limitedContact !== undefined
        ? await mail.ledger.reserve(`team:${limitedContact}`, at, TEAM_MAIL_LIMITS)
        : limitedInbox === undefined || (await mail.ledger.reserve(limitedInbox, at));
    if (!allowed) counts.limited += 1;
    else if (teamNotice && !(await teamInbox?.admitNotice(mail.ledger, teamNotice, at))) counts.held += 1;
    else await enqueue({ kind: 'mail', message, email, form, queuedAt: at.toISOString() });
  }
  return counts;
}

/** Emails sent at once within a batch. */
const SEND_CONCURRENCY = 6;

/** Sends one batch of mail jobs; every message is acked or retried before it returns. */
export async function sendMailJobs(
  messages: readonly { message: QueueMessage; job: MailJob }[],
  options: {
    mailer: Mailer;
    ledger: Pick<MailLedger, 'hasSent' | 'markSent'>;
    /** Where an email no retry can send goes (the dead letters); without it, the queue's DLQ. */
    deadLetter?: (job: MailJob, reason: string) => Promise<void>;
    log?: (message: string) => void;
  },
) {
  const log = options.log ?? ((line: string) => console.log(line));
  // What the batch did, for the log; alreadySent: delivered again after their email went out.
  const report = { sent: 0, alreadySent: 0, retried: 0, deadLettered: 0 };
  const sendOne = async ({ message, job }: { message: QueueMessage; job: MailJob }) => {
    const key = job.message.idempotencyKey;
    if (await options.ledger.hasSent(key)) {
      report.alreadySent += 1;
      message.ack();
      return;
    }
    try {
      await options.mailer.send(job.message);
    } catch (error) {
      const reason = errorMessage(error);
      if (error instanceof MailFailure && !error.retryable && options.deadLetter) {
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
    await options.ledger.markSent(key).catch((error: unknown) => {
      log(`Mailer: an email went out but could not be marked sent (${String(error)})`);
    });
  };
  const queue = [...messages];
  const workers = Array.from({ length: SEND_CONCURRENCY }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await sendOne(next);
  });
  await Promise.all(workers);
  return report;
}

/** The Worker's bindings and settings for mail (wrangler.jsonc; docs/deploy.md). */
export interface WorkerMailEnv extends WorkerSettingsEnv {
  /** Cloudflare Email Service's `send_email` binding: with it, consent and mail are on. */
  EMAIL?: SendEmailBinding;
  /** The mail limits and sent marks (a KV namespace); per isolate when unbound. */
  MAIL_LEDGER?: MailLedgerKv;
  MAIL_JOBS?: { send(body: MailJob, options?: { contentType?: 'json' }): Promise<void> };
  DEAD_LETTERS?: DeadLetterStore;
}

// Per isolate when MAIL_LEDGER is not bound: the queue's consumers run one batch at a time.
let isolateLedger: MailLedger | undefined;

/**
 * The Worker's mail from its environment: `mail` when EMAIL (or, in local runs, MAIL_OUTBOX_URL)
 * is there and the settings hold; `problem` when something it needs is missing or wrong (the
 * Worker then stores nothing rather than store without consent); neither without it (no mail).
 */
export function workerMail(env: WorkerMailEnv) {
  const binding = env.EMAIL;
  const outbox = env.MAIL_OUTBOX_URL;
  if (!binding && !outbox) return {};
  const jobs = env.MAIL_JOBS;
  if (!jobs) return { problem: 'EMAIL is bound but the MAIL_JOBS queue is not (wrangler.jsonc)' };
  let settings;
  try {
    settings = parseMailSettings(env);
  } catch (error) {
    return { problem: errorMessage(error) };
  }
  const ledger = env.MAIL_LEDGER ? kvMailLedger(env.MAIL_LEDGER) : (isolateLedger ??= memoryMailLedger());
  const mailer = outbox ? localOutboxMailer(outbox) : cloudflareMailer(binding as SendEmailBinding);
  const store = env.DEAD_LETTERS;
  return {
    mail: {
      settings,
      ledger,
      mailer,
      enqueue: (job: MailJob) => jobs.send(job, { contentType: 'json' }),
      /** Keeps an email no retry can send, or one that could not be queued, for the owner. */
      deadLetter:
        store &&
        (async (job: MailJob, reason: string) =>
          (await import('./queues.ts')).keepDeadLetter(store, {
            mail: job,
            reason,
            failedAt: new Date().toISOString(),
          })),
    },
  };
}

export type WorkerMail = NonNullable<ReturnType<typeof workerMail>['mail']>;
