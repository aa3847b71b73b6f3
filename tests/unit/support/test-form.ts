import type { FormContract } from '#src/lib/forms/contract.ts';
import { confirmingForm, emailFieldOf, FORM_LIST } from '#src/lib/forms/forms.ts';

/**
 * Adds a unit test's own form to FORM_LIST, for this test file's modules only: the server follows
 * whatever form its contract declares, whatever its name. Not the owner's way to add a form (that
 * is docs/changing.md's, which tests/integration/owner-adds-a-form.test.ts proves). Refused when it
 * has no email field, when its name, table or door is taken, or when it would be a second form
 * that confirms its addresses.
 */
export function addTestForm(form: FormContract): void {
  const clash = FORM_LIST.find(
    (other) => other.name === form.name || other.table === form.table || other.path === form.path,
  );
  if (clash) throw new Error(`The ${form.name} form clashes with the ${clash.name} form`);
  emailFieldOf(form);
  if (form.conduct.confirms && confirmingForm())
    throw new Error(`The ${form.name} form confirms addresses, as the ${confirmingForm()?.name} form does`);
  (FORM_LIST as FormContract[]).push(form);
}
