/**
 * The privacy policy's promises, kept by the system (UK GDPR Articles 5(1)(e), 15 and 17):
 *
 * - retention: records of 'Waitlist' and 'School Quotes' whose last activity (Last Updated, else
 *   Created At, else the record's own creation time) is more than DATA_RETENTION_MONTHS calendar
 *   months ago are deleted — daily by the Worker's Cron Trigger, or by `npm run privacy:retention`;
 * - erasure: every record of one email, matched as the site matches (trimmed, case-insensitive);
 * - access: every record of one email, fields and times, for a subject access request.
 *
 * Everything goes through the server's one Airtable client (airtable-upstream.ts): pages of 100,
 * deletes of at most 10 ids, every request through the rate gate (on the Worker the same gate as
 * the queue's writer). Logs and reports carry counts, never emails.
 *
 * Runs on the host and in the owner's commands: relative imports only.
 */
import { DATA_RETENTION_MONTHS } from '../config/constants.ts';
import { normaliseEmail } from '../lib/airtable/fields.ts';
import { emailLookupFormula } from '../lib/airtable/formula.ts';
import { AIRTABLE_SCHEMA } from '../lib/airtable/schema.ts';
import {
  AIRTABLE_MAX_RECORDS_PER_WRITE,
  type AirtableUpstream,
  type StoredRecord,
} from './airtable-upstream.ts';

/** The tables whose records hold people's data. */
export const PRIVACY_TABLES: readonly string[] = [AIRTABLE_SCHEMA.waitlist.name, AIRTABLE_SCHEMA.quotes.name];

const EMAIL = AIRTABLE_SCHEMA.waitlist.fields.email.name;
const CREATED_AT = AIRTABLE_SCHEMA.waitlist.fields.createdAt.name;
const LAST_UPDATED = AIRTABLE_SCHEMA.waitlist.fields.lastUpdated.name;
/** Longest one request may take (the command and the cron job have no visitor waiting). */
const REQUEST_BOUND_MS = 60_000;

/** `months` calendar months before `now` (UTC): 23 Nov 2026 → 23 Nov 2024; 29 Feb → 28 Feb. */
export function monthsBefore(now: Date, months: number): Date {
  const result = new Date(now.getTime());
  const day = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() - months);
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}

/** The moment before which a record's last activity means it is kept no longer. */
export function retentionCutoff(now: Date, months = DATA_RETENTION_MONTHS): Date {
  return monthsBefore(now, months);
}

/** A record's last activity: Last Updated, else Created At, else its creation time. */
export function lastActivity(record: StoredRecord): Date | null {
  for (const value of [record.fields[LAST_UPDATED], record.fields[CREATED_AT], record.createdTime]) {
    if (typeof value !== 'string' || value === '') continue;
    const date = new Date(value);
    if (!Number.isNaN(date.getTime())) return date;
  }
  return null;
}

/** The formula that asks Airtable for the records whose last activity is before `cutoff`. */
export function expiredFormula(cutoff: Date): string {
  const activity = `IF({${LAST_UPDATED}}, {${LAST_UPDATED}}, IF({${CREATED_AT}}, {${CREATED_AT}}, CREATED_TIME()))`;
  return `IS_BEFORE(${activity}, DATETIME_PARSE('${cutoff.toISOString()}'))`;
}

export interface PrivacyOptions {
  upstream: AirtableUpstream;
  now?: () => number;
}

/** Every record matching `formula`, page by page. */
async function listAll(
  { upstream, now = Date.now }: PrivacyOptions,
  table: string,
  filterByFormula: string,
  fields?: readonly string[],
): Promise<StoredRecord[]> {
  const records: StoredRecord[] = [];
  let offset: string | undefined;
  do {
    const page = await upstream.listPage(
      table,
      { filterByFormula, fields, offset },
      now() + REQUEST_BOUND_MS,
    );
    records.push(...page.records);
    offset = page.offset;
  } while (offset);
  return records;
}

/** Deletes records 10 per request; returns how many were deleted. */
async function deleteAll(
  { upstream, now = Date.now }: PrivacyOptions,
  table: string,
  ids: readonly string[],
): Promise<number> {
  let deleted = 0;
  for (let i = 0; i < ids.length; i += AIRTABLE_MAX_RECORDS_PER_WRITE) {
    const part = ids.slice(i, i + AIRTABLE_MAX_RECORDS_PER_WRITE);
    deleted += (await upstream.deleteRecords(table, part, now() + REQUEST_BOUND_MS)).length;
  }
  return deleted;
}

export interface ExpiredRecord {
  table: string;
  id: string;
  email: string;
  lastActivity: string;
}

/** The records past retention, in both tables (checked again here, not only by the formula). */
export async function findExpired(options: PrivacyOptions): Promise<ExpiredRecord[]> {
  const cutoff = retentionCutoff(new Date((options.now ?? Date.now)()));
  const expired: ExpiredRecord[] = [];
  for (const table of PRIVACY_TABLES) {
    const records = await listAll(options, table, expiredFormula(cutoff), [EMAIL, CREATED_AT, LAST_UPDATED]);
    for (const record of records) {
      const activity = lastActivity(record);
      if (!activity || activity >= cutoff) continue;
      expired.push({
        table,
        id: record.id,
        email: typeof record.fields[EMAIL] === 'string' ? record.fields[EMAIL] : '',
        lastActivity: activity.toISOString(),
      });
    }
  }
  return expired;
}

export interface RetentionReport {
  cutoff: string;
  /** Records deleted (or, on a dry run, that would be), per table. */
  deleted: Record<string, number>;
  dryRun: boolean;
  expired: ExpiredRecord[];
}

/** Applies retention: deletes every record past it (or, dry, only lists them). */
export async function applyRetention(
  options: PrivacyOptions & { dryRun?: boolean },
): Promise<RetentionReport> {
  const cutoff = retentionCutoff(new Date((options.now ?? Date.now)()));
  const expired = await findExpired(options);
  const deleted: Record<string, number> = Object.fromEntries(PRIVACY_TABLES.map((table) => [table, 0]));
  for (const table of PRIVACY_TABLES) {
    const ids = expired.filter((record) => record.table === table).map((record) => record.id);
    deleted[table] = options.dryRun ? ids.length : await deleteAll(options, table, ids);
  }
  return { cutoff: cutoff.toISOString(), deleted, dryRun: options.dryRun ?? false, expired };
}

/** One line for a log: counts per table, never an email. */
export function describeRetention(report: RetentionReport): string {
  const counts = PRIVACY_TABLES.map((table) => `${report.deleted[table] ?? 0} in ${table}`).join(', ');
  return `Retention (${DATA_RETENTION_MONTHS} months, last activity before ${report.cutoff}): ${
    report.dryRun ? 'would delete' : 'deleted'
  } ${counts}`;
}

/** Every stored record of `email` in both tables (Article 15), with all its fields and times. */
export async function exportEmail(
  options: PrivacyOptions,
  email: string,
): Promise<Record<string, StoredRecord[]>> {
  const normalised = normaliseEmail(email);
  const found: Record<string, StoredRecord[]> = {};
  for (const table of PRIVACY_TABLES)
    found[table] = await listAll(options, table, emailLookupFormula(normalised));
  return found;
}

/** Deletes every record of `email` in both tables (Article 17); returns the count per table. */
export async function eraseEmail(options: PrivacyOptions, email: string): Promise<Record<string, number>> {
  const found = await exportEmail(options, email);
  const deleted: Record<string, number> = {};
  for (const table of PRIVACY_TABLES)
    deleted[table] = await deleteAll(
      options,
      table,
      (found[table] ?? []).map((record) => record.id),
    );
  return deleted;
}
