// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { airtableTables } from '#src/lib/airtable/schema.ts';
import { buildField, buildTable } from '#scripts/airtable-emulator/base-schema.ts';
import { BaseStore } from '#scripts/airtable-emulator/store.ts';

const DATE_TIME = {
  dateFormat: { name: 'iso' },
  timeFormat: { name: '24hour' },
  timeZone: 'Europe/London',
};

const errorType = (build: () => unknown) => {
  try {
    build();
  } catch (error) {
    return (error as { type?: string }).type;
  }
  return 'no error';
};

describe('base schema', () => {
  it("builds the site's base from src/lib/airtable/schema.ts, every field as the Metadata API would accept it", () => {
    const tables = new BaseStore({ baseId: 'appTest' }).describeTables();
    expect(tables.map((table) => table.name)).toEqual(airtableTables().map((table) => table.name));
    for (const [index, table] of tables.entries()) {
      const definition = airtableTables()[index];
      expect(table.fields.map((f) => [f.name, f.type])).toEqual(
        Object.values(definition?.fields ?? {}).map((f) => [f.name, f.type]),
      );
      expect(table.primaryFieldId).toBe(table.fields[0]?.id);
    }
  });

  it('fills in date and time formats and keeps the stated time zone', () => {
    expect(buildField({ name: 'At', type: 'dateTime', options: DATE_TIME }, []).options).toEqual({
      dateFormat: { name: 'iso', format: 'YYYY-MM-DD' },
      timeFormat: { name: '24hour', format: 'HH:mm' },
      timeZone: 'Europe/London',
    });
  });

  it("answers Airtable's error types for bad fields", () => {
    expect(errorType(() => buildField({ name: 'email', type: 'email' }, [{ name: 'Email' }]))).toBe(
      'DUPLICATE_OR_EMPTY_FIELD_NAME',
    );
    expect(errorType(() => buildField({ name: ' ', type: 'email' }, []))).toBe(
      'DUPLICATE_OR_EMPTY_FIELD_NAME',
    );
    expect(errorType(() => buildField({ name: 'N', type: 'formula' }, []))).toBe(
      'UNSUPPORTED_FIELD_TYPE_FOR_CREATE',
    );
    expect(
      errorType(() =>
        buildField({ name: 'At', type: 'dateTime', options: { ...DATE_TIME, timeZone: 'UTC' } }, []),
      ),
    ).toBe('INVALID_FIELD_TYPE_OPTIONS_FOR_CREATE');
    expect(
      errorType(() =>
        buildField({ name: 'At', type: 'dateTime', options: { dateFormat: { name: 'iso' } } }, []),
      ),
    ).toBe('INVALID_FIELD_TYPE_OPTIONS_FOR_CREATE');
    expect(errorType(() => buildField({ name: 'S', type: 'singleSelect' }, []))).toBe(
      'INVALID_FIELD_TYPE_OPTIONS_FOR_CREATE',
    );
    expect(
      errorType(() =>
        buildField(
          { name: 'S', type: 'multipleSelects', options: { choices: [{ name: 'a' }, { name: 'a' }] } },
          [],
        ),
      ),
    ).toBe('INVALID_FIELD_TYPE_OPTIONS_FOR_CREATE');
  });

  it('refuses a table with a taken name or no fields', () => {
    const fields = [{ name: 'Email', type: 'email' }];
    expect(errorType(() => buildTable({ name: 'waitlist', fields }, [{ name: 'Waitlist' }]))).toBe(
      'DUPLICATE_TABLE_NAME',
    );
    expect(errorType(() => buildTable({ name: 'T', fields: [] }, []))).toBe('INVALID_REQUEST_UNKNOWN');
    expect(buildTable({ name: 'T', fields }, []).views).toEqual([expect.objectContaining({ type: 'grid' })]);
  });
});
