/**
 * The retention Cron Trigger (daily; worker.ts loads this when it fires): policy.ts's retention on
 * the base and the dead letters, logging counts, never emails.
 */
import { createAirtableClient } from '#src/server/airtable/client.ts';
import type { Pacer } from '#src/server/airtable/pacer.ts';
import { applyRetention, describeRetention, type RetentionOptions } from './policy.ts';
import { type DeadLetterStore, listDeadLetters } from '#src/server/queues/dead-letters.ts';
import { airtableAccess, type AirtableEnv } from '#src/server/settings.ts';

/**
 * Retention for the Worker's dead letters (submissions it could not store; they hold emails): those that
 * failed before `cutoff` are deleted (an unreadable `failedAt`, an Invalid Date, never is); returns how many.
 */
export async function expireDeadLetters(store: DeadLetterStore, cutoff: Date): Promise<number> {
  const expired = (await listDeadLetters(store)).filter(({ letter }) => new Date(letter.failedAt) < cutoff);
  for (const { key } of expired) await store.delete(key);
  return expired.length;
}

/**
 * Longest one run keeps deleting (a Cron Trigger may run for 15 minutes): about 2,500 records a
 * minute at Airtable's pace, so a backlog larger than that is finished by the next days' runs.
 */
export const RETENTION_JOB_BUDGET_MS = 10 * 60_000;

export interface RetentionJobEnv extends AirtableEnv {
  DEAD_LETTERS?: DeadLetterStore;
}

export interface RetentionJobOptions extends Pick<RetentionOptions, 'now'> {
  /** The desk's pacer (desk/desk.ts), shared with the writer, so together they stay under 5 a second. */
  pacer: Pacer;
  log?: (line: string) => void;
}

/** One retention run; throws (after logging why) when Airtable could not be asked, so the run shows as failed. */
export async function runRetentionJob(env: RetentionJobEnv, options: RetentionJobOptions): Promise<void> {
  const log = options.log ?? ((line: string) => console.log(line));
  const access = airtableAccess(env);
  if (!access.token || !access.baseId) {
    log('Retention: AIRTABLE_API_KEY or AIRTABLE_BASE_ID is not set; nothing done');
    return;
  }
  const client = createAirtableClient(access, { pacer: options.pacer });
  try {
    const report = await applyRetention({ client, budgetMs: RETENTION_JOB_BUDGET_MS, now: options.now });
    const letters = env.DEAD_LETTERS ? await expireDeadLetters(env.DEAD_LETTERS, new Date(report.cutoff)) : 0;
    log(`${describeRetention(report)}; ${letters} dead letters; ${client.requestsSent()} Airtable requests`);
  } catch (error) {
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error';
    log(
      `Retention failed after ${client.requestsSent()} Airtable requests (${reason}); the next run tries again`,
    );
    throw error;
  }
}
