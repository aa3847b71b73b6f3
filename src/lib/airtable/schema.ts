/**
 * The Airtable base the site writes to, as the Metadata API describes it: read from the forms'
 * contracts (src/lib/forms/), which declare every table, field, type, bound and option. The
 * emulator and the owner's setup/check commands read it.
 *
 * Field `options` are in the shape Airtable's Metadata API takes when creating a field, so the
 * setup command can send them as they are.
 */
import { type ContractField, type FormContract } from '#src/lib/forms/contract.ts';
import { FORM_LIST, FORMS } from '#src/lib/forms/forms.ts';

/** A select option as the Metadata API takes it (`{ name }`; Airtable picks a colour). */
export interface SelectChoice {
  readonly name: string;
}

/**
 * Date-time cells are shown in one stated zone, so every collaborator of the base reads the
 * same time (Airtable's 'client' would show each viewer's own zone). The company is in the UK.
 */
const AIRTABLE_TIME_ZONE = 'Europe/London';

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

type Choices = { readonly options: { readonly choices: readonly SelectChoice[] } };

/**
 * One field of the base. `maxLength` bounds a text cell, or each item of a multiple select;
 * `maxItems`: the most items one cell may hold.
 */
export type FieldDefinition = { readonly name: string } & (
  | { readonly type: 'email' | 'singleLineText' | 'multilineText'; readonly maxLength: number }
  | ({ readonly type: 'singleSelect'; readonly maxLength: number } & Choices)
  | ({ readonly type: 'multipleSelects'; readonly maxLength: number; readonly maxItems: number } & Choices)
  | { readonly type: 'dateTime'; readonly options: DateTimeOptions }
);

/** One table of the base; fields keyed by the storage layer's own names for them. */
export interface TableDefinition {
  readonly name: string;
  readonly fields: Readonly<Record<string, FieldDefinition>>;
}

/** A contract field as its FieldDefinition, with its type and Airtable name kept literal. */
type SchemaField<F> = F extends { readonly type: infer T; readonly airtable: infer N }
  ? FieldDefinition extends infer D
    ? D extends { readonly type: infer DT }
      ? T extends DT
        ? Omit<D, 'name' | 'type'> & { readonly name: N; readonly type: T }
        : never
      : never
    : never
  : never;

/** A form's table as the base holds it. */
export type SchemaTable<C extends FormContract> = {
  readonly name: C['table'];
  readonly fields: { readonly [K in keyof C['fields']]: SchemaField<C['fields'][K]> };
};

/** One contract field as a field of the base. */
function schemaField(form: FormContract, field: ContractField): FieldDefinition {
  const choices = (names: readonly string[]) => ({ choices: names.map((name) => ({ name })) });
  switch (field.type) {
    case 'dateTime':
      return { name: field.airtable, type: 'dateTime', options: DATE_TIME_OPTIONS };
    case 'singleSelect':
      return {
        name: field.airtable,
        type: 'singleSelect',
        options: choices(field.choices),
        maxLength: field.maxLength,
      };
    case 'multipleSelects': {
      // The 'Other' option is stored as its text ('Other: …', added by typecast), never as a choice.
      const offered = field.options
        .filter(
          (option) =>
            !(form.other && option.id === form.other.optionId && form.fields[form.other.field] === field),
        )
        .map((option) => option.stored);
      return {
        name: field.airtable,
        type: 'multipleSelects',
        options: choices([...new Set([...offered, ...(field.moreChoices ?? [])])]),
        maxLength: field.maxLength,
        maxItems: field.maxItems,
      };
    }
    default:
      return { name: field.airtable, type: field.type, maxLength: field.maxLength };
  }
}

/** A form's table, read from its contract. */
function tableOf<const C extends FormContract>(form: C): SchemaTable<C> {
  return {
    name: form.table,
    fields: Object.fromEntries(
      Object.entries(form.fields).map(([key, field]) => [key, schemaField(form, field)]),
    ),
  } as SchemaTable<C>;
}

/** The site's base: a table per form of FORMS, read from its contract. Fields in the order setup creates them. */
export const AIRTABLE_SCHEMA = Object.fromEntries(
  Object.entries(FORMS).map(([name, form]) => [name, tableOf(form)]),
) as { readonly [K in keyof typeof FORMS]: SchemaTable<(typeof FORMS)[K]> } satisfies Readonly<
  Record<string, TableDefinition>
>;

export type AirtableSchema = typeof AIRTABLE_SCHEMA;
export type TableKey = keyof AirtableSchema;

/** Field key → field name of one table, keeping the literal names in the type. */
export type FieldNames<K extends TableKey> = {
  readonly [F in keyof AirtableSchema[K]['fields']]: AirtableSchema[K]['fields'][F] extends { name: infer N }
    ? N
    : never;
};

/** The field-name map of one table: `{ email: 'Email', … }`. */
export function fieldNamesOf<K extends TableKey>(table: K): FieldNames<K> {
  const fields: Readonly<Record<string, FieldDefinition>> = AIRTABLE_SCHEMA[table].fields;
  return Object.fromEntries(Object.entries(fields).map(([key, field]) => [key, field.name])) as FieldNames<K>;
}

/** Every table of the base, one per form of FORM_LIST (a registered form's too), in its order. */
export const airtableTables = (): TableDefinition[] => FORM_LIST.map(tableOf);

/** The select option names of any field; [] for types without options. */
export function choiceNames(field: FieldDefinition): string[] {
  return field.type === 'singleSelect' || field.type === 'multipleSelects'
    ? field.options.choices.map((choice) => choice.name)
    : [];
}

/** Field names of 'School Quotes', exactly as in Airtable (from the quote form's contract). */
export const QUOTE_FIELDS = fieldNamesOf('quote');

/** Field names of 'Waitlist', exactly as in Airtable (from the waitlist form's contract). */
export const WAITLIST_FIELDS = fieldNamesOf('waitlist');
