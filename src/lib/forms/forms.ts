/** Every form of the site, by name: the one list the doors, the templates and the base read. */
import type { FormContract } from './contract.ts';
import { QUOTE_FORM } from './quote.ts';
import { WAITLIST_FORM } from './waitlist.ts';

export const FORMS = { waitlist: WAITLIST_FORM, quote: QUOTE_FORM } as const;

/** Which form: 'waitlist' | 'quote'. */
export type FormName = keyof typeof FORMS;
/** Which table: 'Waitlist' | 'School Quotes'. */
export type TableName = (typeof FORMS)[FormName]['table'];

export const FORM_LIST: readonly (FormContract & { name: FormName; table: TableName })[] =
  Object.values(FORMS);

/** The form whose records live in `table`, or undefined. */
export function formOfTable(
  table: string,
): (FormContract & { name: FormName; table: TableName }) | undefined {
  return FORM_LIST.find((form) => form.table === table);
}

export function isFormTable(table: string): table is TableName {
  return formOfTable(table) !== undefined;
}

/** The form whose door is at `pathname` (a trailing slash allowed), or undefined. */
export function formAtPath(
  pathname: string,
): (FormContract & { name: FormName; table: TableName }) | undefined {
  const trimmed = pathname.replace(/\/+$/, '');
  return FORM_LIST.find((form) => form.path === trimmed);
}
