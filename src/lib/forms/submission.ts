/**
 * The one reading of a form's post and the one builder of its cells, for every door and mode: the
 * server's door (relay and queued modes, enhanced and native posts alike) and direct mode's storage
 * layer both call parsePosted, then cellsFor. Everything they know of a form comes from its contract.
 * With them, the keys a record is found and kept one per address by (at the end): its stored
 * email, the lookup formula, the merge key, and one write per key at a time.
 *
 * Nothing a stranger posts can erase what a school or parent stored: blank and empty values are
 * never written over stored ones, and a required field may never be blank. Nothing it posts grows
 * the owner's base: a select takes only the ids of the options its form offers (and one 'Other' text).
 */
import { MESSAGES } from '#src/config/messages.ts';
import { canonicalEmail } from '#src/lib/email.ts';
import { acceptedEmail } from '#src/lib/email-look-alikes.ts';
import {
  type ContractField,
  type FormContract,
  type OtherRule,
  postedFields,
  storedText,
} from './contract.ts';
import { formOfTable } from './forms.ts';

type CellValue = string | string[];
export type Cells = Record<string, CellValue>;

/** One validated form submission, ready to be written (now, or later by the queue's writer). */
export interface Submission {
  table: string;
  /** The canonical email: the key records are matched on. */
  email: string;
  /** The posted fields' cells (Airtable field names); timestamps and fixed values are cellsFor's. */
  cells: Cells;
  /**
   * Cells written only when the submission creates its record (the default interest of a sign-up that chose
   * none); over a stored record they are left out, so an empty selection never replaces a stored one.
   */
  defaults?: Cells;
  /** When the door accepted it (ISO), so a later writer keeps the order submissions came in. */
  acceptedAt: string;
}

/** Whether a queued message's body is a submission (the queue's writer and the Worker read it). */
export function isSubmission(body: unknown): body is Submission {
  if (typeof body !== 'object' || body === null) return false;
  const { table, email, cells, acceptedAt, defaults } = body as Partial<Submission>;
  return (
    typeof table === 'string' &&
    typeof email === 'string' &&
    typeof acceptedAt === 'string' &&
    typeof cells === 'object' &&
    cells !== null &&
    (defaults === undefined || (typeof defaults === 'object' && defaults !== null))
  );
}

/** Why a post was refused. */
export interface Refusal {
  status: number;
  type: string;
  message: string;
  /** The form field at fault, when it is one the visitor can fix ('email'). */
  field?: 'email';
}

/** A form's post: the posted body, or the same values by post name. */
export type Posted = URLSearchParams | Readonly<Record<string, string | readonly string[] | undefined>>;

export const isRefusal = (value: Submission | Refusal): value is Refusal => 'status' in value;

const refuse = (message: string, type = 'INVALID_VALUE_FOR_COLUMN'): Refusal => ({
  status: 422,
  type,
  message,
});
const invalidEmail = (): Refusal => ({ ...refuse(MESSAGES.invalidEmail), field: 'email' });

/** Reads a post's values by name, each as a list (a repeated field, such as checkboxes, has several). */
export function reader(posted: Posted): (name: string) => string[] {
  if (posted instanceof URLSearchParams) return (name) => posted.getAll(name);
  return (name) => {
    const value = posted[name];
    if (value === undefined) return [];
    return typeof value === 'string' ? [value] : [...value];
  };
}

/** The one test of an 'Other' item: it starts with the rule's prefix and a space ('Other: text'). */
export function isOtherItem(rule: OtherRule, item: string): boolean {
  return item.startsWith(`${rule.prefix} `);
}

const fieldOf = (form: FormContract, key: string): ContractField => {
  const field = form.fields[key];
  if (!field) throw new Error(`The ${form.name} contract has no field '${key}'`);
  return field;
};

/**
 * Reads one post of `form`: each posted field by its post name, by its type; options by id; the
 * 'Other' rule; the default on creation; and the checks of `rules`. The honeypot is the door's to
 * check, before this. Rules 'server' (the door's): every bound, every required field, and an email
 * canonical and not a look-alike of another (acceptedEmail). 'spec' (direct mode's storage layer,
 * as the spec has it: nothing is checked but the email, which the form has already checked): no
 * bounds or required fields, the email stored in its normalised form.
 */
export function parsePosted(
  form: FormContract,
  posted: Posted,
  now: Date,
  { rules = 'server' }: { rules?: 'server' | 'spec' } = {},
): Submission | Refusal {
  const strict = rules === 'server';
  const read = reader(posted);
  const { table } = formOf(form);
  const cells: Cells = {};
  const rule = form.other;
  for (const [key, field] of postedFields(form)) {
    if (rule && key === rule.textField) continue; // Read with its option, below.
    const values = read(field.post);
    if (field.type === 'multipleSelects') {
      const ids = values.map((value) => value.trim()).filter((value) => value !== '');
      if (strict && ids.length > field.maxItems)
        return refuse(`Field "${field.airtable}" must be a list of at most ${field.maxItems} options`);
      const items: string[] = [];
      for (const id of ids) {
        const option = field.options.find((candidate) => candidate.id === id);
        if (!option) return refuse(`Field "${field.airtable}" has an option the site does not offer`);
        let item = option.stored;
        if (rule?.field === key && id === rule.optionId) {
          const textField = fieldOf(form, rule.textField);
          const [raw = ''] = textField.source === 'posted' ? read(textField.post) : [];
          const text = storedText(raw, textField.type);
          if (strict && textField.type !== 'dateTime' && raw.length > textField.maxLength)
            return refuse(`Field "${textField.airtable}" is longer than ${textField.maxLength} characters`);
          if (!text) continue; // 'Other' ticked with no text adds nothing.
          // An item is one line, whatever its text field keeps.
          item = `${rule.prefix} ${storedText(text)}`;
          cells[textField.airtable] = text;
        }
        if (strict && item.length > field.maxLength)
          return refuse(`Field "${field.airtable}" is longer than ${field.maxLength} characters`);
        if (!items.includes(item)) items.push(item);
      }
      if (items.length > 0) cells[field.airtable] = items;
    } else {
      if (values.length > 1) return refuse(`Field "${field.airtable}" must be sent once`);
      const value = values[0] ?? '';
      if (strict && value.length > field.maxLength)
        return field.type === 'email'
          ? invalidEmail()
          : refuse(`Field "${field.airtable}" is longer than ${field.maxLength} characters`);
      if (field.type === 'email') {
        const email = strict ? acceptedEmail(value) : value.includes('@') ? normaliseEmail(value) : null;
        if (email === null) return invalidEmail();
        cells[field.airtable] = email;
      } else {
        // Bidirectional controls never reach a record, an email or the base, nor a line break a
        // single-line field (contract.ts's storedText).
        const text = storedText(value, field.type);
        if (text !== '') cells[field.airtable] = text;
      }
    }
    if (field.required && !(field.airtable in cells) && (strict || field.type === 'email'))
      return field.type === 'email'
        ? invalidEmail()
        : refuse(`Field "${field.airtable}" is required and may not be blank`);
  }
  const emailField = Object.values(form.fields).find((field) => field.type === 'email');
  const email = emailField ? cells[emailField.airtable] : undefined;
  if (typeof email !== 'string') return invalidEmail();
  return withDefaults(form, { table, email, cells, acceptedAt: now.toISOString() });
}

/** The submission with its form's default on creation, for a selection it left empty. */
export function withDefaults(form: FormContract, submission: Submission): Submission {
  const fallback = form.defaultOnCreate;
  const name = fallback && fieldOf(form, fallback.field).airtable;
  if (!fallback || !name || name in submission.cells) return submission;
  return { ...submission, defaults: { [name]: [...fallback.value] } };
}

/** The contract of a submission's table. */
export function formOf(submission: { table: string }) {
  const form = formOfTable(submission.table);
  if (!form) throw new Error(`No form stores in table '${submission.table}'`);
  return form;
}

/** True when `cells` send the 'Other' rule's select without an 'Other' item: the stored text goes. */
export function clearsOtherText(form: FormContract, cells: Cells): boolean {
  const rule = form.other;
  if (!rule) return false;
  const items = cells[fieldOf(form, rule.field).airtable];
  return Array.isArray(items) && !items.some((item) => isOtherItem(rule, item));
}

/**
 * The cells one write sends for a submission, by the contract's rules: fixed values (a quote's Status 'New',
 * the sign-up's Page Source) on every write; Last Updated on every write and Created At on creation only;
 * create-only defaults on creation only; and, over a stored record, the 'Other' text cleared when the select
 * was sent without an 'Other' item. Fields the submission does not carry are never blanked. `now` is the
 * server's (or direct mode's page's) clock; `existing`, whether the record exists.
 */
export function cellsFor(submission: Submission, { now, existing }: { now: Date; existing: boolean }): Cells {
  const form = formOf(submission);
  const stamp = now.toISOString();
  const set: Cells = {};
  for (const field of Object.values(form.fields)) {
    if (field.source === 'fixed') set[field.airtable] = field.value;
    else if (field.source === 'updated') set[field.airtable] = stamp;
    else if (field.source === 'created' && !existing) set[field.airtable] = stamp;
  }
  if (!existing) return { ...submission.defaults, ...submission.cells, ...set };
  const cells: Cells = { ...submission.cells, ...set };
  const rule = form.other;
  if (rule && clearsOtherText(form, submission.cells)) cells[fieldOf(form, rule.textField).airtable] = '';
  return cells;
}

/**
 * The stored form of an email: its canonical form (trimmed, NFC, lower case, ASCII domain; see
 * canonicalEmail), or for a value that has none, trimmed and lower-cased. The lookup formula
 * compares the same way.
 */
export function normaliseEmail(email: string): string {
  return canonicalEmail(email) ?? email.trim().toLowerCase();
}

// Airtable formula string literals use backslash escapes. Escaping the backslash first keeps
// the later escapes intact; line breaks are escaped so the literal stays on one line.
const STRING_ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  "'": "\\'",
  '"': '\\"',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/** Quotes any text as a single-quoted Airtable formula string literal that cannot end early. */
export function toFormulaStringLiteral(value: string): string {
  return `'${value.replace(/[\\'"\n\r\t]/g, (char) => STRING_ESCAPES[char] ?? char)}'`;
}

/** The stored side of a lookup: the Email, trimmed and lower-cased (rows typed in by hand too). */
const emailLookupExpression = (emailField = 'Email') => `LOWER(TRIM({${emailField}}))`;

/**
 * The one lookup formula: records whose Email, trimmed and lower-cased, equals the normalised
 * email. Trimming the stored side also finds rows someone typed into Airtable by hand.
 */
export function emailLookupFormula(email: string, emailField = 'Email'): string {
  return `${emailLookupExpression(emailField)} = ${toFormulaStringLiteral(normaliseEmail(email))}`;
}

/** One address's case in the many-address lookup's SWITCH: its normalised text, then 1 (a match). */
const switchCase = (email: string) => `${toFormulaStringLiteral(normaliseEmail(email))}, 1`;

/**
 * The lookup formula for many emails (the server's): the one lookup for one email; for more, its
 * stored side compared once with each (`SWITCH(LOWER(TRIM({Email})), 'a@x.co', 1, …, 0)`, about
 * 35 characters an address where an OR of comparisons took 55).
 */
export function emailsLookupFormula(emails: readonly string[], emailField = 'Email'): string {
  if (emails.length === 1) return emailLookupFormula(emails[0] ?? '', emailField);
  const cases = emails.map((email) => `${switchCase(email)}, `).join('');
  return `SWITCH(${emailLookupExpression(emailField)}, ${cases}0)`;
}

/**
 * Longest lookup formula sent: Airtable refuses a URL over 16,000 characters, and a formula under
 * it is one Airtable documents taking (by GET, or POSTed to listRecords as the server does): 300
 * addresses of up to 42 characters (each costs its length and 7), about 440 of 25.
 */
const LOOKUP_FORMULA_MAX_CHARS = 15_000;

/** `emails` as few lookup formulas as fit in LOOKUP_FORMULA_MAX_CHARS each (none for no email). */
export function lookupFormulas(emails: readonly string[], emailField = 'Email'): string[] {
  // SWITCH(expression, …, 0): the parts around the cases.
  const frame = `SWITCH(${emailLookupExpression(emailField)}, 0)`.length;
  const parts: string[][] = [];
  let size = Number.POSITIVE_INFINITY;
  for (const email of emails) {
    const term = switchCase(email).length + 2;
    if (size + term > LOOKUP_FORMULA_MAX_CHARS) {
      parts.push([]);
      size = frame;
    }
    parts.at(-1)?.push(email);
    size += term;
  }
  return parts.map((part) => emailsLookupFormula(part, emailField));
}

/**
 * Runs tasks for one key one after another; different keys never wait on each other. A read then
 * a write cannot be made atomic, so two side by side would both read the same and both write:
 * direct mode's storage layer (one browser tab) queues upserts of one address this way, and the
 * Worker its queue's batches and the mail ledger's reservations of one inbox.
 */
export function keyedSerialiser() {
  const tails = new Map<string, Promise<unknown>>();
  return <T>(key: string, task: () => Promise<T>): Promise<T> => {
    const previous = tails.get(key) ?? Promise.resolve();
    const run = previous.then(task, task);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };
}

/** The key records are serialised, merged and limited on: one table, one stored email. */
export function submissionKey(table: string, normalisedEmail: string): string {
  return `${table}\u0000${normalisedEmail}`;
}
