/**
 * What the server accepts as one form submission, whichever door it came through (the page's
 * airtable.js create, or the form's native post): one record of 'Waitlist' or 'School Quotes'
 * carrying only the fields its form sends, each checked against the base's schema; and the cells
 * the server writes for it (the spec's field rules: Created At only on creation, Last Updated on
 * every write, a quote's Status back to 'New', Other Use Case following Use Cases).
 *
 * Nothing a stranger sends can erase what a school or parent stored: blank and empty values are
 * never written over stored ones, and the fields a form always fills may never be blank. Nothing
 * it sends grows the owner's base: no select option but the schema's and the page's own extras
 * (one 'Other: …' per quote, the home form's 'General Waitlist').
 */
import { DEFAULT_INTEREST_HOME_FORM } from '#src/config/constants.ts';
import { MESSAGES } from '#src/config/messages.ts';
import { acceptedEmail } from '#src/lib/email-look-alikes.ts';
import {
  OTHER_USE_CASE_LABEL,
  OTHER_USE_CASE_PREFIX,
  QUOTE_FIELDS,
  QUOTE_STATUS_NEW,
  WAITLIST_FIELDS,
  WAITLIST_PAGE_SOURCES,
} from '#src/lib/airtable/fields.ts';
import {
  AIRTABLE_SCHEMA,
  choiceNames,
  type FieldDefinition,
  tableDefinition,
  type TableName,
} from '#src/lib/airtable/schema.ts';

export type CellValue = string | string[];
export type Cells = Record<string, CellValue>;

/** One validated form submission, ready to be written (now, or later by the queue's writer). */
export interface Submission {
  table: TableName;
  /** Normalised (trimmed, lower-cased): the key records are matched on. */
  email: string;
  /** The page's cells, timestamps left out: the server sets its own. */
  cells: Cells;
  /**
   * Cells written only when the submission creates its record: the spec's default interest for
   * a sign-up that chose none. Over a stored record they are left out, so an empty selection
   * never replaces a stored one.
   */
  defaults?: Cells;
  /** When the relay accepted it (ISO), so a later writer keeps the order submissions came in. */
  acceptedAt: string;
}

/** Why a body was refused, in Airtable's error vocabulary so the page's mapping still applies. */
export interface Refusal {
  status: number;
  type: string;
  message: string;
  /** The form field at fault, when it is one the visitor can fix ('email'). */
  field?: 'email';
}

interface TableRules {
  /** The only fields this table's form sends (timestamps aside, which the server sets itself). */
  accepted: readonly string[];
  /** Fields that may never be blank: required on a create, never emptied on an update. */
  required: readonly string[];
  /** Values a multiple select may hold beyond its options (the page's own extras). */
  extraOption: Readonly<Record<string, (value: string) => boolean>>;
  /** A text field that only takes these values. */
  allowedText?: Readonly<Record<string, readonly string[]>>;
}

const CREATED_AT = AIRTABLE_SCHEMA.waitlist.fields.createdAt.name;
const LAST_UPDATED = AIRTABLE_SCHEMA.waitlist.fields.lastUpdated.name;
const STAMPS: readonly string[] = [CREATED_AT, LAST_UPDATED];
const EMAIL = WAITLIST_FIELDS.email;

const isOtherItem = (value: string) => value.startsWith(`${OTHER_USE_CASE_PREFIX} `);

const TABLE_RULES: Readonly<Record<TableName, TableRules>> = {
  [AIRTABLE_SCHEMA.waitlist.name]: {
    accepted: [WAITLIST_FIELDS.email, WAITLIST_FIELDS.interests, WAITLIST_FIELDS.pageSource],
    required: [WAITLIST_FIELDS.email, WAITLIST_FIELDS.interests],
    extraOption: {
      [WAITLIST_FIELDS.interests]: (value) => value === DEFAULT_INTEREST_HOME_FORM,
    },
    allowedText: { [WAITLIST_FIELDS.pageSource]: WAITLIST_PAGE_SOURCES },
  },
  [AIRTABLE_SCHEMA.quotes.name]: {
    accepted: [
      QUOTE_FIELDS.email,
      QUOTE_FIELDS.contactName,
      QUOTE_FIELDS.schoolName,
      QUOTE_FIELDS.role,
      QUOTE_FIELDS.useCases,
      QUOTE_FIELDS.otherUseCase,
      QUOTE_FIELDS.status,
    ],
    required: [QUOTE_FIELDS.email, QUOTE_FIELDS.contactName, QUOTE_FIELDS.schoolName],
    extraOption: {
      [QUOTE_FIELDS.useCases]: (value) =>
        isOtherItem(value) && value.trim().length > OTHER_USE_CASE_PREFIX.length,
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

const isBlank = (value: CellValue) => (Array.isArray(value) ? value.length === 0 : value.trim() === '');

/** Checks one cell against its field; returns the value to store, null to drop it, or a refusal. */
function checkCell(table: TableName, field: FieldDefinition, value: unknown): CellValue | null | Refusal {
  const rules = TABLE_RULES[table];
  switch (field.type) {
    case 'email': {
      const email = typeof value === 'string' ? acceptedEmail(value) : null;
      if (email === null || email.length > field.maxLength)
        return { ...refuse(MESSAGES.invalidEmail), field: 'email' };
      return email;
    }
    case 'singleLineText':
    case 'multilineText': {
      if (typeof value !== 'string') return refuse(`Field "${field.name}" must be text`);
      if (value.length > field.maxLength)
        return refuse(`Field "${field.name}" is longer than ${field.maxLength} characters`);
      const allowed = rules.allowedText?.[field.name];
      if (allowed && value.trim() !== '' && !allowed.includes(value.trim()))
        return refuse(`Field "${field.name}" has a value the site does not send`);
      return value.trim();
    }
    case 'singleSelect': {
      // The site only ever writes a quote's status 'New'; anything else is a forged value.
      if (field.name !== QUOTE_FIELDS.status || value !== QUOTE_STATUS_NEW)
        return refuse(`Field "${field.name}" may only be "${QUOTE_STATUS_NEW}"`);
      return null; // The server sets it on every quote write.
    }
    case 'multipleSelects': {
      const options = choiceNames(field);
      const extra = rules.extraOption[field.name];
      if (!Array.isArray(value) || value.length > field.maxItems)
        return refuse(`Field "${field.name}" must be a list of at most ${field.maxItems} options`);
      const items: string[] = [];
      for (const item of value) {
        if (
          typeof item !== 'string' ||
          item.length > field.maxLength ||
          !(options.includes(item) || extra?.(item))
        )
          return refuse(`Field "${field.name}" has an option the site does not offer`);
        const stored = isOtherItem(item)
          ? `${OTHER_USE_CASE_PREFIX} ${item.slice(OTHER_USE_CASE_PREFIX.length).trim()}`
          : item;
        if (!items.includes(stored)) items.push(stored);
      }
      // One 'Other: …' per quote, as the page sends: each one would be a new option in the base.
      if (items.filter(isOtherItem).length > 1)
        return refuse(`Field "${field.name}" may hold one "${OTHER_USE_CASE_PREFIX}" item`);
      return items;
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
 * Validates the cells of one record for `table`, as the page's create sends them (Airtable field
 * names) or as the native door maps a posted form to them. Blank and empty values are dropped
 * (never written over a stored value); a required field that is missing or blank is refused.
 */
export function parseFields(table: TableName, fields: unknown, now: Date): Submission | Refusal {
  if (!isPlainObject(fields)) return refuse('"fields" must be an object', 'INVALID_REQUEST_BODY');
  const rules = TABLE_RULES[table];
  const known = new Map(
    Object.values(tableDefinition(table)?.fields ?? {}).map((field) => [field.name, field]),
  );
  const cells: Cells = {};
  for (const [name, value] of Object.entries(fields)) {
    const field = known.get(name);
    if (!field || !(rules.accepted.includes(name) || STAMPS.includes(name)))
      return refuse(`Unknown field name: "${name}"`, 'UNKNOWN_FIELD_NAME');
    const checked = checkCell(table, field, value);
    if (checked !== null && typeof checked === 'object' && !Array.isArray(checked)) return checked;
    if (checked !== null && !isBlank(checked)) cells[name] = checked;
  }
  if (!(EMAIL in cells)) return { ...refuse(MESSAGES.invalidEmail), field: 'email' };
  for (const name of rules.required) {
    if (!(name in cells)) return refuse(`Field "${name}" is required and may not be blank`);
  }
  if (table === AIRTABLE_SCHEMA.quotes.name) {
    // Other Use Case follows the 'Other: …' item: the text of the one the page sent, or none.
    const other = (cells[QUOTE_FIELDS.useCases] as string[] | undefined)?.find(isOtherItem);
    const text = other?.slice(OTHER_USE_CASE_PREFIX.length).trim();
    const sent = cells[QUOTE_FIELDS.otherUseCase];
    if (sent !== undefined && sent !== text)
      return refuse(
        `Field "${QUOTE_FIELDS.otherUseCase}" must match the "${OTHER_USE_CASE_PREFIX}" use case`,
      );
    if (text) cells[QUOTE_FIELDS.otherUseCase] = text;
  }
  const email = cells[EMAIL];
  const submission: Submission = {
    table,
    email: typeof email === 'string' ? email : '',
    cells,
    acceptedAt: now.toISOString(),
  };
  return withDefaultsApart(submission);
}

/**
 * A sign-up that chose no interest carries the home form's default ('General Waitlist': what the
 * page and the native door send for an empty selection) as a default, not a choice: it is written
 * on a new record only, and a stored record keeps its interests.
 */
function withDefaultsApart(submission: Submission): Submission {
  if (submission.table !== AIRTABLE_SCHEMA.waitlist.name) return submission;
  const interests = submission.cells[WAITLIST_FIELDS.interests];
  if (!Array.isArray(interests) || interests.length !== 1 || interests[0] !== DEFAULT_INTEREST_HOME_FORM)
    return submission;
  const cells = { ...submission.cells };
  delete cells[WAITLIST_FIELDS.interests];
  return { ...submission, cells, defaults: { [WAITLIST_FIELDS.interests]: interests } };
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
  return parseFields(table, body.fields, now);
}

export function isRefusal(value: Submission | Refusal): value is Refusal {
  return 'status' in value;
}

/**
 * The cells of a later submission over an earlier one (two submits in a row, merged by the queue's
 * writer): later values over earlier ones, and a quote whose later Use Cases hold no 'Other: …'
 * item loses the earlier Other Use Case with it.
 */
export function mergeCells(table: TableName, earlier: Cells, later: Cells): Cells {
  const cells = { ...earlier, ...later };
  if (table === AIRTABLE_SCHEMA.quotes.name && clearsOtherUseCase(later))
    delete cells[QUOTE_FIELDS.otherUseCase];
  return cells;
}

/**
 * A later submission over an earlier one, as one: cells merged (mergeCells), and create-only
 * defaults kept only for the fields neither chose (a chosen selection is never undone by a
 * later empty one, and a later choice replaces an earlier default).
 */
export function mergeLaterSubmission(earlier: Submission, later: Submission): Submission {
  const cells = mergeCells(later.table, earlier.cells, later.cells);
  const defaults = Object.fromEntries(
    Object.entries({ ...earlier.defaults, ...later.defaults }).filter(([name]) => !(name in cells)),
  );
  const merged: Submission = { table: later.table, email: later.email, cells, acceptedAt: later.acceptedAt };
  return Object.keys(defaults).length > 0 ? { ...merged, defaults } : merged;
}

/** True when a quote's cells send Use Cases without an 'Other: …' item: the stored Other text goes. */
function clearsOtherUseCase(cells: Cells): boolean {
  const useCases = cells[QUOTE_FIELDS.useCases];
  return Array.isArray(useCases) && !useCases.some(isOtherItem);
}

const quoteStatus = (table: TableName): Cells =>
  table === AIRTABLE_SCHEMA.quotes.name ? { [QUOTE_FIELDS.status]: QUOTE_STATUS_NEW } : {};

/** Cells of the record a submission creates: its defaults, Created At and Last Updated set to `at`. */
export function cellsForCreate(submission: Submission, at: Date): Cells {
  const stamp = at.toISOString();
  return {
    ...submission.defaults,
    ...submission.cells,
    ...quoteStatus(submission.table),
    [CREATED_AT]: stamp,
    [LAST_UPDATED]: stamp,
  };
}

/**
 * Cells written over an existing record: Created At kept, Last Updated set, a quote's Status back
 * to 'New', and a quote's Other Use Case cleared when its Use Cases no longer hold an 'Other: …'
 * item. Nothing else is ever blanked: fields the submission does not carry keep their values, and
 * its create-only defaults are left out (a sign-up with no interest keeps the stored ones).
 */
export function cellsForUpdate(submission: Submission, at: Date): Cells {
  const cells: Cells = {
    ...submission.cells,
    ...quoteStatus(submission.table),
    [LAST_UPDATED]: at.toISOString(),
  };
  if (submission.table === AIRTABLE_SCHEMA.quotes.name && clearsOtherUseCase(submission.cells))
    cells[QUOTE_FIELDS.otherUseCase] = '';
  return cells;
}

/**
 * A form's native post as the cells the page would send for it (Airtable field names), so both
 * doors meet one validation. The posted names are the forms' own (see the form components).
 */
export function nativeFields(table: TableName, form: URLSearchParams): Record<string, unknown> {
  const text = (name: string) => form.get(name) ?? '';
  if (table === AIRTABLE_SCHEMA.waitlist.name) {
    const interests = form.getAll('interests').filter((interest) => interest.trim() !== '');
    return {
      [WAITLIST_FIELDS.email]: text('email'),
      [WAITLIST_FIELDS.interests]: interests.length > 0 ? interests : [DEFAULT_INTEREST_HOME_FORM],
      [WAITLIST_FIELDS.pageSource]: WAITLIST_PAGE_SOURCES[0],
    };
  }
  // The 'Other' card posts its label; its text comes in otherUseCase, as 'Other: text' on the page.
  const other = text('otherUseCase').trim();
  const useCases = form.getAll('useCases').flatMap((label) => {
    if (label !== OTHER_USE_CASE_LABEL) return [label];
    return other ? [`${OTHER_USE_CASE_PREFIX} ${other}`] : [];
  });
  return {
    [QUOTE_FIELDS.email]: text('email'),
    [QUOTE_FIELDS.contactName]: text('contactName'),
    [QUOTE_FIELDS.schoolName]: text('schoolName'),
    [QUOTE_FIELDS.role]: text('role'),
    [QUOTE_FIELDS.useCases]: useCases,
  };
}
