/**
 * How a submission becomes a record on the write path (the desk's round writer): two submissions
 * of one email merged as one, the cells of a create and of an update, and, with mail, the consent
 * rules (docs/consent.md): a new address Pending, a stored one held.
 */
import {
  cellsFor,
  clearsOtherText,
  formOf,
  normaliseEmail,
  type Submission,
} from '#src/lib/forms/submission.ts';
import { EMAIL_KEY_FIELD } from '#src/lib/forms/contract.ts';
import type { UpsertHow } from '#src/server/airtable/upsert.ts';
import { consentOf } from '#src/server/privacy/consent.ts';
import type { DeskItem } from './backlog.ts';

/**
 * Two submits in a row as one: later cells over earlier ones (a later select without its 'Other' item
 * loses the earlier 'Other' text), and create-only defaults kept only for fields neither chose (a
 * chosen selection is never undone by a later empty one; a later choice replaces an earlier default).
 */
function mergeLaterSubmission(earlier: Submission, later: Submission): Submission {
  const cells = { ...earlier.cells, ...later.cells };
  const form = formOf(later);
  const text = form.other && form.fields[form.other.textField]?.airtable;
  if (text && clearsOtherText(form, later.cells)) delete cells[text];
  const defaults = Object.fromEntries(
    Object.entries({ ...earlier.defaults, ...later.defaults }).filter(([name]) => !(name in cells)),
  );
  const merged: Submission = { table: later.table, email: later.email, cells, acceptedAt: later.acceptedAt };
  return Object.keys(defaults).length > 0 ? { ...merged, defaults } : merged;
}

/** A submission's cells (cellsFor) with the record's merge key (EMAIL_KEY_FIELD), which every server write carries. */
const keyedCells = (submission: Submission, at: Date, existing: boolean) =>
  Object.assign(cellsFor(submission, { now: at, existing }), {
    [EMAIL_KEY_FIELD.airtable]: normaliseEmail(submission.email),
  });
/** The cells of a record a submission creates, and of one it is written over (for callers that know which). */
export const cellsForCreate = (submission: Submission, at: Date) => keyedCells(submission, at, false);
export const cellsForUpdate = (submission: Submission, at: Date) => keyedCells(submission, at, true);

/** A submission of a round as the desk keeps it: its storage key, what was queued, its tries so far. */
export type RoundItem = Pick<DeskItem, 'key' | 'body' | 'attempts'>;

/** A table's submissions for one email, merged in the order they were accepted, and their items. */
export interface Queued {
  submission: Submission;
  items: readonly RoundItem[];
  /** The site's origin the visitor reached (its emails' links point there). */
  origin?: string;
}

/** A table's submissions merged per normalised email, later over earlier (items joined), in the order each email first came. */
export function mergeByEmail(queued: readonly Queued[]) {
  const byEmail = new Map<string, Queued>();
  for (const { submission, items, origin } of queued) {
    const email = normaliseEmail(submission.email);
    const earlier = byEmail.get(email);
    byEmail.set(email, {
      submission: earlier ? mergeLaterSubmission(earlier.submission, submission) : submission,
      items: [...(earlier?.items ?? []), ...items],
      origin: origin ?? earlier?.origin,
    });
  }
  return [...byEmail].map(([email, item]) => ({ email, item }));
}
/** One email's merged submissions, keyed by it. */
export type ByEmail = ReturnType<typeof mergeByEmail>[number];

/** The spec's defaults on a create only, Created At kept on update. */
export const QUEUED_UPSERT: UpsertHow<Queued> = {
  cells: ({ submission }, at) => ({
    create: cellsForCreate(submission, at),
    update: cellsForUpdate(submission, at),
  }),
};

/**
 * With consent: a new address is created Pending; a stored one is held, except an unconfirmed
 * (Pending) sign-up, which takes the latest values and stays Pending: its address proved nothing, so
 * a stranger's earlier sign-up never keeps the owner's own from being stored (the confirmation email
 * already sent confirms the latest). A form that does not confirm its addresses holds every stored one.
 */
export const CONSENTED_QUEUED_UPSERT: UpsertHow<Queued> = {
  cells: ({ submission }, at, stored) => {
    const fields = consentOf(submission.table);
    if (!fields) return { create: cellsForCreate(submission, at), update: null };
    const statement = { [fields.consentText]: fields.statement };
    return {
      // A sign-up's new record: Pending, with the words its visitor saw.
      create: { ...cellsForCreate(submission, at), [fields.consent]: 'Pending', ...statement },
      update:
        stored?.[fields.consent] === 'Pending' ? { ...cellsForUpdate(submission, at), ...statement } : null,
    };
  },
  lookupFields: (table) => [consentOf(table)].flatMap((fields) => (fields ? [fields.consent] : [])),
};
