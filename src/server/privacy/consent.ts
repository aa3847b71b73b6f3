/**
 * Consent on the server's one write path (relay and queued modes; docs/consent.md): a new address is
 * stored Pending with the statement its visitor saw; one already stored is never written over on a
 * visitor's word: the submission is held, and its owner gets one email whose signed link carries the
 * new values, applied when its button is pressed (privacy/consent-records.ts). Here: which table is the
 * suppression list, its consent fields, whether a stored record withdrew.
 */
import type { Cells } from '#src/lib/forms/submission.ts';
import type { FormContract } from '#src/lib/forms/contract.ts';
import { confirmingForm } from '#src/lib/forms/forms.ts';

/** The consent fields of `table` and the statement its new records carry, if its form confirms addresses. */
export function consentOf(table: string) {
  const form = confirmingForm();
  if (!form?.conduct.confirms || form.table !== table) return undefined;
  const name = (key: string) => {
    const field = form.fields[key];
    if (!field) throw new Error(`The ${form.name} form confirms addresses, so it needs a '${key}' field`);
    return field.airtable;
  };
  return {
    statement: form.conduct.confirms.statement,
    consent: name('consent'),
    consentText: name('consentText'),
    confirmedAt: name('confirmedAt'),
  };
}

/** The Airtable name of a form's server-stamped field: written on creation, or on every write ('' if none). */
export const stampOf = (form: FormContract | undefined, source: 'created' | 'updated') =>
  Object.values(form?.fields ?? {}).find((field) => field.source === source)?.airtable ?? '';

/** Whether a stored record of the confirming form (its lookup fields) is on the suppression list. */
export function isWithdrawn(stored: Cells | undefined): boolean {
  const fields = consentOf(confirmingForm()?.table ?? '');
  return fields !== undefined && stored?.[fields.consent] === 'Withdrawn';
}

/** The suppression list, which every email the site sends checks: the confirming form, its fields, stamps. */
export function suppressionList() {
  const form = confirmingForm();
  const fields = form && consentOf(form.table);
  if (!form || !fields) throw new Error('No form confirms its addresses: there is no suppression list');
  return { form, ...fields, createdAt: stampOf(form, 'created'), lastUpdated: stampOf(form, 'updated') };
}
