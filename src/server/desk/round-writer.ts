/**
 * The writer of one round of submissions: the desk (desk.ts) hands over what it keeps and gets each
 * one's outcome (written, retried after its wait, or a dead letter; retry-rule.ts sets waits and tries).
 * One email and table's submissions are merged (the later wins) and upserted by email (about 300
 * emails a lookup, 10 records a write). A transient failure (429, 5xx, timeout, dropped connection)
 * is retried; a permanent one (a field the base lacks) is tried record by record to dead-letter the
 * culprit, as is a message no form stores. Each retry looks up afresh: a lost answer never makes two
 * records. With mail, consent applies (CONSENTED_QUEUED_UPSERT) and emails go on the mail queue.
 */
import { isSubmission } from '#src/lib/forms/submission.ts';
import { AirtableError, createAirtableClient } from '#src/server/airtable/client.ts';
import { airtableAccess, type AirtableEnv } from '#src/server/settings.ts';
import { confirmingForm, FORM_LIST, formOfTable } from '#src/lib/forms/forms.ts';
import { upsertByEmail, type UpsertResult } from '#src/server/airtable/upsert.ts';
import {
  type ByEmail,
  CONSENTED_QUEUED_UPSERT,
  mergeByEmail,
  type Queued,
  QUEUED_UPSERT,
  type RoundItem,
} from './submission-upsert.ts';
import { isWithdrawn } from '#src/server/privacy/consent.ts';
import { queueOutcomeMail, writeOutcome } from '#src/server/mail/plan.ts';
import type { QueueingMail } from '#src/server/mail/setup.ts';
import type { QueuedSubmission } from '#src/server/queues/messages.ts';
import type { WaitCause } from './retry-rule.ts';

/** Longest any one request may take before it counts as failed (plus a 429's penalty). */
const REQUEST_BOUND_MS = 30_000;

interface WriterOptions extends Pick<Parameters<typeof createAirtableClient>[1], 'pacer' | 'fetch' | 'now'> {
  log?: (message: string) => void;
  mail?: QueueingMail;
}

/** A record written or held (stored already). */
type Stored = Exclude<UpsertResult<Queued>, { outcome: 'failed' }>;

/** What became of one: written (or held, stored already), tried again after its wait (retry-rule.ts), or a dead letter. */
export type RoundOutcome =
  | { readonly kind: 'written' }
  | { readonly kind: 'retry'; readonly cause: WaitCause }
  | { readonly kind: 'dead-letter' };

export function createRoundWriter(
  env: AirtableEnv,
  { log = (message: string) => console.log(message), mail, ...airtable }: WriterOptions,
) {
  const now = airtable.now ?? Date.now;
  const client = createAirtableClient(airtableAccess(env), { ...airtable, requestBoundMs: REQUEST_BOUND_MS });
  const how = mail ? CONSENTED_QUEUED_UPSERT : QUEUED_UPSERT;

  /**
   * A batch's lookups, sent at once (the pacer spaces them): each table's records of its emails and,
   * with mail, the other forms' contacts on the suppression list (the confirming form's table, Consent
   * 'Withdrawn': they hear nothing a stranger's request causes), in that form's own requests while they
   * fit in its formulas. If that lookup fails, every contact counts as withdrawn (the team still hears).
   */
  async function lookUp(groups: ReadonlyMap<string, readonly ByEmail[]>) {
    const emails = new Map([...groups].map(([table, entries]) => [table, entries.map((e) => e.email)]));
    const list = mail ? confirmingForm() : undefined;
    const contacts = list ? [...emails].flatMap(([table, of]) => (table === list.table ? [] : of)) : [];
    if (list && contacts.length > 0)
      emails.set(list.table, [...new Set([...(emails.get(list.table) ?? []), ...contacts])]);
    const settled = await Promise.allSettled(
      // With mail, `how` is the consent rules', whose fields (Consent) the suppression list needs too.
      [...emails].map(([table, of]) => client.findByEmails(table, of, how.lookupFields?.(table))),
    );
    const found = new Map([...emails.keys()].map((table, i) => [table, settled[i]]));
    const suppression = list && contacts.length > 0 ? found.get(list.table) : undefined;
    if (suppression?.status === 'rejected')
      log(
        `Airtable writer: the suppression list could not be read (${String(suppression.reason)}); no email to these contacts`,
      );
    const listed = suppression?.status === 'fulfilled' ? suppression.value : undefined;
    const withdrawn = new Set(contacts.filter((email) => !listed || isWithdrawn(listed.get(email)?.fields)));
    return { found, withdrawn };
  }
  type Lookups = Awaited<ReturnType<typeof lookUp>>;

  /**
   * Writes one round, never throwing: each item's outcome put in `outcomes` as its write answers, its
   * dead letters (one per address's merged items) in `letters`, `brokeOff` set if it broke off unexpectedly.
   */
  async function writeRound(round: readonly RoundItem[], outcomes: Map<string, RoundOutcome>) {
    /**
     * What the round did, for logs and the load test (`stored`: created and updated). `held`: addresses
     * already stored, nothing written; `emailsQueued`, `emailsLimited`: emails queued, held back by limits.
     */
    const report = {
      created: 0,
      updated: 0,
      held: 0,
      retried: 0,
      emailsQueued: 0,
      emailsLimited: 0,
    };
    const letters: { body: unknown; reason: string }[] = [];
    let brokeOff: unknown;
    /** Each item's outcome (the first one given counts). */
    const settle = (items: readonly RoundItem[], outcome: RoundOutcome) => {
      for (const item of items) if (!outcomes.has(item.key)) outcomes.set(item.key, outcome);
    };

    /** One letter for the dead letters (the desk keeps it; with no store bound, it retries them). */
    function deadLetter(items: readonly RoundItem[], body: unknown, reason: string) {
      letters.push({ body, reason });
      settle(items, { kind: 'dead-letter' });
      log(`Airtable writer: ${reason}; sent to dead letters`);
    }

    async function retryOrDeadLetter(table: string, entries: readonly ByEmail[], error: unknown) {
      const airtableError = error instanceof AirtableError ? error : undefined;
      if (!airtableError || airtableError.transient) {
        const waiting = entries.flatMap(({ item }) => item.items);
        settle(waiting, { kind: 'retry', cause: airtableError?.status === 429 ? 'rate-limited' : 'failed' });
        report.retried += waiting.length;
        const why = airtableError ? `${airtableError.status} ${airtableError.type}` : String(error);
        log(`Airtable writer: ${entries.length} records to try again (${why})`);
        return;
      }
      // Permanent: with one record the culprit is known; with more, try each on its own.
      const only = entries[0]?.item;
      if (!only || entries.length > 1) {
        for (const entry of entries) await write(table, [entry], await lookUp(new Map([[table, [entry]]])));
        return;
      }
      const why = `${airtableError.status} ${airtableError.type}: ${airtableError.message}`;
      // The submission as it was queued, so a replayed letter keeps its origin for its emails.
      const letter = only.origin ? { ...only.submission, origin: only.origin } : only.submission;
      deadLetter(only.items, letter, `a ${only.submission.table} submission failed for good (${why})`);
    }

    /** Never throws: the record is stored and acked whatever happens here, so mail never writes it twice. */
    async function queueMail({ item, outcome, stored }: Stored, contactWithdrawn: boolean) {
      const written = mail && writeOutcome(item.submission, outcome, { stored, contactWithdrawn });
      if (!mail || !written) return;
      if (!item.origin) {
        log(`Mailer: a ${item.submission.table} submission came with no site origin; no email for it`);
        return;
      }
      try {
        const { queued, limited } = await queueOutcomeMail(mail, written, item.origin, { now, log });
        report.emailsQueued += queued;
        report.emailsLimited += limited;
      } catch (error) {
        log(
          `Mailer: the emails of a stored ${item.submission.table} submission could not be prepared (${String(error)})`,
        );
      }
    }

    /** Acks what was stored and queues its emails as each write answers; retries or dead-letters the rest. */
    async function write(table: string, entries: readonly ByEmail[], { found, withdrawn }: Lookups) {
      const looked = found.get(table);
      // Without the lookup nothing may be written: a create could double a stored record.
      if (looked?.status !== 'fulfilled') return retryOrDeadLetter(table, entries, looked?.reason);
      const failures = new Map<unknown, ByEmail[]>();
      await upsertByEmail(client, table, entries, how, {
        stored: looked.value,
        // Each write's records acknowledged and their emails queued once it answers, in the order of sign-up.
        onWritten: async (results) => {
          for (const written of results) {
            if (written.outcome === 'failed') {
              failures.set(written.error, [...(failures.get(written.error) ?? []), written]);
              continue;
            }
            settle(written.item.items, { kind: 'written' });
            report[written.outcome] += 1;
            await queueMail(written, withdrawn.has(written.email));
          }
        },
      });
      // One failed request's records together: its error says whether to retry or find the culprit.
      for (const [error, failed] of failures) await retryOrDeadLetter(table, failed, error);
    }

    try {
      const queued: Queued[] = [];
      for (const item of round) {
        const { body } = item;
        if (isSubmission(body) && formOfTable(body.table)) {
          const { origin, ...submission } = body as QueuedSubmission;
          const reached = typeof origin === 'string' && origin ? { origin } : {};
          queued.push({ submission, items: [item], ...reached });
        } else if (isSubmission(body)) {
          const reason = `a submission for table '${body.table}', which no form of this Worker stores`;
          deadLetter([item], body, reason);
        } else deadLetter([item], body, 'a queued message that is not a submission');
      }
      // Oldest first: the order the request check accepted them in, so the later one wins the merge.
      queued.sort((a, b) => a.submission.acceptedAt.localeCompare(b.submission.acceptedAt));
      const groups = new Map(
        FORM_LIST.map(({ table }) => {
          return [table, mergeByEmail(queued.filter((each) => each.submission.table === table))] as const;
        }).filter(([, group]) => group.length > 0),
      );
      // Every lookup of the round at once, then every write: each request goes as soon as the pacer lets it.
      const lookups = await lookUp(groups);
      await Promise.all([...groups].map(([table, group]) => write(table, group, lookups)));
    } catch (error) {
      // Unexpected (every request's failure is an outcome): what had none is tried again shortly.
      brokeOff = error;
      settle(round, { kind: 'retry', cause: 'broke-off' });
    }
    return { report: { ...report, stored: report.created + report.updated }, letters, brokeOff };
  }

  return { writeRound };
}
