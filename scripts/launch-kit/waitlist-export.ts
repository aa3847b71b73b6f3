/**
 * `npm run waitlist:export > confirmed.csv` (USAGE below): the `Confirmed` sign-ups; never `Pending`,
 * `Withdrawn` or no Consent (direct mode, or older), which nobody can show consented (docs/consent.md).
 */
import { FORMS } from '#src/lib/forms/forms.ts';
import type { ConsentState } from '#src/lib/forms/contract.ts';
import { type AirtableClient, AirtableError, type StoredRecord } from '#src/server/airtable/client.ts';
import { runAsCommand } from '#scripts/command.ts';
import { csvRow } from './csv.ts';
import { failure, plural, readKitOptions, requestCount, siteTokenClient } from './options.ts';

const WAITLIST = FORMS.waitlist;
const EMAIL = WAITLIST.fields.email.airtable;
const INTERESTS = WAITLIST.fields.interests.airtable;
const CONSENT = WAITLIST.fields.consent.airtable;
const CONFIRMED_AT = WAITLIST.fields.confirmedAt.airtable;
const CONFIRMED: ConsentState = 'Confirmed';

/** The CSV's header: the newsletter tool maps these names. */
const EXPORT_COLUMNS = ['email', 'interests', CONFIRMED_AT] as const;

const USAGE = [
  'Usage: npm run waitlist:export [-- --endpoint URL --base BASE_ID --site-token TOKEN] > confirmed.csv',
  'Prints the Confirmed waitlist sign-ups as CSV (email, interests, Confirmed At); never Pending or Withdrawn ones.',
  'Airtable: AIRTABLE_API_KEY, AIRTABLE_BASE_ID, AIRTABLE_ENDPOINT_URL (or the flags).',
].join('\n');

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
type Row = [email: string, interests: string, confirmedAt: string];

/** A record as the export's row (Confirmed At: ISO 8601, UTC), or null when not a confirmed sign-up. */
function confirmedRow(record: StoredRecord): Row | null {
  const email = text(record.fields[EMAIL]);
  if (record.fields[CONSENT] !== CONFIRMED || !email) return null;
  const interests = record.fields[INTERESTS];
  const names = Array.isArray(interests) ? interests.map(text).filter(Boolean) : [];
  return [email, names.join('; '), text(record.fields[CONFIRMED_AT])];
}

/** Every confirmed sign-up's row, page by page (Airtable's pages of 100), oldest confirmation first. */
async function confirmedRows(client: AirtableClient): Promise<Row[]> {
  const records = await client.listAll(WAITLIST.table, {
    filterByFormula: `{${CONSENT}} = '${CONFIRMED}'`,
    fields: [EMAIL, INTERESTS, CONSENT, CONFIRMED_AT],
  });
  // Checked again here: the formula is Airtable's reading, the rule is ours.
  const rows = records.map(confirmedRow).filter((row) => row !== null);
  return rows.sort((a, b) => a[2].localeCompare(b[2]) || a[0].localeCompare(b[0]));
}

/** The CSV goes to `write` (stdout), the summary and errors to `err` (stderr: a redirect keeps the CSV). */
export async function main(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  {
    write = (chunk: string): void => void process.stdout.write(chunk),
    err = (line: string) => console.error(line),
  } = {},
): Promise<number> {
  const options = readKitOptions(argv, env, USAGE, { err });
  const client = options && siteTokenClient(options, USAGE, err);
  if (!client) return 2;
  try {
    const rows = await confirmedRows(client);
    write([EXPORT_COLUMNS, ...rows].map(csvRow).join(''));
    err(`Exported ${plural(rows.length, 'confirmed sign-up')} ${requestCount(client)}.`);
    return 0;
  } catch (error) {
    if (error instanceof AirtableError && error.status === 422)
      err(
        `Airtable answered 422 ${error.type}: ${error.message}. The ${WAITLIST.table} table needs the ${CONSENT} and ${CONFIRMED_AT} fields (npm run airtable:setup); only relay and queued modes confirm addresses (docs/consent.md).`,
      );
    else err(failure(error, client));
    return 1;
  }
}

runAsCommand(import.meta.url, main);
