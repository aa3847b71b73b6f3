// @vitest-environment node
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BaseStore } from '#scripts/airtable-emulator/store.ts';
import { FORM_LIST } from '#src/lib/forms/forms.ts';

const BASE = 'appTest';
const tempFile = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'emulator-store-')), 'base.json');

describe('BaseStore', () => {
  it("starts from the site's schema, an empty base, or given tables", () => {
    expect(new BaseStore({ baseId: BASE }).describeTables().map((t) => t.name)).toEqual(
      FORM_LIST.map((form) => form.table),
    );
    expect(new BaseStore({ baseId: BASE, schema: 'empty' }).describeTables()).toEqual([]);
    const custom = new BaseStore({
      baseId: BASE,
      schema: [{ name: 'T', fields: [{ name: 'Email', type: 'email' }] }],
    });
    expect(custom.columns()).toEqual({ T: ['Email'] });
  });

  it('validates writes against the current schema, which can grow', () => {
    const store = new BaseStore({
      baseId: BASE,
      schema: [{ name: 'T', fields: [{ name: 'Email', type: 'email' }] }],
    });
    expect(() => store.writeRecords('T', 'POST', undefined, { fields: { Note: 'x' } })).toThrow(
      'Unknown field name: "Note"',
    );
    store.createField('T', { name: 'Note', type: 'multilineText' });
    expect(store.writeRecords('T', 'POST', undefined, { fields: { Note: 'x' } })).toMatchObject({
      fields: { Note: 'x' },
    });
  });

  it('adds no select option when a later record of the same write is refused', () => {
    const store = new BaseStore({ baseId: BASE });
    expect(() =>
      store.writeRecords('Waitlist', 'POST', undefined, {
        typecast: true,
        records: [{ fields: { Interests: ['Brand new'] } }, { fields: { Nope: 'x' } }],
      }),
    ).toThrow();
    const interests = store
      .describeTables()
      .find((table) => table.name === 'Waitlist')
      ?.fields.find((field) => field.name === 'Interests');
    expect(interests?.options?.choices?.map((choice) => choice.name)).not.toContain('Brand new');
  });

  it('keeps schema and records in its data file, and reset restores the initial schema', () => {
    const dataFile = tempFile();
    const first = new BaseStore({ baseId: BASE, dataFile, schema: 'empty' });
    first.createTable({ name: 'T', fields: [{ name: 'Email', type: 'email' }] });
    first.seed('T', { Email: 'a@b.co' });
    const second = new BaseStore({ baseId: BASE, dataFile, schema: 'empty' });
    expect(second.records('T').map((record) => record.fields)).toEqual([{ Email: 'a@b.co' }]);
    second.reset();
    expect(new BaseStore({ baseId: BASE, dataFile, schema: 'empty' }).describeTables()).toEqual([]);
  });

  it('keeps its data file (visitors’ data) for this user alone, 0600, also over an older 0644 one', () => {
    const dataFile = tempFile();
    const store = new BaseStore({ baseId: BASE, dataFile });
    store.seed('Waitlist', { Email: 'a@b.co' });
    expect(fs.statSync(dataFile).mode & 0o777).toBe(0o600);
    fs.chmodSync(dataFile, 0o644);
    store.seed('Waitlist', { Email: 'c@d.co' });
    expect(fs.statSync(dataFile).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(path.dirname(dataFile))).toEqual([path.basename(dataFile)]);
  });

  it('refuses a data file from an older emulator rather than overwrite it', () => {
    const dataFile = tempFile();
    fs.writeFileSync(dataFile, JSON.stringify({ version: 1, tables: {} }));
    expect(() => new BaseStore({ baseId: BASE, dataFile })).toThrow('older emulator');
  });

  it('pages with an offset and stops at maxRecords', () => {
    const store = new BaseStore({ baseId: BASE });
    for (let i = 0; i < 5; i += 1) store.seed('Waitlist', { Email: `${i}@x.co` });
    const first = store.listRecords('Waitlist', { pageSize: '2', maxRecords: '3' });
    expect(first.records).toHaveLength(2);
    const second = store.listRecords('Waitlist', { pageSize: '2', maxRecords: '3', offset: first.offset });
    expect(second).toEqual({ records: [expect.objectContaining({ fields: { Email: '2@x.co' } })] });
  });
});
