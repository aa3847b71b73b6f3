import { EMAIL_COPY } from '#src/config/messages.ts';
import { FORM_HONEYPOT, type FormConduct, type FormContract } from '#src/lib/forms/contract.ts';
import { WAITLIST_FORM } from '#src/lib/forms/forms.ts';
import { addTestForm } from './support/test-form.ts';
import type { MailContext } from '#src/server/mail/emails.ts';
import { emailsFor, type WriteOutcome } from '#src/server/mail/plan.ts';

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

/** A quote from a school's contact. */
const quoteOutcome = (patch: Partial<WriteOutcome>): WriteOutcome =>
  outcome({
    form: 'quote',
    email: 'head@school.sch.uk',
    subject: 'St Anne’s',
    teamRows: [['School', 'St Anne’s']],
    ...patch,
  });

describe('the emails a write causes', () => {
  it('a new waitlist address: the confirmation only', async () => {
    const emails = await emailsFor(outcome({}), context, TEAMS);
    expect(emails.map(({ message }) => [message.to, message.subject])).toEqual([
      ['parent@example.com', EMAIL_COPY.confirm.subject],
    ]);
    expect(emails[0]?.limitedInbox).toBe('parent@example.com');
  });

  it('a sign-up for an address already stored: one change email to the address on record, nothing else', async () => {
    const emails = await emailsFor(outcome({ outcome: 'held' }), context, TEAMS);
    expect(emails.map(({ message }) => message.subject)).toEqual([EMAIL_COPY.change.subject]);
  });

  it('a quote for a contact on record: the team hears of it at once (counted per contact), and the contact is asked to confirm', async () => {
    const emails = await emailsFor(quoteOutcome({ outcome: 'held' }), context, TEAMS);
    expect(
      emails.map(({ message, limitedInbox, limitedContact }) => [
        message.to,
        message.subject,
        limitedInbox,
        limitedContact,
      ]),
    ).toEqual([
      [
        'schools@podling.app',
        EMAIL_COPY.schoolsTeam.held.subject('St Anne’s'),
        undefined,
        'head@school.sch.uk',
      ],
      ['head@school.sch.uk', EMAIL_COPY.change.subject, 'head@school.sch.uk', undefined],
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
    expect(emails.map(({ message, limitedInbox }) => [message.to, limitedInbox, message.replyTo])).toEqual([
      ['schools@podling.app', undefined, 'head@school.sch.uk'],
      ['head@school.sch.uk', 'head@school.sch.uk', undefined],
    ]);
  });

  it('a quote change its contact confirmed: the team only, told it is an update (the contact has just seen the page)', async () => {
    const emails = await emailsFor(quoteOutcome({ outcome: 'confirmed-change' }), context, TEAMS);
    expect(
      emails.map(({ message, limitedInbox }) => [message.to, limitedInbox, message.replyTo, message.subject]),
    ).toEqual([
      [
        'schools@podling.app',
        undefined,
        'head@school.sch.uk',
        EMAIL_COPY.schoolsTeam['confirmed-change'].subject('St Anne’s'),
      ],
    ]);
    // A waitlist change its owner confirmed tells nobody.
    expect(await emailsFor(outcome({ outcome: 'confirmed-change' }), context, TEAMS)).toEqual([]);
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
    expect(email?.limitedInbox).toBe('ana@example.org');
    expect(await sent({ form: acknowledged.name, outcome: 'held' })).toEqual([
      ['ana@example.org', EMAIL_COPY.change.subject],
    ]);
    expect(await sent({ form: acknowledged.name, outcome: 'confirmed-change' })).toEqual([]);
  });

  it('only tellsTeam: its own team’s notices, at its own address (its subject from the outcome), and nothing to the visitor but a held change’s email', async () => {
    const subject = 'Hill Radio';
    expect(await sent({ form: told.name, subject })).toEqual([
      [TEAMS.PARTNERS_TEAM_EMAIL, EMAIL_COPY.schoolsTeam.new.subject(subject)],
    ]);
    expect(await sent({ form: told.name, subject, outcome: 'held' })).toEqual([
      [TEAMS.PARTNERS_TEAM_EMAIL, EMAIL_COPY.schoolsTeam.held.subject(subject)],
      ['ana@example.org', EMAIL_COPY.change.subject],
    ]);
    expect(await sent({ form: told.name, subject, outcome: 'confirmed-change' })).toEqual([
      [TEAMS.PARTNERS_TEAM_EMAIL, EMAIL_COPY.schoolsTeam['confirmed-change'].subject(subject)],
    ]);
  });
});
