/**
 * What the server accepts as one form submission and the cells it writes for it: the one parser
 * and cell builder of src/lib/forms/submission.ts (direct mode runs the same), read from each
 * form's contract. Here: the server's own part, merging two submissions of one email (the queue's
 * writer).
 */
import { clearsOtherText, type Cells, cellsFor, formOf, type Submission } from '#src/lib/forms/submission.ts';
import { EMAIL_KEY_FIELD } from '#src/lib/forms/shared.ts';
import { normaliseEmail } from '#src/lib/airtable/fields.ts';

export {
  type Cells,
  type CellValue,
  cellsFor,
  isRefusal,
  parsePosted,
  type Refusal,
  type Submission,
} from '#src/lib/forms/submission.ts';
export { isFormTable } from '#src/lib/forms/forms.ts';

/**
 * The cells of a later submission over an earlier one (two submits in a row, merged by the queue's
 * writer): later values over earlier ones, and a later select without its 'Other' item loses the
 * earlier 'Other' text with it.
 */
export function mergeCells(submission: Pick<Submission, 'table'>, earlier: Cells, later: Cells): Cells {
  const cells = { ...earlier, ...later };
  const form = formOf(submission);
  const rule = form.other;
  if (rule && clearsOtherText(form, later)) {
    const text = form.fields[rule.textField]?.airtable;
    if (text) delete cells[text];
  }
  return cells;
}

/**
 * A later submission over an earlier one, as one: cells merged (mergeCells), and create-only
 * defaults kept only for the fields neither chose (a chosen selection is never undone by a
 * later empty one, and a later choice replaces an earlier default).
 */
export function mergeLaterSubmission(earlier: Submission, later: Submission): Submission {
  const cells = mergeCells(later, earlier.cells, later.cells);
  const defaults = Object.fromEntries(
    Object.entries({ ...earlier.defaults, ...later.defaults }).filter(([name]) => !(name in cells)),
  );
  const merged: Submission = { table: later.table, email: later.email, cells, acceptedAt: later.acceptedAt };
  return Object.keys(defaults).length > 0 ? { ...merged, defaults } : merged;
}

/** The cells with the record's merge key (EMAIL_KEY_FIELD), which every server write carries. */
const keyed = (submission: Submission, cells: Cells): Cells => ({
  ...cells,
  [EMAIL_KEY_FIELD.airtable]: normaliseEmail(submission.email),
});

/** Cells of the record a submission creates (cellsFor, for callers that know it is new). */
export const cellsForCreate = (submission: Submission, at: Date): Cells =>
  keyed(submission, cellsFor(submission, { now: at, existing: false }));

/** Cells written over an existing record (cellsFor, for callers that know it is stored). */
export const cellsForUpdate = (submission: Submission, at: Date): Cells =>
  keyed(submission, cellsFor(submission, { now: at, existing: true }));
