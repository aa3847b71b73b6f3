import { EMAIL_COPY } from '#src/config/messages.ts';
import { FORM_HONEYPOT, type FormConduct, type FormContract } from '#src/lib/forms/contract.ts';
import { WAITLIST_FORM } from '#src/lib/forms/forms.ts';
import { addTestForm } from './support/test-form.ts';
import type { MailContext } from '#src/server/mail/emails.ts';
import { inboxKey, memoryMailLedger } from '#src/server/mail/ledger.ts';
import type { MailJob } from '#src/server/mail/message.ts';
import { emailsFor, queueOutcomeMail, type WriteOutcome } from '#src/server/mail/plan.ts';
import { parseMailSettings } from '#src/server/settings.ts';

const NOW = new Date('2026-09-01T10:00:00Z');
const context: MailContext = {
  from: { email: 'hello@podling.app', name: 'Podling' },
  siteUrl: 'https://www.podling.app',
  now: NOW,
  linkSecret: 'l'.repeat(40),
};
const TEAM = 'schools@podling.app';
/** Each team's address by its setting: the schools team's, and the test's own form's team. */
const TEAMS = { SCHOOLS_TEAM_EMAIL: TEAM, PARTNERS_TEAM_EMAIL: 'partners@podling.app' };

const outcome = (patch: Partial<WriteOutcome>): WriteOutcome => ({
  form: 'waitlist',
  email: 'parent@example.com',
  outcome: 'created',
  values: { email: 'parent@example.com' },
  key: 'msg-1',
  ...patch,
});

/** Queueing `written`'s emails, step by step: each mail limit it counts against (a ledger key), each email queued. */
async function queued(written: WriteOutcome): Promise<string[]> {
  const steps: string[] = [];
  const ledger = memoryMailLedger();
  const mail = {
    settings: parseMailSettings({ LINK_SECRET: context.linkSecret, ...TEAMS }),
    ledger: {
      ...ledger,
      reserve: (...reserved: Parameters<typeof ledger.reserve>) => {
        steps.push(`counts against ${reserved[0]}`);
        return ledger.reserve(...reserved);
      },
    },
    enqueue: async (job: MailJob) => void steps.push(`to ${job.message.to}`),
    deadLetter: undefined,
  };
  await queueOutcomeMail(mail, written, context.siteUrl, { now: () => NOW.getTime() });
  return steps;
}

/** A quote from a school's contact. */
const quoteOutcome = (patch: Partial<WriteOutcome>): WriteOutcome =>
  outcome({
    form: 'quote',
    email: 'head@school.sch.uk',
    values: { 'School Name': 'St Anne’s' },
    ...patch,
  });

describe('the emails a write causes', () => {
  it('a new waitlist address: the confirmation only', async () => {
    const emails = await emailsFor(outcome({}), context, TEAMS);
    expect(emails.map(({ message }) => [message.to, message.subject])).toEqual([
      ['parent@example.com', EMAIL_COPY.confirm.subject],
    ]);
    expect(await queued(outcome({}))).toEqual(['counts against parent@example.com', 'to parent@example.com']);
  });

  it('a sign-up for an address already stored: one change email to the address on record, nothing else', async () => {
    const emails = await emailsFor(outcome({ outcome: 'held' }), context, TEAMS);
    expect(emails.map(({ message }) => message.subject)).toEqual([EMAIL_COPY.change.subject]);
  });

  it('a quote for a contact on record: the team hears of it at once (counted per contact), and the contact is asked to confirm', async () => {
    const emails = await emailsFor(quoteOutcome({ outcome: 'held' }), context, TEAMS);
    expect(emails.map(({ message }) => [message.to, message.subject])).toEqual([
      ['schools@podling.app', EMAIL_COPY.schoolsTeam.held.subject('St Anne’s')],
      ['head@school.sch.uk', EMAIL_COPY.change.subject],
    ]);
    // The team's notice counts against its contact (and the team's hourly ceiling), the change email its inbox.
    expect(await queued(quoteOutcome({ outcome: 'held' }))).toEqual([
      'counts against team:head@school.sch.uk',
      'counts against team-inbox',
      'to schools@podling.app',
      'counts against head@school.sch.uk',
      'to head@school.sch.uk',
    ]);
  });

  it('an address that withdrew hears nothing a stranger can cause; the team still hears of its quote', async () => {
    expect(await emailsFor(outcome({ contactWithdrawn: true }), context, TEAMS)).toEqual([]);
    for (const written of ['created', 'held'] as const) {
      const emails = await emailsFor(
        quoteOutcome({ outcome: written, contactWithdrawn: true }),
        context,
        TEAMS,
      );
      expect(emails.map(({ message }) => message.to)).toEqual(['schools@podling.app']);
    }
  });

  it('a new quote: the team’s notification (not limited, replies to the contact) and the contact’s acknowledgement', async () => {
    const emails = await emailsFor(quoteOutcome({}), context, TEAMS);
    expect(emails.map(({ message }) => [message.to, message.replyTo])).toEqual([
      ['schools@podling.app', 'head@school.sch.uk'],
      ['head@school.sch.uk', undefined],
    ]);
    // Not limited as an inbox: the team's notice counts against its contact, the acknowledgement its inbox.
    expect(await queued(quoteOutcome({}))).toEqual([
      'counts against team:head@school.sch.uk',
      'counts against team-inbox',
      'to schools@podling.app',
      'counts against head@school.sch.uk',
      'to head@school.sch.uk',
    ]);
  });

  it('a quote change its contact confirmed: the team only, told it is an update (the contact has just seen the page)', async () => {
    const emails = await emailsFor(quoteOutcome({ outcome: 'confirmed-change' }), context, TEAMS);
    expect(emails.map(({ message }) => [message.to, message.replyTo, message.subject])).toEqual([
      [
        'schools@podling.app',
        'head@school.sch.uk',
        EMAIL_COPY.schoolsTeam['confirmed-change'].subject('St Anne’s'),
      ],
    ]);
    expect(await queued(quoteOutcome({ outcome: 'confirmed-change' }))).toEqual([
      'counts against team:head@school.sch.uk',
      'counts against team-inbox',
      'to schools@podling.app',
    ]);
    // A waitlist change its owner confirmed tells nobody.
    expect(await emailsFor(outcome({ outcome: 'confirmed-change' }), context, TEAMS)).toEqual([]);
  });

  it('a rejoin confirmation counts against its inbox', async () => {
    const withdrawnAt = '2026-02-09T10:00:00.000Z';
    const rejoin = outcome({ email: 'P@example.com', outcome: 'rejoin', values: {}, withdrawnAt });
    expect(await queued(rejoin)).toEqual([`counts against ${inboxKey('P@example.com')}`, 'to P@example.com']);
  });
});

/** A throwaway form with one field, the email, and the given conduct, registered for this file. */
function throwawayForm(name: string, conduct: FormConduct) {
  const form: FormContract = {
    name,
    table: `Throwaway ${name}`,
    path: `/api/forms/${name}`,
    page: `/${name}`,
    honeypot: FORM_HONEYPOT,
    words: {
      answerTitle: name,
      logName: name,
      failed: `Failed to send ${name}.`,
      thanks: [`Thanks, ${name}.`],
      nextStep: null,
    },
    fields: {
      email: WAITLIST_FORM.fields.email,
    },
    conduct,
  };
  addTestForm(form);
  return form;
}

describe('the emails follow the contract’s conduct, whatever the form’s name', () => {
  const acknowledged = throwawayForm('announcements', {
    acknowledgement: { copy: 'quoteAcknowledgement', url: 'https://example.org/next' },
  });
  const told = throwawayForm('partners-only-team', {
    tellsTeam: {
      subjectField: 'email',
      addressSetting: 'PARTNERS_TEAM_EMAIL',
      defaultAddress: 'partners@podling.app',
      copy: 'schoolsTeam',
    },
  });
  const visitor = { email: 'ana@example.org', values: { email: 'ana@example.org' }, key: 'k' };
  const sent = async (written: Partial<WriteOutcome> & Pick<WriteOutcome, 'form'>) =>
    (await emailsFor({ ...visitor, outcome: 'created', ...written }, context, TEAMS)).map(({ message }) => [
      message.to,
      message.subject,
    ]);

  it('only an acknowledgement: its copy and its button on a new record; a held one gets the change email', async () => {
    const [email, ...more] = await emailsFor(
      { ...visitor, form: acknowledged.name, outcome: 'created' },
      context,
      TEAMS,
    );
    expect(more).toEqual([]);
    expect(email?.message.subject).toBe(EMAIL_COPY.quoteAcknowledgement.subject);
    expect(email?.message.text).toContain(
      `${EMAIL_COPY.quoteAcknowledgement.action}:\nhttps://example.org/next\n`,
    );
    expect(await queued({ ...visitor, form: acknowledged.name, outcome: 'created' })).toEqual([
      'counts against ana@example.org',
      'to ana@example.org',
    ]);
    expect(await sent({ form: acknowledged.name, outcome: 'held' })).toEqual([
      ['ana@example.org', EMAIL_COPY.change.subject],
    ]);
    expect(await sent({ form: acknowledged.name, outcome: 'confirmed-change' })).toEqual([]);
  });

  it('only tellsTeam: its own team’s notices, at its own address (its subject its subject field’s value), and nothing to the visitor but a held change’s email', async () => {
    const subject = 'Hill Radio';
    const values = { Email: subject };
    expect(await sent({ form: told.name, values })).toEqual([
      [TEAMS.PARTNERS_TEAM_EMAIL, EMAIL_COPY.schoolsTeam.new.subject(subject)],
    ]);
    expect(await sent({ form: told.name, values, outcome: 'held' })).toEqual([
      [TEAMS.PARTNERS_TEAM_EMAIL, EMAIL_COPY.schoolsTeam.held.subject(subject)],
      ['ana@example.org', EMAIL_COPY.change.subject],
    ]);
    expect(await sent({ form: told.name, values, outcome: 'confirmed-change' })).toEqual([
      [TEAMS.PARTNERS_TEAM_EMAIL, EMAIL_COPY.schoolsTeam['confirmed-change'].subject(subject)],
    ]);
  });
});
