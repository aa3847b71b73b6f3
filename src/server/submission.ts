/**
 * What the relay accepts from a page: the create of one record of 'Waitlist' or 'School Quotes'
 * carrying exactly the form's fields, each checked against the base's schema; and the cells the
 * server writes for it (the spec's field rules: Created At only on creation, Last Updated on
 * every write, a quote's Status back to 'New', Other Use Case following Use Cases).
 *
 * Runs on the host (Worker, Netlify Function, Vite's servers): relative imports only.
 */
import { DEFAULT_INTEREST_HOME_FORM } from '../config/constants.ts';
import { isValidEmail } from '../lib/email.ts';
import {
  normaliseEmail,
  OTHER_USE_CASE_PREFIX,
  QUOTE_FIELDS,
  QUOTE_STATUS_NEW,
} from '../lib/airtable/fields.ts';
import {
  AIRTABLE_SCHEMA,
  choiceNames,
  type FieldDefinition,
  tableDefinition,
  type TableName,
} from '../lib/airtable/schema.ts';

export type CellValue = string | string[];
export type Cells = Record<string, CellValue>;

/** One validated form submission, ready to be written (now, or later by the queue's writer). */
export interface Submission {
  table: TableName;
  /** Normalised (trimmed, lower-cased): the key records are matched on. */
  email: string;
  /** The page's cells, timestamps left out: the server sets its own. */
  cells: Cells;
  /** When the relay accepted it (ISO), so a later writer keeps the order submissions came in. */
  acceptedAt: string;
}

/** Why a body was refused, in Airtable's error vocabulary so the page's mapping still applies. */
export interface Refusal {
  status: number;
  type: string;
  message: string;
}

interface TableRules {
  /** Cells the page always sends for this table. */
  required: readonly string[];
  /** Values a multiple select may hold beyond its options (the page's own extras). */
  extraOption: Readonly<Record<string, (value: string) => boolean>>;
}

const TABLE_RULES: Readonly<Record<TableName, TableRules>> = {
  [AIRTABLE_SCHEMA.waitlist.name]: {
    required: [AIRTABLE_SCHEMA.waitlist.fields.email.name, AIRTABLE_SCHEMA.waitlist.fields.interests.name],
    extraOption: {
      [AIRTABLE_SCHEMA.waitlist.fields.interests.name]: (value) => value === DEFAULT_INTEREST_HOME_FORM,
    },
  },
  [AIRTABLE_SCHEMA.quotes.name]: {
    required: [
      QUOTE_FIELDS.email,
      QUOTE_FIELDS.contactName,
      QUOTE_FIELDS.schoolName,
      QUOTE_FIELDS.useCases,
      QUOTE_FIELDS.status,
    ],
    extraOption: {
      [QUOTE_FIELDS.useCases]: (value) =>
        value.startsWith(`${OTHER_USE_CASE_PREFIX} `) && value.length > OTHER_USE_CASE_PREFIX.length + 1,
    },
  },
};

/** The tables the relay writes to, by name. */
export const RELAY_TABLES: readonly TableName[] = [
  AIRTABLE_SCHEMA.waitlist.name,
  AIRTABLE_SCHEMA.quotes.name,
];

export function isRelayTable(name: string): name is TableName {
  return (RELAY_TABLES as readonly string[]).includes(name);
}

const refuse = (message: string, type = 'INVALID_VALUE_FOR_COLUMN'): Refusal => ({
  status: 422,
  type,
  message,
});

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks one cell against its field; returns the value to store, or a refusal. */
function checkCell(table: TableName, field: FieldDefinition, value: unknown): CellValue | null | Refusal {
  const rules = TABLE_RULES[table];
  switch (field.type) {
    case 'email': {
      if (typeof value !== 'string' || !isValidEmail(value) || value.trim().length > field.maxLength)
        return refuse(`Field "${field.name}" must be a valid email address`);
      return normaliseEmail(value);
    }
    case 'singleLineText':
    case 'multilineText': {
      if (typeof value !== 'string') return refuse(`Field "${field.name}" must be text`);
      if (value.length > field.maxLength)
        return refuse(`Field "${field.name}" is longer than ${field.maxLength} characters`);
      return value;
    }
    case 'singleSelect': {
      // The site only ever writes a new quote's status; anything else is a forged value.
      if (field.name !== QUOTE_FIELDS.status || value !== QUOTE_STATUS_NEW)
        return refuse(`Field "${field.name}" may only be "${QUOTE_STATUS_NEW}"`);
      return value;
    }
    case 'multipleSelects': {
      const options = choiceNames(field);
      const extra = rules.extraOption[field.name];
      if (!Array.isArray(value) || value.length > field.maxItems)
        return refuse(`Field "${field.name}" must be a list of at most ${field.maxItems} options`);
      for (const item of value) {
        if (
          typeof item !== 'string' ||
          item.length > field.maxLength ||
          !(options.includes(item) || extra?.(item))
        )
          return refuse(`Field "${field.name}" has an option the site does not offer`);
      }
      return [...new Set(value as string[])];
    }
    case 'dateTime': {
      // The page's clock is not trusted: the server stamps its own times. A value must still
      // be a date, so garbage is refused rather than silently dropped.
      if (typeof value !== 'string' || Number.isNaN(Date.parse(value)))
        return refuse(`Field "${field.name}" must be a date`);
      return null;
    }
  }
}

/**
 * Validates the body of a page's create of one record in `table`. Accepts `{ fields, typecast }`
 * and nothing else: batch creates (`records`), `performUpsert` and unknown cells are refused.
 */
export function parseSubmission(table: TableName, body: unknown, now: Date): Submission | Refusal {
  if (!isPlainObject(body)) return refuse('The request body must be a JSON object', 'INVALID_REQUEST_BODY');
  for (const key of Object.keys(body)) {
    if (key !== 'fields' && key !== 'typecast')
      return refuse(`"${key}" is not accepted here: one record per request`, 'INVALID_REQUEST_UNKNOWN');
  }
  const { fields } = body;
  if (!isPlainObject(fields)) return refuse('"fields" must be an object', 'INVALID_REQUEST_BODY');
  const known = new Map(
    Object.values(tableDefinition(table)?.fields ?? {}).map((field) => [field.name, field]),
  );
  const cells: Cells = {};
  for (const [name, value] of Object.entries(fields)) {
    const field = known.get(name);
    if (!field) return refuse(`Unknown field name: "${name}"`, 'UNKNOWN_FIELD_NAME');
    const checked = checkCell(table, field, value);
    if (checked !== null && typeof checked === 'object' && !Array.isArray(checked)) return checked;
    if (checked !== null) cells[name] = checked;
  }
  for (const name of TABLE_RULES[table].required) {
    if (!(name in cells)) return refuse(`Field "${name}" is required`);
  }
  const email = cells[AIRTABLE_SCHEMA.waitlist.fields.email.name];
  return { table, email: typeof email === 'string' ? email : '', cells, acceptedAt: now.toISOString() };
}

export function isRefusal(value: Submission | Refusal): value is Refusal {
  return 'status' in value;
}

const CREATED_AT = AIRTABLE_SCHEMA.waitlist.fields.createdAt.name;
const LAST_UPDATED = AIRTABLE_SCHEMA.waitlist.fields.lastUpdated.name;

/** Cells of the record a submission creates: Created At and Last Updated set to `at`. */
export function cellsForCreate(submission: Submission, at: Date): Cells {
  const stamp = at.toISOString();
  return { ...submission.cells, [CREATED_AT]: stamp, [LAST_UPDATED]: stamp };
}

/**
 * Cells written over an existing record: Created At kept, Last Updated set, a quote's Status back
 * to 'New' (it is in the submission), and a quote's Other Use Case cleared when none was sent.
 */
export function cellsForUpdate(submission: Submission, at: Date): Cells {
  const cells: Cells = { ...submission.cells, [LAST_UPDATED]: at.toISOString() };
  if (submission.table === AIRTABLE_SCHEMA.quotes.name && !(QUOTE_FIELDS.otherUseCase in cells))
    cells[QUOTE_FIELDS.otherUseCase] = '';
  return cells;
}
