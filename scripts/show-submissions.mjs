// Prints what the forms have stored in the local Airtable emulator, newest first.
//
//   node scripts/show-submissions.mjs [--table 'School Quotes' | --table Waitlist] [--json]
//                                    [--data .data/airtable.json | --url http://127.0.0.1:8787]
//
// By default it reads the emulator's data file (written on every change, so no server is
// needed); --url asks a running emulator instead (e.g. one started with --no-data).

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EMULATOR_ADMIN_PREFIX, EMULATOR_DEFAULT_DATA_FILE, TABLE_SCHEMAS } from './airtable-emulator.mjs';

/** @typedef {{ id: string, createdTime: string, fields: Record<string, string | string[]> }} StoredRecord */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** @param {string[]} argv */
function parseArgs(argv) {
  /** @type {{ data: string, url?: string, table?: string, json: boolean }} */
  const options = { data: path.join(root, EMULATOR_DEFAULT_DATA_FILE), json: false };
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${flag} needs a value`);
      return next;
    };
    if (flag === '--data') options.data = path.resolve(value());
    else if (flag === '--url') options.url = value().replace(/\/+$/, '');
    else if (flag === '--table') options.table = value();
    else if (flag === '--json') options.json = true;
    else throw new Error(`Unknown option ${flag}`);
  }
  return options;
}

/**
 * @param {{ data: string, url?: string }} options
 * @returns {Promise<Record<string, StoredRecord[]> | undefined>}
 */
async function readTables(options) {
  if (options.url) {
    const response = await fetch(`${options.url}${EMULATOR_ADMIN_PREFIX}/records`);
    if (!response.ok) throw new Error(`${options.url} answered ${response.status}`);
    return /** @type {{ tables: Record<string, StoredRecord[]> }} */ (await response.json()).tables;
  }
  if (!fs.existsSync(options.data)) return undefined;
  const saved = /** @type {{ tables?: Record<string, { records?: StoredRecord[] }> }} */ (
    JSON.parse(fs.readFileSync(options.data, 'utf8'))
  );
  return Object.fromEntries(
    Object.entries(saved.tables ?? {}).map(([name, table]) => [name, table.records ?? []]),
  );
}

/** @param {string | string[] | undefined} value */
const show = (value) => (Array.isArray(value) ? value.join(', ') : (value ?? ''));

const options = parseArgs(process.argv.slice(2));
const tables = await readTables(options);
if (!tables) {
  console.log(
    `Nothing stored yet: ${path.relative(process.cwd(), options.data)} does not exist (run \`npm run dev\`).`,
  );
  process.exit(0);
}
const names = options.table ? [options.table] : Object.keys(TABLE_SCHEMAS);
/** @param {StoredRecord} record */
const updatedAt = (record) => String(record.fields['Last Updated'] ?? record.createdTime);
const newestFirst = Object.fromEntries(
  names.map((name) => [
    name,
    [...(tables[name] ?? [])].sort((a, b) => updatedAt(b).localeCompare(updatedAt(a))),
  ]),
);

if (options.json) {
  console.log(JSON.stringify(newestFirst, null, 2));
} else {
  for (const name of names) {
    const records = newestFirst[name] ?? [];
    console.log(`\n${name} (${records.length})`);
    const columns = Object.keys(TABLE_SCHEMAS[name] ?? {}).filter((column) => column !== 'Email');
    for (const record of records) {
      console.log(`  ${show(record.fields.Email) || '(no email)'}  [${record.id}]`);
      for (const column of columns) {
        const value = show(record.fields[column]);
        if (value) console.log(`      ${column}: ${value}`);
      }
    }
  }
}
