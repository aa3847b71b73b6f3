/**
 * Where the request check's accepted submissions go: queued for the one paced writer (the
 * Worker), or upserted while the visitor waits (Netlify, `vite`, `vite preview`) through the
 * server's one upsert by email (upsert-by-email.ts).
 */
import { keyedSerialiser, submissionKey } from '#src/lib/airtable/one-at-a-time.ts';
import { AirtableError, createAirtableClient } from './airtable-client.ts';
import { createPacer, type Pacer } from './pacer.ts';
import { airtableAccess, type AirtableEnv } from './settings.ts';
import type { Submission } from './submission.ts';
import { SUBMISSION_UPSERT, upsertByEmail } from './upsert-by-email.ts';
import { CONSENTED_UPSERT, writeOutcome } from './consent.ts';
import type { MailService } from './mail/mail-service.ts';

/** One key per submission: its emails keep it, so a retried send is the same email. */
export const submissionMailKey = (submission: Submission) =>
  `${submission.table}:${submission.email}:${submission.acceptedAt}`;

/**
 * Longest a synchronous store works on one answer. Under the page's own 30 s bound, so a hanging
 * Airtable still gets the visitor an error answer rather than a silent timeout.
 */
export const STORE_ANSWER_BOUND_MS = 25_000;

/**
 * Longest the mail of one write may keep a host busy after the answer (a Netlify Function kept
 * alive by waitUntil, or awaited where there is none). At most three emails (a quote's two, a
 * confirmation): a provider that takes longer is failing, and the record is stored either way.
 */
export const MAIL_AFTER_WRITE_BOUND_MS = 10_000;

/**
 * How a host keeps work alive after its answer (Netlify's `context.waitUntil`; the Worker's
 * `ctx.waitUntil`). Without one the work runs on in the process (`vite`, `vite preview`).
 */
export type KeepAlive = (work: Promise<void>) => void;

/** Where one submission came from, as the store needs it. */
export interface SaveContext {
  /** The site's origin as the visitor reached it, for the links of the emails it causes. */
  origin?: string;
  /** Given, the write's mail is handed to it: the host keeps it alive past the answer. */
  keepAlive?: KeepAlive;
}

/** Where accepted submissions go: the queue (Worker) or a synchronous upsert. */
export interface SubmissionStore {
  /**
   * Resolves once stored (or queued); rejects with an AirtableError the visitor is told of.
   * Never waits on the mail the write causes, and never fails because of it (see SaveContext).
   */
  save(submission: Submission, context?: SaveContext): Promise<void>;
}

export interface SyncStoreOptions {
  fetch?: typeof fetch;
  /** One pacer per instance; pass a shared one when several stores talk to the same base. */
  pacer?: Pacer;
  answerBoundMs?: number;
  now?: () => number;
  /** Where operational warnings go (never with a token or an email in them). */
  warn?: (message: string) => void;
  /** Upstream messages may name the real base: this hides it. */
  scrub?: (message: string) => string;
  /**
   * With a mail service, consent applies (consent.ts): a new address is stored Pending and gets
   * its confirmation; a stored one is held and its owner asked by email.
   */
  mail?: MailService;
  /** Longest the mail of one write may take (MAIL_AFTER_WRITE_BOUND_MS). */
  mailBoundMs?: number;
}

/**
 * The mail of one write as work that always settles, within `boundMs`, and never rejects: a
 * failed or hanging send is logged, and the stored record is untouched (nothing retries the
 * write, so nothing doubles it; a retried send keeps its idempotency key).
 */
export function settledMail(
  sending: Promise<unknown>,
  boundMs: number,
  warn: (message: string) => void,
): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), boundMs);
  });
  return Promise.race([sending.then(() => 'sent' as const), bound]).then(
    (how) => {
      clearTimeout(timer);
      if (how === 'late') warn(`Mail after a write took over ${boundMs} ms; not waited for`);
    },
    (error: unknown) => {
      clearTimeout(timer);
      warn(`Mail after a write failed: ${error instanceof Error ? error.message : 'unknown'}`);
    },
  );
}

/** Stores each submission while the visitor waits: one address at a time, paced by the pacer. */
export function createSyncStore(env: AirtableEnv, options: SyncStoreOptions = {}): SubmissionStore {
  const access = airtableAccess(env);
  const now = options.now ?? Date.now;
  const answerBoundMs = options.answerBoundMs ?? STORE_ANSWER_BOUND_MS;
  const warn = options.warn ?? ((message: string) => console.warn(message));
  const scrub = options.scrub ?? ((message: string) => message);
  const pacer = options.pacer ?? createPacer({ now });
  const client = createAirtableClient(access, { pacer, fetch: options.fetch, now });
  const oneAtATime = keyedSerialiser();
  const how = options.mail ? CONSENTED_UPSERT : SUBMISSION_UPSERT;
  return {
    async save(submission, context = {}) {
      if (!access.token)
        throw new AirtableError(401, 'AUTHENTICATION_REQUIRED', 'The server has no AIRTABLE_API_KEY');
      if (!access.baseId)
        throw new AirtableError(403, 'NOT_AUTHORIZED', 'The server has no AIRTABLE_BASE_ID');
      const deadline = now() + answerBoundMs;
      const [result] = await oneAtATime(submissionKey(submission.table, submission.email), () =>
        upsertByEmail(client, submission.table, [submission], how, { deadline, now }),
      );
      if (result && result.outcome !== 'failed') {
        const outcome = writeOutcome(submission, result.outcome, submissionMailKey(submission));
        if (outcome && options.mail && context.origin) {
          // The visitor's answer never waits on or depends on mail; a host that may stop once it
          // has answered (a Netlify Function) keeps the sending alive with keepAlive.
          const mail = settledMail(
            options.mail.afterWrite(outcome, context.origin),
            options.mailBoundMs ?? MAIL_AFTER_WRITE_BOUND_MS,
            warn,
          );
          context.keepAlive?.(mail);
        }
        return;
      }
      if (!result) return;
      const { error } = result;
      if (!(error instanceof AirtableError)) throw error;
      if (error.status !== 429) warn(`Airtable store: ${error.status || 'no answer'} ${error.type}`);
      // What the visitor is told: a gateway's status when Airtable never answered.
      const status = error.status === 0 ? (error.type === 'TIMEOUT' ? 504 : 502) : error.status;
      throw new AirtableError(status, error.type, scrub(error.message));
    },
  };
}

/** A submission as queued: with the site's origin the visitor reached, for its emails' links. */
export interface QueuedSubmission extends Submission {
  readonly origin?: string;
}

/** Where accepted submissions go in queued mode (a Cloudflare Queue in the Worker). */
export interface SubmissionQueue {
  send(submission: QueuedSubmission): Promise<void>;
}

/** Queues each submission for the one paced writer; answers as soon as the queue has it. */
export function createQueueStore(
  queue: SubmissionQueue,
  warn: (message: string) => void = (message) => console.warn(message),
): SubmissionStore {
  return {
    async save(submission, context = {}) {
      try {
        await queue.send(context.origin ? { ...submission, origin: context.origin } : submission);
      } catch (error) {
        warn(
          `Airtable relay: the queue refused a submission (${error instanceof Error ? error.message : 'unknown'})`,
        );
        throw new AirtableError(503, 'SERVICE_UNAVAILABLE', 'Could not accept the submission; try again');
      }
    },
  };
}
