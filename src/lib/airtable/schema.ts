/**
 * The Airtable base the site writes to: table names, field names, field types, select options
 * and the longest value each field accepts. The one source for the storage layer
 * (`fields.ts`), the relay's validator, the local emulator and the owner's setup/check commands.
 *
 * Field `options` are in the shape Airtable's Metadata API takes when creating a field, so the
 * setup command can send them as they are.
 */
import { DEFAULT_INTEREST_STORED, EMAIL_MAX_LENGTH } from '#src/config/constants.ts';
import { PRODUCT_NAME } from '#src/config/site.ts';

/** Field types the site's base uses (Airtable's Metadata API names). */
export type AirtableFieldType =
  'email' | 'singleLineText' | 'multilineText' | 'singleSelect' | 'multipleSelects' | 'dateTime';

/** A select option as the Metadata API takes it (`{ name }`; Airtable picks a colour). */
export interface SelectChoice {
  readonly name: string;
}

/**
 * Date-time cells are shown in one stated zone, so every collaborator of the base reads the
 * same time (Airtable's 'client' would show each viewer's own zone). The company is in the UK.
 */
export const AIRTABLE_TIME_ZONE = 'Europe/London';

const DATE_TIME_OPTIONS = {
  timeZone: AIRTABLE_TIME_ZONE,
  dateFormat: { name: 'iso', format: 'YYYY-MM-DD' },
  timeFormat: { name: '24hour', format: 'HH:mm' },
} as const;

/** Options of a dateTime field, as the Metadata API takes and returns them. */
export interface DateTimeOptions {
  readonly timeZone: string;
  readonly dateFormat: { readonly name: string; readonly format?: string };
  readonly timeFormat: { readonly name: string; readonly format?: string };
}

/** One field of the base. `maxLength` bounds a text cell, or each item of a multiple select. */
export type FieldDefinition =
  | {
      readonly name: string;
      readonly type: 'email' | 'singleLineText' | 'multilineText';
      readonly maxLength: number;
    }
  | {
      readonly name: string;
      readonly type: 'singleSelect';
      readonly options: { readonly choices: readonly SelectChoice[] };
      readonly maxLength: number;
    }
  | {
      readonly name: string;
      readonly type: 'multipleSelects';
      readonly options: { readonly choices: readonly SelectChoice[] };
      readonly maxLength: number;
      /** Most items one cell may hold. */
      readonly maxItems: number;
    }
  | { readonly name: string; readonly type: 'dateTime'; readonly options: DateTimeOptions };

/** One table of the base; fields keyed by the storage layer's own names for them. */
export interface TableDefinition {
  readonly name: string;
  readonly fields: Readonly<Record<string, FieldDefinition>>;
}

// Long enough for any real name or school, short enough that a 1 MB paste is refused early.
const NAME_MAX_LENGTH = 200;
// 'Other: ' and a sentence or two.
const USE_CASE_MAX_LENGTH = 500;

const choices = <const T extends readonly string[]>(...names: T) =>
  names.map((name) => ({ name })) as { readonly [K in keyof T]: { readonly name: T[K] } };

/** The site's base. Order of fields is the order the setup command creates them in. */
export const AIRTABLE_SCHEMA = {
  quotes: {
    name: 'School Quotes',
    fields: {
      email: { name: 'Email', type: 'email', maxLength: EMAIL_MAX_LENGTH },
      contactName: { name: 'Contact Name', type: 'singleLineText', maxLength: NAME_MAX_LENGTH },
      schoolName: { name: 'School Name', type: 'singleLineText', maxLength: NAME_MAX_LENGTH },
      role: { name: 'Role', type: 'singleLineText', maxLength: NAME_MAX_LENGTH },
      useCases: {
        name: 'Use Cases',
        type: 'multipleSelects',
        // 'Other: text' items are added by typecast, as Airtable does for unknown options.
        options: { choices: choices('Support Learners', 'Practice Speaking', 'Showcase Creativity') },
        maxLength: USE_CASE_MAX_LENGTH,
        maxItems: 10,
      },
      otherUseCase: { name: 'Other Use Case', type: 'multilineText', maxLength: USE_CASE_MAX_LENGTH },
      createdAt: { name: 'Created At', type: 'dateTime', options: DATE_TIME_OPTIONS },
      lastUpdated: { name: 'Last Updated', type: 'dateTime', options: DATE_TIME_OPTIONS },
      status: {
        name: 'Status',
        type: 'singleSelect',
        // The site only ever writes 'New'; the rest are the school team's pipeline.
        options: { choices: choices('New', 'Contacted', 'Quoted', 'Won', 'Lost') },
        maxLength: 50,
      },
    },
  },
  waitlist: {
    name: 'Waitlist',
    fields: {
      email: { name: 'Email', type: 'email', maxLength: EMAIL_MAX_LENGTH },
      interests: {
        name: 'Interests',
        type: 'multipleSelects',
        options: {
          choices: choices(
            `Use ${PRODUCT_NAME}`,
            `Invest in ${PRODUCT_NAME}`,
            `Partner with ${PRODUCT_NAME}`,
            DEFAULT_INTEREST_STORED,
          ),
        },
        maxLength: 100,
        maxItems: 10,
      },
      schoolName: { name: 'School Name', type: 'singleLineText', maxLength: NAME_MAX_LENGTH },
      contactName: { name: 'Contact Name', type: 'singleLineText', maxLength: NAME_MAX_LENGTH },
      pageSource: { name: 'Page Source', type: 'singleLineText', maxLength: 100 },
      createdAt: { name: 'Created At', type: 'dateTime', options: DATE_TIME_OPTIONS },
      lastUpdated: { name: 'Last Updated', type: 'dateTime', options: DATE_TIME_OPTIONS },
    },
  },
} as const satisfies Readonly<Record<string, TableDefinition>>;

export type AirtableSchema = typeof AIRTABLE_SCHEMA;
export type TableKey = keyof AirtableSchema;
/** A table's name in the base: 'School Quotes' | 'Waitlist'. */
export type TableName = AirtableSchema[TableKey]['name'];

/** Field key → field name of one table, keeping the literal names in the type. */
export type FieldNames<K extends TableKey> = {
  readonly [F in keyof AirtableSchema[K]['fields']]: AirtableSchema[K]['fields'][F] extends {
    name: infer N;
  }
    ? N
    : never;
};

/** The field-name map of one table: `{ email: 'Email', … }`. */
export function fieldNamesOf<K extends TableKey>(table: K): FieldNames<K> {
  const fields: Readonly<Record<string, FieldDefinition>> = AIRTABLE_SCHEMA[table].fields;
  return Object.fromEntries(Object.entries(fields).map(([key, field]) => [key, field.name])) as FieldNames<K>;
}

/** Every table of the base, in the order the setup command creates them. */
export const AIRTABLE_TABLE_DEFINITIONS: readonly TableDefinition[] = Object.values(AIRTABLE_SCHEMA);

/** A table's definition by its name in the base, or undefined. */
export function tableDefinition(name: string): TableDefinition | undefined {
  return AIRTABLE_TABLE_DEFINITIONS.find((table) => table.name === name);
}

/** The option names of one select field, keeping the literal names (and their order) in the type. */
export function choiceNamesOf<const T extends readonly SelectChoice[]>(field: {
  readonly options: { readonly choices: T };
}): { readonly [I in keyof T]: T[I]['name'] } {
  return field.options.choices.map((choice) => choice.name) as { readonly [I in keyof T]: T[I]['name'] };
}

/** The select option names of any field; [] for types without options. */
export function choiceNames(field: FieldDefinition): string[] {
  return field.type === 'singleSelect' || field.type === 'multipleSelects'
    ? field.options.choices.map((choice) => choice.name)
    : [];
}
