/**
 * The emulator's data model, in the shapes Airtable's APIs use: a base holds tables, a table
 * holds fields (the Metadata API's field model) and records (the REST API's record model).
 */

/** A stored cell: text, a date-time as ISO text, or the option names of a multiple select. */
export type CellValue = string | string[];

/** A record as the REST API returns it. */
export interface StoredRecord {
  id: string;
  createdTime: string;
  fields: Record<string, CellValue>;
}

/** A select option as the Metadata API returns it. */
export interface ChoiceModel {
  id: string;
  name: string;
  color?: string;
}

/** Field options as the Metadata API returns them (select choices, date-time formats…). */
export interface FieldOptions {
  choices?: ChoiceModel[];
  [option: string]: unknown;
}

/** A field as the Metadata API returns it. */
export interface FieldModel {
  id: string;
  name: string;
  type: string;
  description?: string;
  options?: FieldOptions;
}

/** A table: its Metadata API model plus its records. */
export interface TableState {
  id: string;
  name: string;
  description?: string;
  primaryFieldId: string;
  fields: FieldModel[];
  /** The emulator has one grid view per table. */
  views: { id: string; name: string; type: 'grid' }[];
  records: StoredRecord[];
}

/** A table as a client describes it when creating one (POST …/tables) or seeding a base. */
export interface TableInput {
  name: string;
  description?: string;
  fields: readonly FieldInput[];
}

/** A field as a client describes it when creating one (POST …/fields). */
export interface FieldInput {
  name: string;
  type: string;
  description?: string;
  options?: unknown;
}

/** Personal access token scopes the emulator checks. */
export const ALL_SCOPES = [
  'data.records:read',
  'data.records:write',
  'schema.bases:read',
  'schema.bases:write',
] as const;
export type Scope = (typeof ALL_SCOPES)[number];

/** A token the emulator accepts, and what it may do. */
export interface EmulatorToken {
  token: string;
  scopes: readonly Scope[];
}
