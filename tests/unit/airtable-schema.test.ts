import { describe, expect, it } from 'vitest';
import { PRODUCT_NAME } from '#src/config/site.ts';
import { AIRTABLE_SCHEMA, airtableTables, choiceNames, fieldNamesOf } from '#src/lib/airtable/schema.ts';
import { FORM_LIST, FORMS } from '#src/lib/forms/forms.ts';

describe('Airtable schema', () => {
  it("has one table per form of the forms' list, each its contract's, and nothing else", () => {
    expect(Object.keys(AIRTABLE_SCHEMA)).toEqual(Object.keys(FORMS));
    expect(airtableTables().map((table) => table.name)).toEqual(FORM_LIST.map((form) => form.table));
    for (const form of FORM_LIST) {
      const table = airtableTables().find(({ name }) => name === form.table);
      expect(Object.keys(table?.fields ?? {}), form.name).toEqual(Object.keys(form.fields));
    }
  });

  it('maps field keys to field names', () => {
    expect(fieldNamesOf('waitlist')).toMatchObject({ email: 'Email', pageSource: 'Page Source' });
    expect(fieldNamesOf('quote')).toMatchObject({ useCases: 'Use Cases', status: 'Status' });
  });

  it("offers the waitlist interests under the product's current name", () => {
    expect(choiceNames(AIRTABLE_SCHEMA.waitlist.fields.interests)).toContain(`Use ${PRODUCT_NAME}`);
    expect(choiceNames(AIRTABLE_SCHEMA.waitlist.fields.email)).toEqual([]);
  });

  it('gives every field a unique name, and every text or select field a positive maximum length', () => {
    for (const table of airtableTables()) {
      const fields = Object.values(table.fields);
      expect(new Set(fields.map((field) => field.name)).size, table.name).toBe(fields.length);
      for (const field of fields) {
        if (field.type === 'dateTime') continue;
        expect(field.maxLength, `${table.name}.${field.name}`).toBeGreaterThan(0);
      }
    }
  });

  it('states a time zone the platform knows for every date-time field', () => {
    for (const table of airtableTables()) {
      for (const field of Object.values(table.fields)) {
        if (field.type !== 'dateTime') continue;
        expect(() => new Intl.DateTimeFormat('en-GB', { timeZone: field.options.timeZone })).not.toThrow();
      }
    }
  });
});
