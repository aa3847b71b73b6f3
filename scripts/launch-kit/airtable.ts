/**
 * `npm run airtable:setup|check` (USAGE below): a base against the site's schema
 * (src/lib/airtable/schema.ts), through the Metadata API with a schema token never written anywhere.
 * check also probes the site's token in each table with a marked test record and lists addresses
 * stored twice.
 */
import { airtableTables, type FieldDefinition, type TableDefinition } from '#src/lib/airtable/schema.ts';
import { emailLookupFormula, normaliseEmail } from '#src/lib/forms/submission.ts';
import { type AirtableClient, AirtableError, type StoredRecord } from '#src/server/airtable/client.ts';
import type { AirtableAccess } from '#src/server/settings.ts';
import { type KitOptions, kitClient, readKitOptions } from './options.ts';
import { runAsCommand } from '#scripts/command.ts';

/** The probe record's address: reserved (.invalid), so it can never be a real visitor's. */
export const PROBE_EMAIL = 'airtable-check@launch-kit.invalid';
const PROBE_NOTE = 'TEST RECORD from npm run airtable:check: safe to delete';

export interface Report {
  lines: string[];
  /** False when something is wrong, or could not be done and is left as is. */
  ok: boolean;
}

function fail(report: Report, line: string) {
  report.lines.push(line);
  report.ok = false;
}

/** One line for the owner's terminal: status, type and what it usually means (`scope`: the one needed). */
export function explain({ status, type, message }: AirtableError, scope: string): string {
  if (status === 401) return `401 ${type}: the token is not valid`;
  if (status === 403) return `403 ${type}: the token lacks ${scope}, or cannot see this base`;
  return `${status} ${type}: ${message}`;
}

/** The field as the Metadata API takes it on create: name, type and options only. */
export function fieldForCreate(field: FieldDefinition): { name: string; type: string; options?: unknown } {
  return { name: field.name, type: field.type, ...('options' in field ? { options: field.options } : {}) };
}

/** The Metadata API's path of the base's tables (schema.bases:read and write), and `under` them. */
const tablesPath = (baseId: string, under = '') => `meta/bases/${encodeURIComponent(baseId)}/tables${under}`;

/** Each of the site's tables and fields with the base's of that name, or why the schema could not be read. */
async function compareSchema(client: AirtableClient, baseId: string) {
  // The base's tables and their fields, as the Metadata API lists them.
  let remote: { id: string; name: string; fields: { name: string; type: string }[] }[];
  try {
    remote = (await client.api<{ tables: typeof remote }>('GET', tablesPath(baseId))).tables;
  } catch (error) {
    if (!(error instanceof AirtableError)) throw error;
    return `Cannot read the schema of base ${baseId}: ${explain(error, 'schema.bases:read')}.`;
  }
  return airtableTables().map((table) => {
    const existing = remote.find((candidate) => candidate.name === table.name);
    const fields = Object.values(table.fields).map((field) => ({
      field,
      found: existing?.fields.find((candidate) => candidate.name === field.name),
    }));
    return { table, existing, fields };
  });
}

/** Adds the site's missing tables and fields to the base; never deletes or retypes. */
export async function setupBase(access: AirtableAccess): Promise<Report & { changed: boolean }> {
  const report = { lines: [] as string[], changed: false, ok: true };
  const client = kitClient(access);
  const tables = await compareSchema(client, access.baseId);
  if (typeof tables === 'string') {
    fail(report, tables);
    return report;
  }
  try {
    for (const { table, existing, fields } of tables) {
      if (!existing) {
        const created = { name: table.name, fields: Object.values(table.fields).map(fieldForCreate) };
        await client.api('POST', tablesPath(access.baseId), created);
        report.changed = true;
        const names = fields.map(({ field }) => `'${field.name}'`).join(', ');
        report.lines.push(`Created table '${table.name}' with ${names}.`);
        continue;
      }
      for (const { field, found } of fields) {
        if (!found) {
          const under = `/${encodeURIComponent(existing.id)}/fields`;
          await client.api('POST', tablesPath(access.baseId, under), fieldForCreate(field));
          report.changed = true;
          report.lines.push(`Added field '${table.name}' › '${field.name}' (${field.type}).`);
        } else if (found.type !== field.type) {
          fail(
            report,
            `Left as is: '${table.name}' › '${field.name}' is ${found.type}, the site needs ${field.type}. ` +
              'Setup never retypes a field: change it in Airtable (or rename it and run setup again).',
          );
        }
      }
    }
  } catch (error) {
    if (!(error instanceof AirtableError)) throw error;
    fail(report, `Stopped: Airtable refused a change: ${explain(error, 'schema.bases:write')}.`);
    return report;
  }
  if (!report.changed && report.ok)
    report.lines.push(
      `Nothing to do: base ${access.baseId} already has every table and field the site writes.`,
    );
  return report;
}

/** Looks up, creates, updates and (if allowed) deletes a marked record with the site's token. */
async function probe(client: AirtableClient, baseId: string, table: TableDefinition, report: Report) {
  const fields = Object.values(table.fields);
  const email = fields.find((field) => field.type === 'email')?.name;
  const note = fields.find((field) => ['singleLineText', 'multilineText'].includes(field.type))?.name;
  if (!email || !note) return;
  const steps: string[] = [];
  const step = async <T>(name: string, scope: string, run: () => Promise<T>): Promise<T | undefined> => {
    try {
      const result = await run();
      steps.push(`${name} ok`);
      return result;
    } catch (error) {
      if (!(error instanceof AirtableError)) throw error;
      steps.push(`${name} REFUSED (${explain(error, scope)})`);
      report.ok = false;
      return undefined;
    }
  };
  const filterByFormula = emailLookupFormula(PROBE_EMAIL, email);
  await step('lookup', 'data.records:read', () =>
    client.listPage(table.name, { filterByFormula, maxRecords: 1 }),
  );
  const records = [{ fields: { [email]: PROBE_EMAIL, [note]: PROBE_NOTE } }];
  const path = `${encodeURIComponent(baseId)}/${encodeURIComponent(table.name)}`;
  const create = () => client.api<{ records: StoredRecord[] }>('POST', path, { records, typecast: true });
  const [created] = (await step('create', 'data.records:write', create))?.records ?? [];
  if (created) {
    const update = { id: created.id, fields: { [note]: `${PROBE_NOTE} (updated)` } };
    await step('update', 'data.records:write', () => client.update(table.name, [update]));
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
 * Lists addresses (normalised as the site does) stored more than once, for the owner to merge: a
 * record typed in by hand, or written before the site merged on the Email Key, can double one.
 */
async function reportDuplicates(client: AirtableClient, table: TableDefinition, report: Report) {
  const emailField = Object.values(table.fields).find((field) => field.type === 'email')?.name;
  let records: StoredRecord[];
  try {
    records = emailField ? await client.listAll(table.name, { fields: [emailField] }) : [];
  } catch (error) {
    if (!(error instanceof AirtableError)) throw error;
    fail(report, `  stored twice: NOT CHECKED (${explain(error, 'data.records:read')})`);
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
  for (const [email, ids] of twice)
    fail(
      report,
      `  STORED TWICE: ${email} in ${ids.length} records (${ids.join(', ')}): merge them into one`,
    );
}

/** Compares the base with the site's schema and probes the site's token in each table. */
export async function checkBase(
  access: Pick<KitOptions, 'endpointUrl' | 'baseId' | 'schemaToken' | 'siteToken'>,
): Promise<Report> {
  const report: Report = { lines: [], ok: true };
  const { endpointUrl, baseId, schemaToken, siteToken } = access;
  const tables = await compareSchema(kitClient({ endpointUrl, baseId, token: schemaToken }), baseId);
  if (typeof tables === 'string') return { ok: false, lines: [tables] };
  const client = siteToken ? kitClient({ endpointUrl, baseId, token: siteToken }) : undefined;
  for (const { table, existing, fields } of tables) {
    if (!existing) {
      fail(report, `${table.name}: MISSING table`);
      continue;
    }
    report.lines.push(`${table.name}: present`);
    for (const { field, found } of fields) {
      if (found?.type === field.type) report.lines.push(`  ${field.name}: present (${field.type})`);
      else if (found) fail(report, `  ${field.name}: WRONG TYPE ${found.type}, needs ${field.type}`);
      else fail(report, `  ${field.name}: MISSING (needs ${field.type})`);
    }
    if (!client) continue;
    await probe(client, baseId, table, report);
    await reportDuplicates(client, table, report);
  }
  if (!siteToken)
    fail(report, "Site token: NOT CHECKED (set AIRTABLE_API_KEY to the token the site's relay will use)");
  report.lines.push(
    report.ok
      ? 'OK: the base is ready for the site.'
      : 'PROBLEMS above: the site would fail to store some submissions.',
  );
  return report;
}

const USAGE = {
  setup:
    'Usage: AIRTABLE_BASE_ID=app… AIRTABLE_SCHEMA_TOKEN=pat… npm run airtable:setup [-- --base app… --schema-token pat… --endpoint URL]',
  check:
    'Usage: AIRTABLE_BASE_ID=app… AIRTABLE_SCHEMA_TOKEN=pat… AIRTABLE_API_KEY=pat… npm run airtable:check [-- --base … --schema-token … --site-token … --endpoint URL]',
};

/** `setup` or `check`, then the flags: prints the report; exit code 1 on any problem, 2 on bad usage. */
export async function main(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<number> {
  const [command, ...flags] = argv;
  if (command !== 'setup' && command !== 'check') {
    console.error(`${USAGE.setup}\n${USAGE.check}`);
    return 2;
  }
  const options = readKitOptions(flags, env, USAGE[command]);
  if (!options) return 2;
  const { endpointUrl, baseId, schemaToken } = options;
  if (!baseId || !schemaToken) {
    const scope = command === 'setup' ? 'schema.bases:write' : 'schema.bases:read';
    console.error(
      `Needs the base id (AIRTABLE_BASE_ID) and a token with ${scope} (AIRTABLE_SCHEMA_TOKEN).\n${USAGE[command]}`,
    );
    return 2;
  }
  const report =
    command === 'setup'
      ? await setupBase({ endpointUrl, baseId, token: schemaToken })
      : await checkBase(options);
  for (const line of report.lines) console.log(line);
  return report.ok ? 0 : 1;
}

runAsCommand(import.meta.url, main);
