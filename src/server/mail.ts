/**
 * The Worker's mail, sent by queue consumers, never in a visitor's request (docs/decisions/0013):
 *
 * 1. The queue writer stores a batch (submission.ts: new addresses Pending, stored ones held). For
 *    each write it builds the emails, counts them against the recipients' limits (the KV ledger
 *    MAIL_LEDGER) and puts one job per email on the mail queue (MAIL_JOBS); its submissions are
 *    acknowledged whatever happens to the mail, so a mail failure never writes a record twice.
 * 2. The mail queue's consumer sends each job through Cloudflare Email Service's `send_email`
 *    binding (EMAIL). A send that may pass later is retried with backoff; one that cannot, or
 *    whose retries ran out (the mail queue's dead-letter queue), is kept as a dead letter for the
 *    owner to replay. A job whose email went out is marked sent (by its idempotency key, the
 *    submission and the email's kind): a job delivered again is acknowledged, not sent again.
 */
import { type DeadLetterStore, keepDeadLetter, type QueueMessage, retryDelaySeconds } from './queues.ts';
import { CALENDAR } from '#src/config/site.ts';
import { inboxKey } from './mail-ledger.ts';
import {
  type MailContext,
  type TeamNotice,
  changeEmail,
  confirmationEmail,
  quoteAcknowledgement,
  schoolsTeamNotification,
} from './emails.ts';
import { type LinkForm, type LinkValues } from './link-tokens.ts';
import { linkSecretProblem } from './settings.ts';
import { isValidEmail } from '#src/lib/email.ts';
import { headerAddress, headerText, headerValue } from './header-text.ts';
import {
  type HeldQuote,
  heldQuotes,
  queueTeamDigests,
  TEAM_HOURLY_LIMITS,
  TEAM_INBOX,
} from './team-inbox.ts';
import { keyedSerialiser } from '#src/lib/airtable/schema.ts';

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

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
export interface WorkerMailEnv extends MailEnv {
  /** Cloudflare Email Service's `send_email` binding: with it, consent and mail are on. */
  EMAIL?: SendEmailBinding;
  /** The mail limits and sent marks (a KV namespace); per isolate when unbound. */
  MAIL_LEDGER?: MailLedgerKv;
  /** The mail queue's producer. */
  MAIL_JOBS?: { send(body: MailJob, options?: { contentType?: 'json' }): Promise<void> };
  DEAD_LETTERS?: DeadLetterStore;
}

// Per isolate when MAIL_LEDGER is not bound: the queue's consumers run one batch at a time.
let isolateLedger: MailLedger | undefined;

/**
 * The Worker's mail from its environment: `mail` when EMAIL is bound and the settings hold;
 * `problem` when EMAIL is bound but something it needs is missing or wrong (the Worker then
 * stores nothing rather than store without consent: see worker.ts); neither when EMAIL is not
 * bound (the spec's upsert, no mail).
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
  const mail = {
    settings,
    ledger,
    mailer,
    enqueue: (job: MailJob) => jobs.send(job, { contentType: 'json' }),
    /** Keeps an email no retry can send, or one that could not be queued, for the owner. */
    deadLetter:
      store &&
      ((job: MailJob, reason: string) =>
        keepDeadLetter(store, { mail: job, reason, failedAt: new Date().toISOString() })),
  };
  return { mail };
}

/** The Worker's mail, put together from its bindings. */
export type WorkerMail = NonNullable<ReturnType<typeof workerMail>['mail']>;

/**
 * Queues the emails of one write (a queued submission's, or a pressed email link's): the ones it
 * causes (emailsFor), with links signed by the current secret, that the recipients' limits allow
 * (counted now; `limited`: how many they dropped; `held`: the schools team's notices past its
 * hourly ceiling, kept for the hour's digest, team-inbox.ts), one job per email, after the digests
 * of hours that ended, when it makes a team notice. Never throws on a job
 * that cannot be queued: it is kept as a dead letter (or logged lost), since the write is done
 * and must not be retried for it. A failure to send never changes the visitor's answer.
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
  const bookingUrl = CALENDAR.bookingUrl;
  const planned = await emailsFor(outcome, context, { schoolsTeamEmail, bookingUrl }, inboxKey);
  if (planned.some((outgoing) => outgoing.teamQuote)) await queueTeamDigests(mail, at, log);
  let queued = 0;
  let limited = 0;
  let held = 0;
  for (const { message, limitedInbox, limitedContact, teamQuote } of planned) {
    const allowed =
      limitedContact !== undefined
        ? await mail.ledger.reserve(`team:${limitedContact}`, at, TEAM_MAIL_LIMITS)
        : limitedInbox === undefined || (await mail.ledger.reserve(limitedInbox, at));
    if (!allowed) {
      limited += 1;
      continue;
    }
    if (teamQuote && !(await mail.ledger.reserve(TEAM_INBOX, at, TEAM_HOURLY_LIMITS))) {
      await mail.ledger.held.hold(teamQuote, at);
      held += 1;
      continue;
    }
    const job: MailJob = {
      kind: 'mail',
      message,
      email: outcome.email,
      form: outcome.form,
      queuedAt: at.toISOString(),
    };
    try {
      await mail.enqueue(job);
      queued += 1;
    } catch (error) {
      const reason = `could not be queued: ${errorMessage(error)}`;
      log(`Mailer: an email ${reason}; ${mail.deadLetter ? 'kept as a dead letter' : 'lost'}`);
      await mail.deadLetter?.(job, reason).catch(() => undefined);
    }
  }
  return { queued, limited, held };
}

/**
 * Which emails a stored submission causes, and their delivery within the mail limits. The one
 * place the consent rules meet the mail (docs/consent.md has them as a table):
 *
 * | form     | the write        | emails                                                        |
 * |----------|------------------|---------------------------------------------------------------|
 * | waitlist | created (Pending)| the confirmation                                              |
 * | any      | held (address already stored, nothing written) | one change email to the address on record |
 * | quote    | created          | the schools team's notification, the contact's acknowledgement |
 *
 * Emails to a visitor count against the inbox's limits (one per 10 minutes, 3 a day) and are
 * dropped beyond them: the visitor's answer never depends on mail. The schools team's
 * notifications count per contact (TEAM_MAIL_LIMITS), and past the team's hourly ceiling wait for
 * the hour's digest (team-inbox.ts).
 */

/** What the write path did with one submission, as the mail needs it. */
export interface WriteOutcome {
  readonly form: LinkForm;
  /** The address on record (the one the email goes to). */
  readonly email: string;
  /**
   * 'created': a new record; 'held': the address was stored already and nothing was written;
   * 'confirmed-change': a held quote change its contact has just confirmed (only the team hears);
   * 'rejoin': a withdrawn address's owner asked to join again (a confirmation, for `withdrawnAt`).
   */
  readonly outcome: 'created' | 'held' | 'confirmed-change' | 'rejoin';
  /** A rejoin's: the withdrawn record's Last Updated, which its confirmation link carries. */
  readonly withdrawnAt?: string;
  /** The submission's values by post name (a held change carries them in its link). */
  readonly values: LinkValues;
  /** A quote's fields as the schools team reads them, label and value. */
  readonly teamRows?: readonly (readonly [string, string])[];
  /** A quote's school, for the team's subject line. */
  readonly school?: string;
  /** The address withdrew (the waitlist's suppression list): only the schools team hears. */
  readonly contactWithdrawn?: boolean;
  /** Unique per submission (the queue message's id): a retried send is the same email. */
  readonly key: string;
}

/** One email to send, and the limits it counts against. */
export interface Outgoing {
  readonly message: MailMessage;
  /** The recipient's inbox: at most MAIL_LIMITS of the site's emails reach it. */
  readonly limitedInbox?: string;
  /**
   * For the schools team's own inbox, the contact's: at most TEAM_MAIL_LIMITS emails about one
   * contact (one quote: it is stored once per address), so nobody can flood the team with one.
   */
  readonly limitedContact?: string;
  /** A schools team's notice: the quote as its hour's digest lists it, if the notice is held back. */
  readonly teamQuote?: HeldQuote;
}

/** The emails one write causes. `inboxOf` gives an address's inbox (mail-limits counts per inbox). */
export async function emailsFor(
  outcome: WriteOutcome,
  context: MailContext,
  settings: { readonly schoolsTeamEmail: string; readonly bookingUrl: string },
  inboxOf: (email: string) => string,
): Promise<Outgoing[]> {
  // Nothing a stranger can cause reaches an address that withdrew.
  const toVisitor = async (message: Promise<MailMessage>): Promise<Outgoing[]> =>
    outcome.contactWithdrawn ? [] : [{ message: await message, limitedInbox: inboxOf(outcome.email) }];
  const toTeam = async (kind: TeamNotice): Promise<Outgoing> => ({
    message: await schoolsTeamNotification(
      context,
      settings.schoolsTeamEmail,
      outcome.email,
      outcome.school ?? '',
      outcome.teamRows ?? [],
      kind,
      outcome.key,
    ),
    limitedContact: inboxOf(outcome.email),
    teamQuote: { school: outcome.school ?? '', contact: outcome.email, at: context.now.toISOString(), kind },
  });
  if (outcome.outcome === 'confirmed-change')
    return outcome.form === 'quote' ? [await toTeam('confirmed-change')] : [];
  if (outcome.outcome === 'held') {
    const change = toVisitor(changeEmail(context, outcome.form, outcome.email, outcome.values, outcome.key));
    // A quote for a contact on record: the team hears of it at once (the contact's own request
    // is never lost behind a stranger's earlier one), and the contact is asked to confirm it.
    return outcome.form === 'quote' ? [await toTeam('held'), ...(await change)] : change;
  }
  if (outcome.form === 'waitlist')
    return toVisitor(confirmationEmail(context, outcome.email, outcome.key, outcome.withdrawnAt));
  return [
    await toTeam('new'),
    ...(await toVisitor(quoteAcknowledgement(context, outcome.email, settings.bookingUrl, outcome.key))),
  ];
}

/**
 * No mail bombing: one inbox gets at most one email from the site per 10 minutes and at most 3
 * in any 24 hours, however many clients submit it and whichever form they use. Counted per inbox
 * (`inboxKey`: `+tags`, Gmail's dots and googlemail.com are one inbox), since that is whose
 * letterbox fills up.
 *
 * The rule is a pure function of the times already sent; a ledger keeps those times where the
 * the Worker can: in KV (MAIL_LEDGER; the Vite plugin's local stand-in in local runs), read and
 * written by the queue consumer, which runs one batch at a time (`max_concurrency: 1`), so its
 * reads see its own writes; in memory where KV is not bound (tests).
 */

/** Emails to one visitor's inbox: at least `minGapMs` between two, at most `perWindow` in any `windowMs`. */
export const MAIL_LIMITS = {
  minGapMs: 10 * 60 * 1000,
  perWindow: 3,
  windowMs: 24 * 60 * 60 * 1000,
};

type MailLimits = typeof MAIL_LIMITS;

/**
 * The schools team's emails about one contact (one quote): its new request, a request held for
 * it, a confirmed change. A real school sends one or two; a stranger's loop stops at five a day.
 */
export const TEAM_MAIL_LIMITS: MailLimits = { minGapMs: 0, perWindow: 5, windowMs: 24 * 60 * 60 * 1000 };

/** Whether one more email may go where mail went at `sentAt` (ms since epoch). */
export function mayEmail(sentAt: readonly number[], now: number, limits: MailLimits = MAIL_LIMITS): boolean {
  const recent = stillCounted(sentAt, now, limits);
  if (recent.length >= limits.perWindow) return false;
  return recent.every((at) => now - at >= limits.minGapMs);
}

/** The send times still worth keeping at `now` (those inside the window). */
function stillCounted(sentAt: readonly number[], now: number, limits: MailLimits): number[] {
  return sentAt.filter((at) => now - at < limits.windowMs);
}

/** The part of a Workers KV namespace the ledger uses. */
export interface MailLedgerKv {
  get(key: string): Promise<string | null>;
  put(key: string, value: string, options?: { expirationTtl?: number }): Promise<void>;
}

const KV_PREFIX = 'mail-ledger:';
const SENT_PREFIX = 'mail-sent:';
/** How long a sent mark is kept: far longer than a job's retries, and any replay of its dead letter. */
const SENT_MARK_TTL_SECONDS = 30 * 24 * 60 * 60;

/** The key's SHA-256, so no address is a KV key of its own. */
async function digest(key: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key)));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * A ledger in Workers KV: one key per inbox, expiring a day after its last send. Its reservations
 * for one inbox run one at a time, so within an isolate they are atomic. It also keeps which
 * emails went out, by idempotency key, for 30 days (the sent marks).
 */
export function kvMailLedger(kv: MailLedgerKv) {
  const read = async (key: string): Promise<number[]> => {
    try {
      const parsed: unknown = JSON.parse((await kv.get(key)) ?? '[]');
      return Array.isArray(parsed)
        ? parsed.filter((value): value is number => typeof value === 'number')
        : [];
    } catch {
      return [];
    }
  };
  const oneAtATime = keyedSerialiser();
  return {
    /** Records a send to `inbox` at `now` and answers true, or answers false and records nothing. */
    reserve(inbox: string, now: Date, limits: MailLimits = MAIL_LIMITS): Promise<boolean> {
      const key = KV_PREFIX + inbox;
      const at = now.getTime();
      return oneAtATime(key, async () => {
        const kept = stillCounted(await read(key), at, limits);
        if (!mayEmail(kept, at, limits)) return false;
        await kv.put(key, JSON.stringify([...kept, at]), {
          expirationTtl: Math.ceil(limits.windowMs / 1000),
        });
        return true;
      });
    },
    /** The schools team's notices held back for the hour's digest (team-inbox.ts). */
    held: heldQuotes(kv),
    hasSent: async (key: string) => (await kv.get(SENT_PREFIX + (await digest(key)))) !== null,
    markSent: async (key: string) =>
      kv.put(SENT_PREFIX + (await digest(key)), '1', { expirationTtl: SENT_MARK_TTL_SECONDS }),
  };
}

/** Where the send times per inbox, and the sent marks, are kept. */
export type MailLedger = ReturnType<typeof kvMailLedger>;

/** A ledger in this isolate's memory (tests, and a Worker without MAIL_LEDGER). Never expires. */
export function memoryMailLedger() {
  const values = new Map<string, string>();
  return kvMailLedger({
    get: async (key) => values.get(key) ?? null,
    put: async (key, value) => void values.set(key, value),
  });
}

/**
 * One email the Worker's queue writer decided to send, as a message on the mail queue
 * (wrangler.jsonc `MAIL_JOBS`): built, signed and counted against the recipient's limits when its
 * record was written, sent later by the mail queue's consumer (sendMailJobs). One job per email,
 * so a retried send never repeats the emails of its submission that already went out.
 */
export interface MailJob {
  readonly kind: 'mail';
  /** The message as it will be sent; its idempotency key is the submission's key and the email's kind. */
  readonly message: MailMessage;
  /** The submission's address (the contact's, for the schools team's notification): erasure finds it by this. */
  readonly email: string;
  readonly form: LinkForm;
  /** When the write that caused it was done (ISO 8601). */
  readonly queuedAt: string;
}

const isText = (value: unknown): value is string => typeof value === 'string';
const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;

/** Whether a value is a whole mail message (a job's, or one posted to the local outbox). */
export function isMailMessage(value: unknown): value is MailMessage {
  if (!isObject(value)) return false;
  const message = value as Partial<MailMessage>;
  return (
    (['to', 'subject', 'text', 'html', 'idempotencyKey'] as const).every((key) => isText(message[key])) &&
    isObject(message.from) &&
    isText(message.from.email) &&
    isObject(message.headers)
  );
}

/** Whether a queue message's body is a mail job (rather than a submission). */
export function isMailJob(body: unknown): body is MailJob {
  if (!isObject(body)) return false;
  const job = body as Partial<MailJob>;
  return (
    job.kind === 'mail' &&
    isText(job.email) &&
    (job.form === 'waitlist' || job.form === 'quote') &&
    isText(job.queuedAt) &&
    isMailMessage(job.message)
  );
}

/**
 * The environment variables the mail settings read (names are the owner's interface: keep them;
 * the launch check's lines for them are in scripts/launch-kit/checklist.ts).
 */
export interface MailEnv {
  /** The sender, `Name <address>` or an address on a domain with SPF, DKIM and DMARC set up. */
  MAIL_FROM?: string;
  /** Who hears of each quote request. */
  SCHOOLS_TEAM_EMAIL?: string;
  /** Signs every link in the site's emails (32+ characters). */
  LINK_SECRET?: string;
  /** A previous LINK_SECRET still honoured after a rotation (links live 7 days). */
  LINK_SECRET_PREVIOUS?: string;
  /** Local runs only (`vite`, `vite preview`, tests): the emails go to this outbox, not EMAIL. */
  MAIL_OUTBOX_URL?: string;
}

/** The sender used when MAIL_FROM is unset (local runs and tests only; launch-check fails it). */
export const DEFAULT_MAIL_FROM = 'Podling <hello@podling.app>';
/** Where quote notifications go when SCHOOLS_TEAM_EMAIL is unset (local runs and tests only). */
export const DEFAULT_SCHOOLS_TEAM_EMAIL = 'schools@podling.app';

/** `Name <address>` or a bare address, or null when it is neither. */
export function parseMailbox(value: string): MailAddress | null {
  const trimmed = value.trim();
  const named = /^(.*?)\s*<([^<>\s]+)>$/.exec(trimmed);
  const email = named ? (named[2] ?? '') : trimmed;
  const name = named?.[1]?.replace(/^"(.*)"$/, '$1').trim();
  if (!isValidEmail(email) || /[\r\n]/.test(trimmed)) return null;
  return name ? { email, name } : { email };
}

/**
 * Reads the mail settings; throws an error naming what is wrong. LINK_SECRET is required
 * everywhere: no secret from the repository signs a link (`vite` and `vite preview` make the
 * checkout its own, scripts/vite-plugins/worker-server.ts; a deploy sets its own).
 */
export function parseMailSettings(env: MailEnv) {
  const from = parseMailbox(env.MAIL_FROM ?? DEFAULT_MAIL_FROM);
  if (!from)
    throw new Error(`MAIL_FROM is not an address or "Name <address>": ${JSON.stringify(env.MAIL_FROM)}`);
  const team = env.SCHOOLS_TEAM_EMAIL?.trim() || DEFAULT_SCHOOLS_TEAM_EMAIL;
  if (!isValidEmail(team)) throw new Error(`SCHOOLS_TEAM_EMAIL is not an address: ${JSON.stringify(team)}`);
  const secret = env.LINK_SECRET;
  const problem = linkSecretProblem(secret);
  if (problem || !secret) throw new Error(problem ?? 'LINK_SECRET is not set');
  const previous =
    env.LINK_SECRET_PREVIOUS && !linkSecretProblem(env.LINK_SECRET_PREVIOUS)
      ? [env.LINK_SECRET_PREVIOUS]
      : [];
  // The current secret first.
  return { from, schoolsTeamEmail: team, linkSecrets: [secret, ...previous] };
}

/**
 * The one small mailer: every email the site sends goes through `Mailer.send`, whichever host
 * carries it: Cloudflare's `send_email` binding on a deploy, the local outbox in local runs.
 */
export interface Mailer {
  /**
   * Sends one message and resolves with the transport's id for it (a file path for the outbox);
   * rejects with a MailFailure. A retry with the same idempotency key is the same message.
   */
  send(message: MailMessage): Promise<{ readonly id: string }>;
}

/** A send that did not go out. `retryable`: worth trying again later (a network fault, a 429 or 5xx). */
export class MailFailure extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'MailFailure';
  }
}

/**
 * The message with every header value made text (header-text.ts), as a structured transport (the `send_email`
 * binding, the local outbox's MIME writer) takes it, or a MailFailure no retry can fix (an
 * unsafe address).
 */
export function readyToSend(message: MailMessage) {
  try {
    return {
      to: headerAddress(message.to),
      ...(message.replyTo ? { replyTo: headerAddress(message.replyTo) } : {}),
      subject: headerValue(message.subject),
      text: message.text,
      html: message.html,
      headers: Object.fromEntries(
        Object.entries(message.headers).map(([name, value]) => [headerText(name), headerValue(value)]),
      ),
      from: message.from.name
        ? { email: headerAddress(message.from.email), name: headerValue(message.from.name) }
        : headerAddress(message.from.email),
    };
  } catch (error) {
    throw new MailFailure(errorMessage(error), false);
  }
}

/**
 * The part of Cloudflare Email Service's `send_email` binding the site uses: its structured
 * message (`EmailMessageBuilder`: the binding builds the MIME itself), as Cloudflare documents it
 * (developers.cloudflare.com/email-service/api/send-emails/workers-api/). Custom headers must be
 * on Cloudflare's allowlist: List-Unsubscribe (with an https URI) and List-Unsubscribe-Post are.
 */
export interface SendEmailBinding {
  send(message: {
    from: string | { email: string; name: string };
    to: string;
    replyTo?: string;
    subject: string;
    text: string;
    html: string;
    headers?: Record<string, string>;
  }): Promise<{ messageId: string }>;
}

/**
 * The binding's error codes no retry can fix for this message (a bad payload, a refused or
 * suppressed recipient, an unverified sender): straight to the dead letters, where the owner
 * sees them and replays them once the sending domain is fixed. Every other code (a rate or daily
 * limit, an internal error, a delivery failure) and an error with no code are retried.
 */
const PERMANENT_SEND_ERRORS = new Set([
  'E_VALIDATION_ERROR',
  'E_FIELD_MISSING',
  'E_TOO_MANY_RECIPIENTS',
  'E_SENDER_NOT_VERIFIED',
  'E_RECIPIENT_NOT_ALLOWED',
  'E_RECIPIENT_SUPPRESSED',
  'E_SENDER_DOMAIN_NOT_AVAILABLE',
  'E_CONTENT_TOO_LARGE',
  'E_HEADER_NOT_ALLOWED',
  'E_HEADER_USE_API_FIELD',
  'E_HEADER_VALUE_INVALID',
  'E_HEADER_VALUE_TOO_LONG',
  'E_HEADER_NAME_INVALID',
  'E_HEADERS_TOO_LARGE',
  'E_HEADERS_TOO_MANY',
]);

/** The Worker's mailer: Cloudflare Email Service through the `send_email` binding. */
export function cloudflareMailer(binding: SendEmailBinding): Mailer {
  return {
    async send(message) {
      const ready = readyToSend(message);
      try {
        const { messageId } = await binding.send(ready);
        return { id: messageId };
      } catch (error) {
        // The Worker's mail queue retries what may pass later and dead-letters the rest, so a
        // message is never lost silently. `code`: the one Cloudflare's binding puts on its errors.
        const found: unknown = isObject(error) && 'code' in error ? error.code : undefined;
        const code = typeof found === 'string' ? found : undefined;
        throw new MailFailure(
          `send_email failed${code ? ` (${code})` : ''}: ${errorMessage(error)}`,
          !(code && PERMANENT_SEND_ERRORS.has(code)),
        );
      }
    },
  };
}

/**
 * The Worker's mailer in local runs (`vite`, `vite preview`, tests): each message is posted to the
 * local outbox (MAIL_OUTBOX_URL, the emulator's `/__emulator/outbox`), which writes it as one
 * `.eml` file. Never set on a deploy (`npm run launch-check` fails it).
 */
function localOutboxMailer(url: string): Mailer {
  return {
    async send(message) {
      readyToSend(message);
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(message),
        });
      } catch (error) {
        throw new MailFailure(`The local outbox did not answer: ${String(error)}`, true);
      }
      if (!response.ok)
        throw new MailFailure(`The local outbox answered ${response.status}`, response.status >= 500);
      const { id } = (await response.json()) as { id?: unknown };
      return { id: typeof id === 'string' ? id : '' };
    },
  };
}

/** A sender or recipient: an address and, for the sender, a display name. */
export interface MailAddress {
  readonly email: string;
  readonly name?: string;
}

/**
 * One email as the site sends it. Every value that reaches a header passes through readyToSend:
 * CR and LF never do, so nothing a visitor types can add a header or a recipient, and what it
 * types reads as typed (header-text.ts).
 */
export interface MailMessage {
  readonly from: MailAddress;
  /** One recipient: the site never sends one message to two people. */
  readonly to: string;
  /** Where a reply goes (the schools team's notification: the contact's address). */
  readonly replyTo?: string;
  readonly subject: string;
  /** The plain-text part; every message has one. */
  readonly text: string;
  /** The HTML part; every value in it was escaped where it was built. */
  readonly html: string;
  /** Further headers (List-Unsubscribe and List-Unsubscribe-Post). */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * One key per message the site means to send (the submission and what the message is for):
   * a retried send with the same key is the same message, which the mail ledger's sent marks
   * (sendMailJobs) and the local outbox's file names never send twice.
   */
  readonly idempotencyKey: string;
}
