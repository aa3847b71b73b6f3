/**
 * Consent on the server's one write path (relay and queued modes; docs/consent.md): a new address
 * is stored Pending with the statement its visitor saw; an address already stored is never
 * written over on a visitor's word: the submission is held and its owner gets one email whose
 * signed link carries the new values. Pressing a link's button applies it here.
 */
import { WAITLIST_CONSENT_STATEMENT } from '#src/config/emails.ts';
import type { FormContract } from '#src/lib/forms/contract.ts';
import { FORMS } from '#src/lib/forms/forms.ts';
import { type ConsentState, EMAIL_KEY_FIELD } from '#src/lib/forms/shared.ts';
import { normaliseEmail } from '#src/lib/airtable/fields.ts';
import { type AirtableClient, emailsLookupFormula, type StoredRecord } from './airtable-client.ts';
import type { ConsentRecords } from './mail/email-links.ts';
import type { WriteOutcome } from './mail/outgoing.ts';
import type { LinkForm, LinkValues } from './mail/signed-link.ts';
import { formOf } from '#src/lib/forms/submission.ts';
import { type Cells, cellsForCreate, cellsForUpdate, type Submission } from './submission.ts';
import { SUBMISSION_UPSERT, type UpsertHow } from './upsert-by-email.ts';

const WAITLIST = FORMS.waitlist;
const CONSENT = WAITLIST.fields.consent.airtable;
const CONSENT_TEXT = WAITLIST.fields.consentText.airtable;
const CONFIRMED_AT = WAITLIST.fields.confirmedAt.airtable;
const LAST_UPDATED = WAITLIST.fields.lastUpdated.airtable;
const EMAIL = WAITLIST.fields.email.airtable;
const EMAIL_KEY = EMAIL_KEY_FIELD.airtable;

const isWaitlist = (table: string) => table === WAITLIST.table;

/** The consent cells of a sign-up's new record: Pending, with the words its visitor saw. */
export function consentOnCreate(submission: Pick<Submission, 'table'>): Cells {
  return isWaitlist(submission.table)
    ? { [CONSENT]: 'Pending', [CONSENT_TEXT]: WAITLIST_CONSENT_STATEMENT }
    : {};
}

/** The write path with consent: a new address is created (Pending), a stored one held. */
export const CONSENTED_UPSERT: UpsertHow<Submission> = {
  emailOf: SUBMISSION_UPSERT.emailOf,
  merge: SUBMISSION_UPSERT.merge,
  cells: (submission, at) => ({
    create: { ...cellsForCreate(submission, at), ...consentOnCreate(submission) },
    update: null,
  }),
};

/** A submission's values as a held change carries them (its cells, by Airtable field name). */
export function heldValues(submission: Submission): LinkValues {
  return submission.cells;
}

/** The schools team's rows for a quote: every cell the contact sent, in the contract's order. */
export function teamRows(submission: Submission): [string, string][] {
  const form = formOf(submission);
  return Object.values(form.fields)
    .map((field) => field.airtable)
    .filter((name) => name in submission.cells)
    .map((name) => {
      const value = submission.cells[name] ?? '';
      return [name, typeof value === 'string' ? value : value.join(', ')];
    });
}

/** What the mail needs to know about a write: see outgoing.ts. */
export function writeOutcome(
  submission: Submission,
  outcome: 'created' | 'updated' | 'held',
  key: string,
): WriteOutcome | null {
  if (outcome === 'updated') return null;
  const quote = FORMS.quote.fields;
  const school = submission.cells[quote.schoolName.airtable];
  return {
    form: formOf(submission).name,
    email: submission.email,
    outcome,
    values: heldValues(submission),
    key,
    ...(isWaitlist(submission.table)
      ? {}
      : { teamRows: teamRows(submission), school: typeof school === 'string' ? school : '' }),
  };
}

/**
 * A quote change its contact confirmed (by the change email's button), as the mail sees it: the
 * schools team is told, as of a new request, since its Status is back to 'New'.
 */
export function confirmedQuoteChange(email: string, values: LinkValues, at: Date): WriteOutcome {
  const submission = submissionOf('quote', email, values, at);
  const school = submission.cells[FORMS.quote.fields.schoolName.airtable];
  return {
    form: 'quote',
    email,
    outcome: 'confirmed-change',
    values,
    key: `confirmed-change:${at.toISOString()}`,
    teamRows: teamRows(submission),
    school: typeof school === 'string' ? school : '',
  };
}

/** A held change's values as a submission again, to apply them by the form's rules. */
function submissionOf(form: LinkForm, email: string, values: LinkValues, at: Date): Submission {
  const contract: FormContract = FORMS[form];
  const cells: Cells = Object.fromEntries(
    Object.entries(values).map(([name, value]) => [name, typeof value === 'string' ? value : [...value]]),
  );
  const fallback = contract.defaultOnCreate;
  const field = fallback ? contract.fields[fallback.field] : undefined;
  const defaults: Cells =
    fallback && field && !(field.airtable in cells) ? { [field.airtable]: [...fallback.value] } : {};
  return {
    table: FORMS[form].table,
    email,
    cells,
    ...(Object.keys(defaults).length > 0 ? { defaults } : {}),
    acceptedAt: at.toISOString(),
  };
}

const sameCell = (stored: unknown, wanted: string | readonly string[]) =>
  JSON.stringify(Array.isArray(stored) ? [...(stored as unknown[])].sort() : stored) ===
  JSON.stringify(typeof wanted === 'string' ? wanted : [...wanted].sort());

/** The consent records over the server's one Airtable client. */
export function consentRecords(client: AirtableClient): ConsentRecords {
  // Every field of the address's record (the upsert's lookup reads the email only).
  const first = async (table: string, email: string): Promise<StoredRecord | undefined> =>
    (await client.listPage(table, { filterByFormula: emailsLookupFormula([email]), maxRecords: 1 }))
      .records[0];
  return {
    async find(form, email) {
      const record = await first(FORMS[form].table, email);
      if (!record) return null;
      const consent = record.fields[CONSENT];
      return typeof consent === 'string'
        ? { id: record.id, consent: consent as ConsentState }
        : { id: record.id };
    },
    async setConsent(id, consent, at) {
      const stamp = at.toISOString();
      await client.update(WAITLIST.table, [
        {
          id,
          fields: {
            [CONSENT]: consent,
            [LAST_UPDATED]: stamp,
            ...(consent === 'Confirmed' ? { [CONFIRMED_AT]: stamp } : {}),
          },
        },
      ]);
    },
    async createWithdrawn(email, at) {
      const stamp = at.toISOString();
      await client.upsert(
        WAITLIST.table,
        [
          {
            [EMAIL]: email,
            [EMAIL_KEY]: normaliseEmail(email),
            [CONSENT]: 'Withdrawn',
            [WAITLIST.fields.createdAt.airtable]: stamp,
            [LAST_UPDATED]: stamp,
          },
        ],
        EMAIL_KEY,
      );
    },
    async applyValues(form, email, values, at) {
      const submission = submissionOf(form, email, values, at);
      const stored = await first(submission.table, email);
      const confirm: Cells = isWaitlist(submission.table)
        ? {
            [CONSENT]: 'Confirmed',
            [CONSENT_TEXT]: WAITLIST_CONSENT_STATEMENT,
            [CONFIRMED_AT]: at.toISOString(),
          }
        : {};
      if (!stored) {
        await client.upsert(submission.table, [{ ...cellsForCreate(submission, at), ...confirm }], EMAIL_KEY);
        return true;
      }
      const unchanged =
        Object.entries(values).every(([name, value]) => sameCell(stored.fields[name], value)) &&
        (!isWaitlist(submission.table) || stored.fields[CONSENT] === 'Confirmed');
      if (unchanged) return false;
      const confirmedAt = stored.fields[CONFIRMED_AT];
      // A change to a confirmed sign-up keeps when it was first confirmed.
      if (stored.fields[CONSENT] === 'Confirmed' && typeof confirmedAt === 'string')
        confirm[CONFIRMED_AT] = confirmedAt;
      await client.update(submission.table, [
        { id: stored.id, fields: { ...cellsForUpdate(submission, at), ...confirm } },
      ]);
      return true;
    },
  };
}
