/**
 * `npm run submissions -- [--table Waitlist] [--json] [--data .data/airtable.json | --url URL]`: what
 * the forms stored in the local emulator, newest first, from its data file or a running emulator.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  EMULATOR_ADMIN_PREFIX,
  EMULATOR_BASE_ID,
  EMULATOR_DEFAULT_DATA_FILE,
} from '#scripts/airtable-emulator/emulator.ts';
import type { CellValue, StoredRecord } from '#scripts/airtable-emulator/base-schema.ts';
import { BaseStore } from '#scripts/airtable-emulator/store.ts';
import { airtableTables } from '#src/lib/airtable/schema.ts';
import { emailFieldOf, formOfTable } from '#src/lib/forms/forms.ts';
import { stampOf } from '#src/server/privacy/consent.ts';
import { runAsCommand } from '#scripts/command.ts';

/** The stored records by table: asked of a running emulator at `url`, else read from `data`. */
async function readTables(data: string, url?: string): Promise<Record<string, StoredRecord[]> | undefined> {
  if (url) {
    const response = await fetch(`${url.replace(/\/+$/, '')}${EMULATOR_ADMIN_PREFIX}/records`);
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    return ((await response.json()) as { tables: Record<string, StoredRecord[]> }).tables;
  }
  if (!fs.existsSync(data)) return undefined;
  // The store reads the file as the emulator wrote it, and refuses one from an older emulator.
  return new BaseStore({ baseId: EMULATOR_BASE_ID, dataFile: data }).allRecords();
}

const show = (value: CellValue | undefined) => (Array.isArray(value) ? value.join(', ') : (value ?? ''));

export async function main(argv: readonly string[]): Promise<number> {
  const { values: options } = parseArgs({
    args: [...argv],
    options: {
      data: { type: 'string', default: EMULATOR_DEFAULT_DATA_FILE },
      url: { type: 'string' },
      table: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const data = path.resolve(options.data);
  const tables = await readTables(data, options.url);
  if (!tables) {
    console.log(
      `Nothing stored yet: ${path.relative(process.cwd(), data)} does not exist (run \`npm run dev\`).`,
    );
    return 0;
  }
  const names = options.table ? [options.table] : airtableTables().map((table) => table.name);
  const newestFirst = Object.fromEntries(
    names.map((name) => {
      const updated = stampOf(formOfTable(name), 'updated');
      const at = (record: StoredRecord) => String(record.fields[updated] ?? record.createdTime);
      return [name, [...(tables[name] ?? [])].sort((a, b) => at(b).localeCompare(at(a)))];
    }),
  );
  if (options.json) {
    console.log(JSON.stringify(newestFirst, null, 2));
    return 0;
  }
  for (const name of names) {
    const records = newestFirst[name] ?? [];
    console.log(`\n${name} (${records.length})`);
    const form = formOfTable(name);
    const email = form ? emailFieldOf(form) : 'Email';
    for (const record of records) {
      console.log(`  ${show(record.fields[email]) || '(no email)'}  [${record.id}]`);
      for (const { airtable: column } of Object.values(form?.fields ?? {})) {
        const value = column === email ? '' : show(record.fields[column]);
        if (value) console.log(`      ${column}: ${value}`);
      }
    }
  }
  return 0;
}

runAsCommand(import.meta.url, main);
