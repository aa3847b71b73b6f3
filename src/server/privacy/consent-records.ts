/**
 * The records a pressed email link reads and writes (links/actions.ts's ConsentRecords), over the
 * server's one Airtable client. Consent lives in the confirming form's table (the suppression
 * list: consentOf); a held change is applied by its form's own rules (upsert.ts).
 */
import { type Cells, emailLookupFormula, normaliseEmail, withDefaults } from '#src/lib/forms/submission.ts';
import { EMAIL_KEY_FIELD, type ConsentState, type FormContract } from '#src/lib/forms/contract.ts';
import { emailFieldOf, formNamed } from '#src/lib/forms/forms.ts';
import { STORAGE_ANSWER_BOUND_MS } from '#src/config/constants.ts';
import { type AirtableClientOptions, createAirtableClient } from '#src/server/airtable/client.ts';
import { type AirtableEnv, airtableAccess } from '#src/server/settings.ts';
import type { LinkForm, LinkValues } from '#src/server/links/tokens.ts';
import { cellsForCreate, cellsForUpdate } from '#src/server/desk/submission-upsert.ts';
import { consentOf, stampOf, suppressionList } from './consent.ts';

const EMAIL_KEY = EMAIL_KEY_FIELD.airtable;

const sameCell = (stored: unknown, wanted: string | readonly string[]) =>
  JSON.stringify(Array.isArray(stored) ? [...(stored as unknown[])].sort() : stored) ===
  JSON.stringify(typeof wanted === 'string' ? wanted : [...wanted].sort());

/** How a press reaches Airtable: the desk's pacer (a slot lent), and the tests' stand-ins. */
export type PressAccess = Pick<AirtableClientOptions, 'pacer' | 'fetch' | 'now'>;

export function consentRecords(env: AirtableEnv, access: PressAccess) {
  const client = createAirtableClient(airtableAccess(env), {
    ...access,
    // A press waits for Airtable, each request at most half the visitor's bound: when Airtable hangs,
    // that visitor gets the 'try again' page within the spec's answer bound (a press makes two requests
    // at most), and the next press goes as soon as Airtable answers: the pacer spaces starts only.
    requestBoundMs: STORAGE_ANSWER_BOUND_MS / 2,
  });
  // Every field of the address's record (the upsert's lookup reads the email only).
  const first = async (form: FormContract, email: string) => {
    const filterByFormula = emailLookupFormula(email, emailFieldOf(form));
    return (await client.listPage(form.table, { filterByFormula, maxRecords: 1 })).records[0];
  };
  return {
    /** A record's id, its consent if its form has one, and its Last Updated as stored. */
    async find(name: LinkForm, email: string) {
      const form = formNamed(name);
      const record = form && (await first(form, email));
      if (!record) return null;
      const consent = record.fields[consentOf(form.table)?.consent ?? ''];
      const changedAt = record.fields[stampOf(form, 'updated')];
      return {
        id: record.id,
        ...(typeof consent === 'string' ? { consent: consent as ConsentState } : {}),
        ...(typeof changedAt === 'string' ? { changedAt } : {}),
      };
    },
    /** Sets a suppression list record's consent (with `statement`, the words a rejoining address agreed to). */
    async setConsent(id: string, consent: ConsentState, at: Date, statement?: string) {
      const list = suppressionList();
      const stamp = at.toISOString();
      const fields = {
        [list.consent]: consent,
        [list.lastUpdated]: stamp,
        ...(consent === 'Confirmed' ? { [list.confirmedAt]: stamp } : {}),
        ...(statement ? { [list.consentText]: statement } : {}),
      };
      await client.update(list.form.table, [{ id, fields }]);
    },
    /** Stores a suppression entry for an address with no record on the list: Consent Withdrawn. */
    async createWithdrawn(email: string, at: Date) {
      const list = suppressionList();
      const stamp = at.toISOString();
      const record = {
        [emailFieldOf(list.form)]: email,
        [EMAIL_KEY]: normaliseEmail(email),
        [list.consent]: 'Withdrawn',
        [list.createdAt]: stamp,
        [list.lastUpdated]: stamp,
      };
      await client.upsert(list.form.table, [record], EMAIL_KEY);
    },
    /**
     * Applies a held change by its form's rules (creating the record if it is gone). 'unchanged':
     * the record already holds these values, so a second press does nothing; 'superseded': it was
     * written after the link was sent (`sentAt`), so two change links pressed in turn cannot loop.
     */
    async applyValues(form: LinkForm, email: string, values: LinkValues, at: Date, sentAt: Date) {
      const contract = formNamed(form);
      if (!contract) throw new Error(`No form is named '${form}'`);
      const { table } = contract;
      const cells: Cells = Object.fromEntries(
        Object.entries(values).map(([key, value]) => [key, typeof value === 'string' ? value : [...value]]),
      );
      const submission = withDefaults(contract, { table, email, cells, acceptedAt: at.toISOString() });
      const stored = await first(contract, email);
      const fields = consentOf(table);
      const confirmed = !fields || stored?.fields[fields.consent] === 'Confirmed';
      // A change to a confirmed sign-up keeps when it was first confirmed.
      const confirmedAt = fields && confirmed ? stored?.fields[fields.confirmedAt] : undefined;
      const confirm: Cells = fields
        ? {
            [fields.consent]: 'Confirmed',
            [fields.consentText]: fields.statement,
            [fields.confirmedAt]: typeof confirmedAt === 'string' ? confirmedAt : at.toISOString(),
          }
        : {};
      if (!stored) {
        await client.upsert(table, [{ ...cellsForCreate(submission, at), ...confirm }], EMAIL_KEY);
        return 'applied';
      }
      if (Object.entries(values).every(([name, value]) => sameCell(stored.fields[name], value)) && confirmed)
        return 'unchanged';
      // Written after this link was sent (to the second): a newer change, or a withdrawal.
      const updated = Date.parse(String(stored.fields[stampOf(contract, 'updated')] ?? ''));
      if (Math.floor(updated / 1000) > Math.floor(sentAt.getTime() / 1000)) return 'superseded';
      await client.update(table, [
        { id: stored.id, fields: { ...cellsForUpdate(submission, at), ...confirm } },
      ]);
      return 'applied';
    },
  };
}

export type ConsentRecords = ReturnType<typeof consentRecords>;
