import { DEFAULT_INTEREST_STORED } from '#src/config/constants.ts';
import { canonicalEmail } from '#src/lib/email.ts';
import { AIRTABLE_SCHEMA, choiceNamesOf, fieldNamesOf } from './schema.ts';

/** Table names in the Airtable base, exactly as the owner named them (from schema.ts). */
export const AIRTABLE_TABLES = {
  quotes: AIRTABLE_SCHEMA.quotes.name,
  waitlist: AIRTABLE_SCHEMA.waitlist.name,
} as const;

/** Field names of 'School Quotes', exactly as in Airtable (from schema.ts). */
export const QUOTE_FIELDS = fieldNamesOf('quotes');

/** Field names of 'Waitlist', exactly as in Airtable (from schema.ts). */
export const WAITLIST_FIELDS = fieldNamesOf('waitlist');

/** The short labels stored in Use Cases (spec section 3): the field's select options. */
export const USE_CASE_LABELS = choiceNamesOf(AIRTABLE_SCHEMA.quotes.fields.useCases);
export type UseCaseLabel = (typeof USE_CASE_LABELS)[number];

/** The Page Source values a form sends with a waitlist sign-up. */
export const WAITLIST_PAGE_SOURCES: readonly string[] = ['home'];

/** The label of the quote form's 'Other' card, as it shows and as it posts natively. */
export const OTHER_USE_CASE_LABEL = 'Other';

/** Prefix of a custom use case in Use Cases: 'Other: text'. */
export const OTHER_USE_CASE_PREFIX = 'Other:';

/** Status of a new or re-submitted quote request: the first option of Status. */
export const QUOTE_STATUS_NEW = AIRTABLE_SCHEMA.quotes.fields.status.options.choices[0].name;

/** What the schools quote form hands to the storage layer. */
export interface QuoteRequestInput {
  email: string;
  contactName: string;
  schoolName: string;
  role?: string;
  /**
   * The stored Use Cases options (the short labels; the form maps its cards' ids to them in
   * src/features/quote/use-cases.ts) and at most one 'Other: text' item. Nothing here maps a
   * card id: any other text is sent as given, trimmed (the relay's gate refuses an option the
   * schema lacks; in direct mode Airtable's typecast would add it to the base).
   */
  useCases: string[];
  /** The custom use case text; taken from the 'Other: text' item when absent. */
  otherUseCase?: string;
}

/** What a waitlist sign-up hands to the storage layer. */
export interface WaitlistEntryInput {
  email: string;
  interests?: string[];
  schoolName?: string;
  contactName?: string;
  pageSource?: string;
}

/** Cell values of a 'School Quotes' write, keyed by Airtable field name. */
export type QuoteRecordFields = {
  [QUOTE_FIELDS.email]: string;
  [QUOTE_FIELDS.contactName]: string;
  [QUOTE_FIELDS.schoolName]: string;
  [QUOTE_FIELDS.role]?: string;
  [QUOTE_FIELDS.useCases]: string[];
  [QUOTE_FIELDS.otherUseCase]?: string;
  [QUOTE_FIELDS.createdAt]?: string;
  [QUOTE_FIELDS.lastUpdated]: string;
  [QUOTE_FIELDS.status]: typeof QUOTE_STATUS_NEW;
};

/** Cell values of a 'Waitlist' write, keyed by Airtable field name. */
export type WaitlistRecordFields = {
  [WAITLIST_FIELDS.email]: string;
  [WAITLIST_FIELDS.interests]: string[];
  [WAITLIST_FIELDS.schoolName]?: string;
  [WAITLIST_FIELDS.contactName]?: string;
  [WAITLIST_FIELDS.pageSource]?: string;
  [WAITLIST_FIELDS.createdAt]?: string;
  [WAITLIST_FIELDS.lastUpdated]: string;
};

/**
 * The stored form of an email: its canonical form (trimmed, NFC, lower case, ASCII domain; see
 * canonicalEmail), or for a value that has none, trimmed and lower-cased. The lookup formula
 * compares the same way.
 */
export function normaliseEmail(email: string): string {
  return canonicalEmail(email) ?? email.trim().toLowerCase();
}

function isOtherItem(item: string): boolean {
  return item.trimStart().toLowerCase().startsWith(OTHER_USE_CASE_PREFIX.toLowerCase());
}

function otherText(item: string): string {
  return item.trimStart().slice(OTHER_USE_CASE_PREFIX.length).trim();
}

/**
 * Use Cases as stored: each item trimmed (the form sends the short labels), an 'Other: text' item keeps its
 * text (never mapped to a label) as 'Other: <trimmed text>', blanks and repeats are dropped.
 */
export function toUseCaseValues(useCases: readonly string[]): string[] {
  const values: string[] = [];
  for (const item of useCases) {
    const value = isOtherItem(item)
      ? otherText(item) && `${OTHER_USE_CASE_PREFIX} ${otherText(item)}`
      : item.trim();
    if (value && !values.includes(value)) values.push(value);
  }
  return values;
}

/** Other Use Case as stored: the given text, or the 'Other: text' item's text, trimmed; '' if none. */
export function toOtherUseCase(input: Pick<QuoteRequestInput, 'useCases' | 'otherUseCase'>): string {
  const given = input.otherUseCase?.trim();
  if (given) return given;
  const item = input.useCases.find((useCase) => isOtherItem(useCase) && otherText(useCase));
  return item ? otherText(item) : '';
}

function optionalText(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/** When and whether a write creates the record: Created At is only sent on creation. */
export interface WriteMoment {
  now: Date;
  isCreate: boolean;
}

/**
 * 'School Quotes' cells for a create or an update. Status goes back to 'New' on every write;
 * Other Use Case follows Use Cases, so an update without one clears the old text.
 */
export function toQuoteRecordFields(
  input: QuoteRequestInput,
  { now, isCreate }: WriteMoment,
): QuoteRecordFields {
  const timestamp = now.toISOString();
  const fields: QuoteRecordFields = {
    Email: normaliseEmail(input.email),
    'Contact Name': input.contactName.trim(),
    'School Name': input.schoolName.trim(),
    'Use Cases': toUseCaseValues(input.useCases),
    'Last Updated': timestamp,
    Status: QUOTE_STATUS_NEW,
  };
  const role = optionalText(input.role);
  if (role) fields.Role = role;
  const other = toOtherUseCase(input);
  // Airtable clears a text cell given '' — only needed when a previous value may exist.
  if (other || !isCreate) fields['Other Use Case'] = other;
  if (isCreate) fields['Created At'] = timestamp;
  return fields;
}

/**
 * 'Waitlist' cells for a create or an update. Interests default to 'General Interest'; optional
 * cells are only sent when given, so a later sign-up from another page keeps earlier details.
 */
export function toWaitlistRecordFields(
  input: WaitlistEntryInput,
  { now, isCreate }: WriteMoment,
): WaitlistRecordFields {
  const timestamp = now.toISOString();
  const interests = [...new Set((input.interests ?? []).map((interest) => interest.trim()).filter(Boolean))];
  const fields: WaitlistRecordFields = {
    Email: normaliseEmail(input.email),
    Interests: interests.length > 0 ? interests : [DEFAULT_INTEREST_STORED],
    'Last Updated': timestamp,
  };
  const schoolName = optionalText(input.schoolName);
  if (schoolName) fields['School Name'] = schoolName;
  const contactName = optionalText(input.contactName);
  if (contactName) fields['Contact Name'] = contactName;
  const pageSource = optionalText(input.pageSource);
  if (pageSource) fields['Page Source'] = pageSource;
  if (isCreate) fields['Created At'] = timestamp;
  return fields;
}
