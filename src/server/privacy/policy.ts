/**
 * The privacy policy's promises (UK GDPR Art. 5(1)(e), 15, 17) over every form's table:
 * - retention: records whose last activity ('updated', else 'created', else the record's creation)
 *   is over DATA_RETENTION_MONTHS calendar months old, and unconfirmed sign-ups (Consent 'Pending')
 *   after PENDING_RETENTION_DAYS, are deleted: daily by the Cron Trigger (retention-job.ts) or
 *   `npm run privacy:retention`. 'Confirmed', 'Withdrawn' (suppression list), no Consent: the months;
 * - erasure and access: every record of one email, matched as the site matches (trimmed, any case).
 * Through the one Airtable client: pages of 100, deletes of ≤ 10 ids, all paced (on the Worker the
 * desk's pacer). Logs and reports carry counts, never emails.
 */
import { DATA_RETENTION_MONTHS, PENDING_RETENTION_DAYS } from '#src/config/constants.ts';
import { emailLookupFormula } from '#src/lib/forms/submission.ts';
import { confirmingForm, emailFieldOf, FORM_LIST, formOfTable } from '#src/lib/forms/forms.ts';
import {
  AIRTABLE_MAX_RECORDS_PER_WRITE,
  type AirtableClient,
  AirtableError,
  type StoredRecord,
} from '#src/server/airtable/client.ts';
import { consentOf, stampOf } from './consent.ts';

/** The tables whose records hold people's data: every form's. */
export const privacyTables = (): string[] => FORM_LIST.map((form) => form.table);

/** From the contract: the email, the activity fields ('updated' first) and, if confirming, Consent. */
function fieldsOf(table: string) {
  const form = formOfTable(table);
  return {
    email: form ? emailFieldOf(form) : 'Email',
    activity: [stampOf(form, 'updated'), stampOf(form, 'created')].filter(Boolean),
    consent: consentOf(table)?.consent,
  };
}

/** The Consent state whose records are kept PENDING_RETENTION_DAYS only. */
const PENDING = 'Pending';
const DAY_MS = 86_400_000;

/** `months` calendar months before `now` (UTC): 23 Nov 2026 → 23 Nov 2024; 29 Feb → 28 Feb. */
export function monthsBefore(now: Date, months: number): Date {
  const result = new Date(now.getTime());
  result.setUTCMonth(now.getUTCMonth() - months, 1);
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(now.getUTCDate(), lastDay));
  return result;
}

/** A record last active before these is kept no longer: `months` (any), `pending` (unconfirmed sign-ups). */
export function retentionCutoffs(now: Date) {
  return {
    months: monthsBefore(now, DATA_RETENTION_MONTHS),
    pending: new Date(now.getTime() - PENDING_RETENTION_DAYS * DAY_MS),
  };
}
type RetentionCutoffs = ReturnType<typeof retentionCutoffs>;

/**
 * The rule itself: undefined if `record` is kept, else its last activity, before the cutoff that applies to
 * it (the days for an unconfirmed sign-up, else the months), and whether the days' rule alone expired it.
 */
export function expiryOf(table: string, record: StoredRecord, cutoffs: RetentionCutoffs) {
  const { activity, consent } = fieldsOf(table);
  const values = [...activity.map((name) => record.fields[name]), record.createdTime];
  const dates = values.map((value) => new Date(typeof value === 'string' ? value : Number.NaN));
  const last = dates.find((date) => !Number.isNaN(date.getTime()));
  const unconfirmed = !!consent && record.fields[consent] === PENDING;
  const cutoff = unconfirmed ? cutoffs.pending : cutoffs.months;
  return last && last < cutoff
    ? { lastActivity: last.toISOString(), pending: unconfirmed && last >= cutoffs.months }
    : undefined;
}

/**
 * The formula that asks Airtable for the records of `table` whose last activity is before `cutoff`, or, with
 * `pending` on the confirming form's table, also the unconfirmed sign-ups whose last activity is before that.
 */
export function expiredFormula(table: string, cutoff: Date, pending?: Date): string {
  const { activity, consent } = fieldsOf(table);
  const last = activity.reduceRight(
    (otherwise, name) => `IF({${name}}, {${name}}, ${otherwise})`,
    'CREATED_TIME()',
  );
  const before = (date: Date) => `IS_BEFORE(${last}, DATETIME_PARSE('${date.toISOString()}'))`;
  if (!pending || !consent) return before(cutoff);
  return `OR(${before(cutoff)}, AND({${consent}} = '${PENDING}', ${before(pending)}))`;
}

/**
 * The client as the jobs use it: a request failing transiently (429, 5xx, timeout, dropped connection)
 * is tried up to 5 times (after a 429 the next try waits out the pacer's penalty; otherwise 1, 2, 4,
 * 8 s), each try bounded by a minute, the pacer's wait included (no visitor is waiting).
 */
const retrying = (client: AirtableClient) => client.with({ attempts: 5, requestBoundMs: 60_000 });

/**
 * Deletes records at most 10 per request. A record someone deleted meanwhile makes Airtable refuse its whole
 * request (404): that request's records are then deleted one by one, and the missing one counts as gone.
 * Stops early (leaving the rest for the next run) once `stopAt`, a time in the client's clock, has passed.
 */
async function deleteIds(
  client: AirtableClient,
  table: string,
  ids: readonly string[],
  stopAt = Number.POSITIVE_INFINITY,
): Promise<{ deleted: string[]; remaining: number }> {
  const deleted: string[] = [];
  for (let i = 0; i < ids.length; i += AIRTABLE_MAX_RECORDS_PER_WRITE) {
    if (client.now() >= stopAt) return { deleted, remaining: ids.length - i };
    const part = ids.slice(i, i + AIRTABLE_MAX_RECORDS_PER_WRITE);
    try {
      deleted.push(...(await client.deleteRecords(table, part)));
    } catch (error) {
      if (!(error instanceof AirtableError && error.status === 404)) throw error;
      if (part.length > 1)
        for (const id of part) deleted.push(...(await deleteIds(client, table, [id])).deleted);
    }
  }
  return { deleted, remaining: 0 };
}

/** Airtable's answer to a formula or field list naming a field the table lacks. */
const isUnknownField = (error: unknown) =>
  error instanceof AirtableError &&
  error.status === 422 &&
  (error.type === 'INVALID_FILTER_BY_FORMULA' || error.type === 'UNKNOWN_FIELD_NAME');

/**
 * The records past retention in every form's table: the formula's picks, checked again by the rule. The
 * Consent rule applies on the confirming form's table unless the base predates that field (`npm run
 * airtable:check` says so): no sign-up there can be Pending, so the months alone apply (`consentRule` false).
 */
async function findExpired(client: AirtableClient, cutoffs: RetentionCutoffs) {
  const expired: { table: string; id: string; email: string; lastActivity: string; pending: boolean }[] = [];
  let consentRule = true;
  for (const table of privacyTables()) {
    const { email, activity, consent } = fieldsOf(table);
    const list = (withConsent: boolean) =>
      client.listAll(table, {
        filterByFormula: expiredFormula(table, cutoffs.months, withConsent ? cutoffs.pending : undefined),
        fields: [email, ...activity, ...(withConsent && consent ? [consent] : [])],
      });
    const records = await list(true).catch((error: unknown) => {
      if (!consent || !isUnknownField(error)) throw error;
      consentRule = false;
      return list(false);
    });
    for (const record of records) {
      const expiry = expiryOf(table, record, cutoffs);
      const address = record.fields[email];
      if (expiry)
        expired.push({ table, id: record.id, email: typeof address === 'string' ? address : '', ...expiry });
    }
  }
  return { expired, consentRule };
}

export interface RetentionOptions {
  /** The server's one Airtable client; every request goes through its pacer. */
  client: AirtableClient;
  /** The policy's clock, for the cutoffs (tests pin it); requests are bounded on the client's own. */
  now?: () => number;
  /** List only; delete nothing. */
  dryRun?: boolean;
  /** Start no delete after this long (the Cron Trigger's wall-time limit); the next run goes on. */
  budgetMs?: number;
}

/**
 * Applies retention: deletes every record past it (or, dry, only lists them). Reports the months'
 * and the unconfirmed sign-ups' cutoffs, whether the Consent rule applied, the records deleted
 * (or that would be) and those left for the next run (the time budget ran out), per table.
 */
export async function applyRetention(options: RetentionOptions) {
  const client = retrying(options.client);
  const stopAt = client.now() + (options.budgetMs ?? Number.POSITIVE_INFINITY);
  const cutoffs = retentionCutoffs(new Date((options.now ?? Date.now)()));
  const { expired, consentRule } = await findExpired(client, cutoffs);
  const tables = privacyTables();
  const perTable = () => Object.fromEntries(tables.map((table) => [table, 0]));
  const report = {
    cutoff: cutoffs.months.toISOString(),
    pendingCutoff: cutoffs.pending.toISOString(),
    consentRule,
    dryRun: options.dryRun ?? false,
    deleted: perTable(),
    remaining: perTable(),
    expired,
  };
  for (const table of tables) {
    const ids = expired.filter((record) => record.table === table).map((record) => record.id);
    const { deleted, remaining } = report.dryRun
      ? { deleted: ids, remaining: 0 }
      : await deleteIds(client, table, ids, stopAt);
    report.deleted[table] = deleted.length;
    report.remaining[table] = remaining;
  }
  return report;
}

/** One line for a log: counts per table, never an email. */
export function describeRetention(report: Awaited<ReturnType<typeof applyRetention>>): string {
  const counts = Object.entries(report.deleted).map(([table, count]) => `${count} in ${table}`);
  const left = Object.values(report.remaining).reduce((sum, count) => sum + count, 0);
  const pending = report.expired.filter((record) => record.pending).length;
  const rule = report.consentRule
    ? `unconfirmed sign-ups ${PENDING_RETENTION_DAYS} days, before ${report.pendingCutoff}`
    : `no Consent field in ${confirmingForm()?.table}, so no ${PENDING_RETENTION_DAYS}-day rule for unconfirmed sign-ups`;
  return (
    `Retention (${DATA_RETENTION_MONTHS} months, last activity before ${report.cutoff}; ${rule}): ` +
    `${report.dryRun ? 'would delete' : 'deleted'} ${counts.join(', ')}` +
    (pending > 0 ? ` (${pending} of them unconfirmed sign-ups)` : '') +
    (left > 0 ? `; ${left} left for the next run (time budget)` : '')
  );
}

/** Every stored record of `email` in every form's table (Article 15), with all its fields and times. */
export async function exportEmail(client: AirtableClient, email: string) {
  const found: Record<string, StoredRecord[]> = {};
  const retried = retrying(client);
  for (const table of privacyTables()) {
    const filterByFormula = emailLookupFormula(email, fieldsOf(table).email);
    found[table] = await retried.listAll(table, { filterByFormula });
  }
  return found;
}

/** Deletes every record of `email` in every form's table (Article 17); returns what it deleted. */
export async function eraseEmail(client: AirtableClient, email: string) {
  const retried = retrying(client);
  const erased: { table: string; id: string; createdTime?: string }[] = [];
  for (const [table, records] of Object.entries(await exportEmail(client, email))) {
    const ids = records.map(({ id }) => id);
    const { deleted } = await deleteIds(retried, table, ids);
    for (const { id, createdTime } of records)
      if (deleted.includes(id)) erased.push({ table, id, createdTime });
  }
  return erased;
}
