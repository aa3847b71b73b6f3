/**
 * Where the request check's accepted submissions go: queued for the one paced writer (the Worker), or
 * upserted while the visitor waits (Netlify, `vite`, `vite preview`). Also the server's Airtable
 * settings from its environment (`upstreamSettings`), which the queue writer, the retention job
 * and the privacy commands read too.
 */
import { AIRTABLE_DEFAULT_ENDPOINT } from '#src/config/settings.ts';
import { keyedSerialiser, submissionKey } from '#src/lib/airtable/one-at-a-time.ts';
import {
  type AirtableUpstream,
  createAirtableUpstream,
  type StoredRecord,
  UpstreamError,
} from './airtable-upstream.ts';
import { createPacer, type Pacer } from './pacer.ts';
import { cellsForCreate, cellsForUpdate, type Submission } from './submission.ts';

/** The server's environment variables for Airtable (names kept: deploys and tests set them). */
export interface RelayEnv {
  AIRTABLE_API_KEY?: string;
  AIRTABLE_BASE_ID?: string;
  /** Upstream origin; Airtable's API when unset. */
  AIRTABLE_ENDPOINT_URL?: string;
}

/**
 * Longest a synchronous store works on one answer. Under the page's own 30 s bound, so a hanging
 * Airtable still gets the visitor an error answer rather than a silent timeout.
 */
export const STORE_ANSWER_BOUND_MS = 25_000;

/** Where accepted submissions go: the queue (Worker) or a synchronous upsert. */
export interface SubmissionStore {
  /** Resolves once stored (or queued); rejects with a StoreFailure the visitor is told of. */
  save(submission: Submission): Promise<void>;
}

export class StoreFailure extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
    this.name = 'StoreFailure';
  }
}

/** Upserts one submission: look the email up, update the match or create the record. */
export async function upsertSubmission(
  upstream: AirtableUpstream,
  submission: Submission,
  deadline: number,
  at: Date,
): Promise<StoredRecord> {
  const [existing] = await upstream.findByEmails(submission.table, [submission.email], deadline);
  if (existing) {
    const [updated] = await upstream.update(
      submission.table,
      [{ id: existing.id, fields: cellsForUpdate(submission, at) }],
      deadline,
    );
    return updated ?? existing;
  }
  const [created] = await upstream.create(submission.table, [cellsForCreate(submission, at)], deadline);
  if (!created) throw new UpstreamError(502, 'INVALID_RESPONSE', 'Airtable created no record');
  return created;
}

/** The server's upstream settings from its environment (Airtable's API unless told otherwise). */
export function upstreamSettings(env: RelayEnv) {
  return {
    apiKey: env.AIRTABLE_API_KEY?.trim() ?? '',
    baseId: env.AIRTABLE_BASE_ID?.trim() ?? '',
    endpointUrl: env.AIRTABLE_ENDPOINT_URL?.trim() || AIRTABLE_DEFAULT_ENDPOINT,
  };
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
}

/** Stores each submission while the visitor waits: one address at a time, paced by the pacer. */
export function createSyncStore(env: RelayEnv, options: SyncStoreOptions = {}): SubmissionStore {
  const settings = upstreamSettings(env);
  const now = options.now ?? Date.now;
  const answerBoundMs = options.answerBoundMs ?? STORE_ANSWER_BOUND_MS;
  const warn = options.warn ?? ((message: string) => console.warn(message));
  const scrub = options.scrub ?? ((message: string) => message);
  const pacer = options.pacer ?? createPacer({ now });
  const upstream = createAirtableUpstream(settings, { pacer, fetch: options.fetch, now });
  const oneAtATime = keyedSerialiser();
  return {
    async save(submission) {
      if (!settings.apiKey)
        throw new StoreFailure(401, 'AUTHENTICATION_REQUIRED', 'The server has no AIRTABLE_API_KEY');
      if (!settings.baseId)
        throw new StoreFailure(403, 'NOT_AUTHORIZED', 'The server has no AIRTABLE_BASE_ID');
      const deadline = now() + answerBoundMs;
      try {
        await oneAtATime(submissionKey(submission.table, submission.email), () =>
          upsertSubmission(upstream, submission, deadline, new Date(now())),
        );
      } catch (error) {
        if (!(error instanceof UpstreamError)) throw error;
        if (error.status !== 429) warn(`Airtable store: ${error.status || 'no answer'} ${error.type}`);
        const status = error.status === 0 ? (error.type === 'TIMEOUT' ? 504 : 502) : error.status;
        throw new StoreFailure(status, error.type, scrub(error.message));
      }
    },
  };
}

/** Where accepted submissions go in queued mode (a Cloudflare Queue in the Worker). */
export interface SubmissionQueue {
  send(submission: Submission): Promise<void>;
}

/** Queues each submission for the one paced writer; answers as soon as the queue has it. */
export function createQueueStore(
  queue: SubmissionQueue,
  warn: (message: string) => void = (message) => console.warn(message),
): SubmissionStore {
  return {
    async save(submission) {
      try {
        await queue.send(submission);
      } catch (error) {
        warn(
          `Airtable relay: the queue refused a submission (${error instanceof Error ? error.message : 'unknown'})`,
        );
        throw new StoreFailure(503, 'SERVICE_UNAVAILABLE', 'Could not accept the submission; try again');
      }
    },
  };
}
