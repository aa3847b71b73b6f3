/**
 * `npm run airtable:check`: reads a base's schema and prints one line per table and field
 * (present, missing, wrong type), then probes what the site's token can do in each table —
 * look up, create and update a clearly marked test record, then delete it if the token may —
 * and lists any address stored in more than one record, for the owner to merge.
 * Exits non-zero on any problem.
 *
 *   AIRTABLE_BASE_ID=app… AIRTABLE_SCHEMA_TOKEN=pat… AIRTABLE_API_KEY=pat… npm run airtable:check
 *   (or --base, --schema-token (schema.bases:read), --site-token, --endpoint)
 */
import {
  AIRTABLE_TABLE_DEFINITIONS,
  type TableDefinition,
  emailLookupFormula,
  normaliseEmail,
} from '#src/lib/airtable/schema.ts';
import {
  type AirtableClient,
  AirtableError,
  type RemoteTable,
  type StoredRecord,
} from '#src/server/airtable-client.ts';
import { kitClient, listAll, readSchemaAccess, type SchemaAccessOptions } from './options.ts';
import { runAsCommand } from '#scripts/command.ts';

/** The probe record's address: reserved (.invalid), so it can never be a real visitor's. */
export const PROBE_EMAIL = 'airtable-check@launch-kit.invalid';
const PROBE_NOTE = 'TEST RECORD from npm run airtable:check: safe to delete';

export interface CheckReport {
  lines: string[];
  ok: boolean;
}

/** The base, a token that reads its schema, and the site's token to probe with. */
export type CheckAccess = Pick<SchemaAccessOptions, 'endpointUrl' | 'baseId' | 'schemaToken' | 'siteToken'>;

function compareSchema(
  expected: TableDefinition,
  remote: RemoteTable | undefined,
  report: CheckReport,
): boolean {
  if (!remote) {
    report.lines.push(`${expected.name}: MISSING table`);
    report.ok = false;
    return false;
  }
  report.lines.push(`${expected.name}: present`);
  for (const field of Object.values(expected.fields)) {
    const found = remote.fields.find((candidate) => candidate.name === field.name);
    if (found?.type === field.type) {
      report.lines.push(`  ${field.name}: present (${field.type})`);
      continue;
    }
    report.ok = false;
    report.lines.push(
      found
        ? `  ${field.name}: WRONG TYPE ${found.type}, needs ${field.type}`
        : `  ${field.name}: MISSING (needs ${field.type})`,
    );
  }
  return true;
}

/** Looks up, creates, updates and (if allowed) deletes a marked record with the site's token. */
async function probe(client: AirtableClient, table: TableDefinition, report: CheckReport): Promise<void> {
  const fields = Object.values(table.fields);
  const email = fields.find((field) => field.type === 'email');
  const note = fields.find((field) => field.type === 'singleLineText' || field.type === 'multilineText');
  if (!email || !note) return;
  const steps: string[] = [];
  const step = async <T>(name: string, run: () => Promise<T>, scope: string): Promise<T | undefined> => {
    try {
      const result = await run();
      steps.push(`${name} ok`);
      return result;
    } catch (error) {
      if (!(error instanceof AirtableError)) throw error;
      steps.push(`${name} REFUSED (${error.explain(scope)})`);
      report.ok = false;
      return undefined;
    }
  };
  await step(
    'lookup',
    () =>
      client.listPage(table.name, {
        filterByFormula: emailLookupFormula(PROBE_EMAIL, email.name),
        maxRecords: 1,
      }),
    'data.records:read',
  );
  const [created] =
    (await step(
      'create',
      () => client.create(table.name, [{ [email.name]: PROBE_EMAIL, [note.name]: PROBE_NOTE }]),
      'data.records:write',
    )) ?? [];
  if (created) {
    await step(
      'update',
      () =>
        client.update(table.name, [{ id: created.id, fields: { [note.name]: `${PROBE_NOTE} (updated)` } }]),
      'data.records:write',
    );
    try {
      await client.deleteRecords(table.name, [created.id]);
      steps.push('test record deleted');
    } catch (error) {
      if (!(error instanceof AirtableError)) throw error;
      // Not a failure: the site never deletes. The owner removes the marked record by hand.
      steps.push(`the token may not delete: remove the record ${created.id} (${PROBE_EMAIL}) by hand`);
    }
  } else {
    steps.push('update not tried');
  }
  report.lines.push(`  site token: ${steps.join(', ')}`);
}

/**
 * Lists the addresses stored more than once in a table (however spelled: normalised as the site
 * does), for the owner to merge by hand: the site writes one record per address, but a record
 * typed in by hand, or one written before the site merged its writes on the Email Key, can double one.
 */
async function reportDuplicates(client: AirtableClient, table: TableDefinition, report: CheckReport) {
  const emailField = Object.values(table.fields).find((field) => field.type === 'email')?.name;
  let records: StoredRecord[];
  try {
    records = emailField ? await listAll(client, table.name, { fields: [emailField] }) : [];
  } catch (error) {
    if (!(error instanceof AirtableError)) throw error;
    report.lines.push(`  stored twice: NOT CHECKED (${error.explain('data.records:read')})`);
    report.ok = false;
    return;
  }
  const byEmail = new Map<string, string[]>();
  for (const record of records) {
    const email = record.fields[emailField ?? ''];
    if (typeof email !== 'string' || email.trim() === '') continue;
    const key = normaliseEmail(email);
    byEmail.set(key, [...(byEmail.get(key) ?? []), record.id]);
  }
  const twice = [...byEmail].filter(([, ids]) => ids.length > 1);
  if (twice.length === 0) report.lines.push('  stored twice: none');
  else report.ok = false;
  for (const [email, ids] of twice)
    report.lines.push(
      `  STORED TWICE: ${email} in ${ids.length} records (${ids.join(', ')}): merge them into one`,
    );
}

/** Compares the base with the site's schema and probes the site's token in each table. */
export async function checkBase(
  access: CheckAccess,
  tables: readonly TableDefinition[] = AIRTABLE_TABLE_DEFINITIONS,
): Promise<CheckReport> {
  const report: CheckReport = { lines: [], ok: true };
  const { endpointUrl, baseId, schemaToken, siteToken } = access;
  let remote: RemoteTable[];
  try {
    remote = await kitClient({ endpointUrl, baseId, token: schemaToken }).listTables();
  } catch (error) {
    if (!(error instanceof AirtableError)) throw error;
    return {
      ok: false,
      lines: [`Cannot read the schema of base ${baseId}: ${error.explain('schema.bases:read')}.`],
    };
  }
  const client = siteToken ? kitClient({ endpointUrl, baseId, token: siteToken }) : undefined;
  for (const table of tables) {
    const present = compareSchema(
      table,
      remote.find((candidate) => candidate.name === table.name),
      report,
    );
    if (!present || !client) continue;
    await probe(client, table, report);
    await reportDuplicates(client, table, report);
  }
  if (!siteToken) {
    report.lines.push(
      "Site token: NOT CHECKED (set AIRTABLE_API_KEY to the token the site's relay will use)",
    );
    report.ok = false;
  }
  report.lines.push(
    report.ok
      ? 'OK: the base is ready for the site.'
      : 'PROBLEMS above: the site would fail to store some submissions.',
  );
  return report;
}

const USAGE =
  'Usage: AIRTABLE_BASE_ID=app… AIRTABLE_SCHEMA_TOKEN=pat… AIRTABLE_API_KEY=pat… npm run airtable:check [-- --base … --schema-token … --site-token … --endpoint URL]';

/** The command: prints the report; exit code 1 on any problem, 2 on bad usage. */
export async function main(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<number> {
  const options = readSchemaAccess(argv, env, USAGE, 'schema.bases:read');
  if (!options) return 2;
  const report = await checkBase(options);
  for (const line of report.lines) console.log(line);
  return report.ok ? 0 : 1;
}

runAsCommand(import.meta.url, main);
