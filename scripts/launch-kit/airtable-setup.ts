/**
 * `npm run airtable:setup`: creates the site's tables and fields in an Airtable base through
 * the Metadata API. Idempotent: it only adds what is missing, never deletes or retypes, and
 * says what it did.
 *
 *   AIRTABLE_BASE_ID=app… AIRTABLE_SCHEMA_TOKEN=pat… npm run airtable:setup
 *   (or --base app… --schema-token pat…; --endpoint for another Airtable-compatible server)
 *
 * The schema token needs schema.bases:read and schema.bases:write. It stays on the owner's
 * machine: it is read from the environment or flags, never written to a file or a build.
 */
import { AIRTABLE_TABLE_DEFINITIONS, type TableDefinition } from '#src/lib/airtable/schema.ts';
import { AirtableError, type RemoteTable, type AirtableAccess } from '#src/server/airtable-client.ts';
import { kitClient, readSchemaAccess } from './options.ts';
import { runAsCommand } from '#scripts/command.ts';

export interface SetupReport {
  /** One line per action taken or thing left alone. */
  lines: string[];
  /** True when tables or fields were created. */
  changed: boolean;
  /** False when something could not be done or is wrong and left as is. */
  ok: boolean;
}

/** Adds the missing tables and fields of `tables` to the base; never deletes or retypes. */
export async function setupBase(
  access: AirtableAccess,
  tables: readonly TableDefinition[] = AIRTABLE_TABLE_DEFINITIONS,
): Promise<SetupReport> {
  const report: SetupReport = { lines: [], changed: false, ok: true };
  const fail = (line: string) => {
    report.lines.push(line);
    report.ok = false;
  };
  const client = kitClient(access);
  let remote: RemoteTable[];
  try {
    remote = await client.listTables();
  } catch (error) {
    if (!(error instanceof AirtableError)) throw error;
    fail(`Cannot read the schema of base ${access.baseId}: ${error.explain('schema.bases:read')}.`);
    return report;
  }
  try {
    for (const table of tables) {
      const fields = Object.values(table.fields);
      const existing = remote.find((candidate) => candidate.name === table.name);
      if (!existing) {
        await client.createTable(table.name, fields);
        report.changed = true;
        report.lines.push(
          `Created table '${table.name}' with ${fields.map((f) => `'${f.name}'`).join(', ')}.`,
        );
        continue;
      }
      for (const field of fields) {
        const present = existing.fields.find((candidate) => candidate.name === field.name);
        if (!present) {
          await client.createField(existing.id, field);
          report.changed = true;
          report.lines.push(`Added field '${table.name}' › '${field.name}' (${field.type}).`);
        } else if (present.type !== field.type) {
          fail(
            `Left as is: '${table.name}' › '${field.name}' is ${present.type}, the site needs ${field.type}. ` +
              'Setup never retypes a field: change it in Airtable (or rename it and run setup again).',
          );
        }
      }
    }
  } catch (error) {
    if (!(error instanceof AirtableError)) throw error;
    fail(`Stopped: Airtable refused a change: ${error.explain('schema.bases:write')}.`);
    return report;
  }
  if (!report.changed && report.ok) {
    report.lines.push(
      `Nothing to do: base ${access.baseId} already has every table and field the site writes.`,
    );
  }
  return report;
}

const USAGE =
  'Usage: AIRTABLE_BASE_ID=app… AIRTABLE_SCHEMA_TOKEN=pat… npm run airtable:setup [-- --base app… --schema-token pat… --endpoint URL]';

/** The command: prints what it did; exit code 1 on any problem, 2 on bad usage. */
export async function main(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<number> {
  const options = readSchemaAccess(argv, env, USAGE, 'schema.bases:write');
  if (!options) return 2;
  const report = await setupBase({
    endpointUrl: options.endpointUrl,
    baseId: options.baseId,
    token: options.schemaToken,
  });
  for (const line of report.lines) console.log(line);
  return report.ok ? 0 : 1;
}

runAsCommand(import.meta.url, main);
