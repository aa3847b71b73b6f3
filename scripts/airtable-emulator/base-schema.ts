/**
 * The base's schema in the shapes Airtable's APIs use: tables and fields built from what a client
 * sends the Metadata API, and each written cell checked against its field, with Airtable's errors.
 */
import { randomBytes } from 'node:crypto';
import { airtableTables } from '#src/lib/airtable/schema.ts';
import { ApiError, isObject } from './http.ts';

/** A stored cell: text, a date-time as ISO text, or the option names of a multiple select. */
export type CellValue = string | string[];

export interface StoredRecord {
  id: string;
  createdTime: string;
  fields: Record<string, CellValue>;
}

/** A select option, field and table as the Metadata API returns them. */
export type ChoiceModel = { id: string; name: string; color?: string };
type FieldOptions = { choices?: ChoiceModel[]; [option: string]: unknown };
export type FieldModel = {
  id: string;
  name: string;
  type: string;
  description?: string;
  options?: FieldOptions;
};
export interface TableState {
  id: string;
  name: string;
  description?: string;
  primaryFieldId: string;
  fields: FieldModel[];
  views: { id: string; name: string; type: 'grid' }[];
  records: StoredRecord[];
}

/** A table or field as a client describes it when creating one, or seeding a base. */
type FieldInput = { name: string; type: string; description?: string; options?: unknown };
export type TableInput = { name: string; description?: string; fields: readonly FieldInput[] };

/** Personal access token scopes the emulator checks, and a token it accepts. */
export const ALL_SCOPES = [
  'data.records:read',
  'data.records:write',
  'schema.bases:read',
  'schema.bases:write',
] as const;
export type EmulatorToken = { token: string; scopes: readonly (typeof ALL_SCOPES)[number][] };

/** Airtable-style id: a prefix and 14 alphanumerics, e.g. 'tblXXXXXXXXXXXXXX'. */
export function newId(prefix: 'app' | 'tbl' | 'fld' | 'viw' | 'sel' | 'rec'): string {
  return `${prefix}${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x').slice(0, 14)}`;
}

const TEXT_TYPES: readonly string[] = ['singleLineText', 'multilineText', 'email', 'url', 'phoneNumber'];
/** Date and time formats by name, as Airtable fills them in. */
const FORMATS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  dateFormat: { local: 'l', friendly: 'LL', us: 'M/D/YYYY', european: 'D/M/YYYY', iso: 'YYYY-MM-DD' },
  timeFormat: { '12hour': 'h:mma', '24hour': 'HH:mm' },
};

/** The IANA zone, 'utc' or 'client'; anything else is refused as Airtable does. */
function isKnownTimeZone(zone: unknown): boolean {
  if (zone === 'utc' || zone === 'client') return true;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone as string });
    return typeof zone === 'string' && zone !== 'UTC'; // Airtable wants 'utc' and refuses 'UTC'.
  } catch {
    return false;
  }
}

/** A field's options for its type: none for text, formats and zone for a date-time, choices for a select. */
function fieldOptions(name: string, type: string, options: unknown): FieldOptions | undefined {
  const invalid = (problem: string) =>
    new ApiError(
      422,
      'INVALID_FIELD_TYPE_OPTIONS_FOR_CREATE',
      `Failed schema validation: ${name}.options ${problem}`,
    );
  if (TEXT_TYPES.includes(type)) {
    if (isObject(options) && Object.keys(options).length > 0)
      throw invalid(`must be empty for a ${type} field`);
    return undefined;
  }
  if (type === 'dateTime') {
    if (!isObject(options)) throw invalid('is missing');
    const [dateFormat, timeFormat] = Object.entries(FORMATS).map(([key, formats]) => {
      const value = options[key];
      if (!isObject(value) || typeof value.name !== 'string' || !Object.hasOwn(formats, value.name))
        throw invalid(`${key} is missing or not one of ${Object.keys(formats).join(', ')}`);
      return { name: value.name, format: formats[value.name] };
    });
    if (!isKnownTimeZone(options.timeZone))
      throw invalid(`timeZone ${JSON.stringify(options.timeZone)} is not a known time zone`);
    return { dateFormat, timeFormat, timeZone: options.timeZone };
  }
  if (!isObject(options) || !Array.isArray(options.choices)) throw invalid('is missing choices');
  const choices: ChoiceModel[] = [];
  for (const choice of options.choices) {
    if (!isObject(choice) || typeof choice.name !== 'string' || choice.name.trim() === '')
      throw invalid('has a choice without a name');
    if (choices.some((known) => known.name === choice.name))
      throw invalid(`has the choice "${choice.name}" twice`);
    const color = typeof choice.color === 'string' ? { color: choice.color } : {};
    choices.push({ id: newId('sel'), name: choice.name, ...color });
  }
  return { choices };
}

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** A new field from a client's description, checked against the table's other fields as Airtable does. */
export function buildField(input: unknown, siblings: readonly { name: string }[]): FieldModel {
  if (!isObject(input) || typeof input.type !== 'string')
    throw new ApiError(422, 'INVALID_REQUEST_UNKNOWN', 'Invalid request: a field needs a name and a type.');
  const { type } = input;
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (!name || siblings.some((field) => sameName(field.name, name)))
    throw new ApiError(
      422,
      'DUPLICATE_OR_EMPTY_FIELD_NAME',
      name ? `Field names must be unique: "${name}" already exists` : 'Field names cannot be empty',
    );
  // The types the emulator can create and store cells for: text, selects, date-times.
  if (!TEXT_TYPES.includes(type) && !['singleSelect', 'multipleSelects', 'dateTime'].includes(type))
    throw new ApiError(
      422,
      'UNSUPPORTED_FIELD_TYPE_FOR_CREATE',
      `Invalid options for ${name}: creating ${type} fields is not supported by this emulator`,
    );
  const options = fieldOptions(name, type, input.options);
  return {
    id: newId('fld'),
    name,
    type,
    ...(typeof input.description === 'string' ? { description: input.description } : {}),
    ...(options ? { options } : {}),
  };
}

/** A new table: a unique name and at least one field, the first being the primary field, as in Airtable. */
export function buildTable(input: unknown, tables: readonly { name: string }[]): TableState {
  if (!isObject(input))
    throw new ApiError(422, 'INVALID_REQUEST_UNKNOWN', 'Invalid request: the body must be a table.');
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (!name) throw new ApiError(422, 'INVALID_TABLE_NAME', 'Table names cannot be empty');
  if (tables.some((table) => sameName(table.name, name)))
    throw new ApiError(422, 'DUPLICATE_TABLE_NAME', `A table named "${name}" already exists in this base`);
  if (!Array.isArray(input.fields) || input.fields.length === 0)
    throw new ApiError(422, 'INVALID_REQUEST_UNKNOWN', 'Invalid request: a table needs at least one field.');
  const fields: FieldModel[] = [];
  for (const fieldInput of input.fields as unknown[]) fields.push(buildField(fieldInput, fields));
  return {
    id: newId('tbl'),
    name,
    ...(typeof input.description === 'string' ? { description: input.description } : {}),
    primaryFieldId: (fields[0] as FieldModel).id,
    fields,
    views: [{ id: newId('viw'), name: 'Grid view', type: 'grid' }],
    records: [],
  };
}

/** The site's base (src/lib/airtable/schema.ts) as Metadata API tables; keys like maxLength are ignored. */
export function siteBaseSchema(): TableInput[] {
  return structuredClone(
    airtableTables().map(({ name, fields }) => ({ name, fields: Object.values(fields) })),
  );
}

/** The Metadata API's view of a table (no records). */
export function describeTable(table: TableState): Omit<TableState, 'records'> {
  return structuredClone({ ...table, records: undefined });
}

/**
 * The stored cell, or undefined for empty (Airtable omits those). `choices`, the field's options
 * to check and (typecast) extend, is a copy, so a write that fails later adds none.
 */
export function normaliseCell(
  field: Pick<FieldModel, 'name' | 'type'>,
  choices: ChoiceModel[],
  value: unknown,
  typecast: boolean,
): CellValue | undefined {
  const invalid = () =>
    new ApiError(422, 'INVALID_VALUE_FOR_COLUMN', `Field "${field.name}" cannot accept the provided value`);
  if (value === null || value === undefined || value === '') return undefined;
  const ensureChoice = (option: string) => {
    if (choices.some((choice) => choice.name === option)) return;
    if (!typecast)
      throw new ApiError(
        422,
        'INVALID_MULTIPLE_CHOICE_OPTIONS',
        `Insufficient permissions to create new select option ""${option}""`,
      );
    choices.push({ id: newId('sel'), name: option });
  };
  switch (field.type) {
    case 'singleSelect':
      if (typeof value !== 'string') throw invalid();
      ensureChoice(value);
      return value;
    case 'multipleSelects': {
      let items: unknown[];
      if (Array.isArray(value)) items = value;
      else if (typecast && typeof value === 'string') items = value.split(',').map((item) => item.trim());
      else throw invalid();
      const options: string[] = [];
      for (const item of items) {
        if (typeof item !== 'string') throw invalid();
        if (item === '' || options.includes(item)) continue;
        ensureChoice(item);
        options.push(item);
      }
      return options.length > 0 ? options : undefined;
    }
    case 'dateTime': {
      if (typeof value !== 'string' && typeof value !== 'number') throw invalid();
      const date = new Date(value);
      if (Number.isNaN(date.getTime())) throw invalid();
      return date.toISOString();
    }
  }
  // Every other creatable type holds text.
  if (typeof value === 'string') return value;
  if (typecast && (typeof value === 'number' || typeof value === 'boolean')) return String(value);
  if (typecast && Array.isArray(value)) return value.map(String).join(', ');
  throw invalid();
}
