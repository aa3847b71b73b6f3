/**
 * The consent records a pressed email link reads and writes (link-actions.ts's ConsentRecords), over the
 * server's one Airtable client: a record's consent, a withdrawal, and a held change applied by the
 * form's own rules (submission.ts).
 */
import { type Cells } from '#src/lib/forms/submission.ts';
import { EMAIL_KEY_FIELD, type ConsentState } from '#src/lib/forms/contract.ts';
import { normaliseEmail } from '#src/lib/airtable/schema.ts';
import { type AirtableClient, emailsLookupFormula, type StoredRecord } from './airtable-client.ts';
import { WAITLIST_CONSENT_STATEMENT } from '#src/config/messages.ts';
import { FORMS } from '#src/lib/forms/forms.ts';
import type { ConsentRecords } from './link-actions.ts';
import { cellsForCreate, cellsForUpdate, submissionOf } from './submission.ts';

const WAITLIST = FORMS.waitlist;
const CONSENT = WAITLIST.fields.consent.airtable;
const CONSENT_TEXT = WAITLIST.fields.consentText.airtable;
const CONFIRMED_AT = WAITLIST.fields.confirmedAt.airtable;
const LAST_UPDATED = WAITLIST.fields.lastUpdated.airtable;
const EMAIL = WAITLIST.fields.email.airtable;
const EMAIL_KEY = EMAIL_KEY_FIELD.airtable;

const isWaitlist = (table: string) => table === WAITLIST.table;

const sameCell = (stored: unknown, wanted: string | readonly string[]) =>
  JSON.stringify(Array.isArray(stored) ? [...(stored as unknown[])].sort() : stored) ===
  JSON.stringify(typeof wanted === 'string' ? wanted : [...wanted].sort());

/** The consent records over the server's one Airtable client. */
export function consentRecords(client: AirtableClient): ConsentRecords {
  // Every field of the address's record (the upsert's lookup reads the email only).
  const first = async (table: string, email: string): Promise<StoredRecord | undefined> =>
    (await client.listPage(table, { filterByFormula: emailsLookupFormula(table, [email]), maxRecords: 1 }))
      .records[0];
  return {
    async find(form, email) {
      const record = await first(FORMS[form].table, email);
      if (!record) return null;
      const { [CONSENT]: consent, [LAST_UPDATED]: changedAt } = record.fields;
      return {
        id: record.id,
        ...(typeof consent === 'string' ? { consent: consent as ConsentState } : {}),
        ...(typeof changedAt === 'string' ? { changedAt } : {}),
      };
    },
    async setConsent(id, consent, at, statement) {
      const stamp = at.toISOString();
      await client.update(WAITLIST.table, [
        {
          id,
          fields: {
            [CONSENT]: consent,
            [LAST_UPDATED]: stamp,
            ...(consent === 'Confirmed' ? { [CONFIRMED_AT]: stamp } : {}),
            ...(statement ? { [CONSENT_TEXT]: statement } : {}),
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
    async applyValues(form, email, values, at, sentAt) {
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
        return 'applied';
      }
      const unchanged =
        Object.entries(values).every(([name, value]) => sameCell(stored.fields[name], value)) &&
        (!isWaitlist(submission.table) || stored.fields[CONSENT] === 'Confirmed');
      if (unchanged) return 'unchanged';
      // Written after this link was sent (to the second): a newer change, or a withdrawal.
      const updated = Date.parse(String(stored.fields[LAST_UPDATED] ?? ''));
      if (Math.floor(updated / 1000) > Math.floor(sentAt.getTime() / 1000)) return 'superseded';
      const confirmedAt = stored.fields[CONFIRMED_AT];
      // A change to a confirmed sign-up keeps when it was first confirmed.
      if (stored.fields[CONSENT] === 'Confirmed' && typeof confirmedAt === 'string')
        confirm[CONFIRMED_AT] = confirmedAt;
      await client.update(submission.table, [
        { id: stored.id, fields: { ...cellsForUpdate(submission, at), ...confirm } },
      ]);
      return 'applied';
    },
  };
}
