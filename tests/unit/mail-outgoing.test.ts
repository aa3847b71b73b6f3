import { EMAIL_COPY } from '#src/config/messages.ts';
import type { MailContext } from '#src/server/emails.ts';
import { emailsFor, type WriteOutcome } from '#src/server/mail.ts';

const NOW = new Date('2026-09-01T10:00:00Z');
const context: MailContext = {
  from: { email: 'hello@podling.app', name: 'Podling' },
  siteUrl: 'https://www.podling.app',
  now: NOW,
  linkSecret: 'l'.repeat(40),
};
const settings = {
  schoolsTeamEmail: 'schools@podling.app',
  bookingUrl: 'https://calendly.com/podling/15min',
};
const inboxOf = (email: string) => email.toLowerCase();

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
    school: 'St Anne’s',
    teamRows: [['School', 'St Anne’s']],
    ...patch,
  });

describe('the emails a write causes', () => {
  it('a new waitlist address: the confirmation only', async () => {
    const emails = await emailsFor(outcome({}), context, settings, inboxOf);
    expect(emails.map(({ message }) => [message.to, message.subject])).toEqual([
      ['parent@example.com', EMAIL_COPY.confirm.subject],
    ]);
    expect(emails[0]?.limitedInbox).toBe('parent@example.com');
  });

  it('an address already stored (either form): one change email to the address on record, nothing else', async () => {
    for (const form of ['waitlist', 'quote'] as const) {
      const emails = await emailsFor(outcome({ form, outcome: 'held' }), context, settings, inboxOf);
      expect(emails.map(({ message }) => message.subject)).toEqual([EMAIL_COPY.change.subject]);
    }
  });

  it('a new quote: the team’s notification (not limited, replies to the contact) and the contact’s acknowledgement', async () => {
    const emails = await emailsFor(quoteOutcome({}), context, settings, inboxOf);
    expect(emails.map(({ message, limitedInbox }) => [message.to, limitedInbox, message.replyTo])).toEqual([
      ['schools@podling.app', undefined, 'head@school.sch.uk'],
      ['head@school.sch.uk', 'head@school.sch.uk', undefined],
    ]);
  });

  it('a quote change its contact confirmed: the team only, told it is an update (the contact has just seen the page)', async () => {
    const emails = await emailsFor(quoteOutcome({ outcome: 'confirmed-change' }), context, settings, inboxOf);
    expect(
      emails.map(({ message, limitedInbox }) => [message.to, limitedInbox, message.replyTo, message.subject]),
    ).toEqual([
      [
        'schools@podling.app',
        undefined,
        'head@school.sch.uk',
        EMAIL_COPY.schoolsTeam.changedSubject('St Anne’s'),
      ],
    ]);
    // A waitlist change its owner confirmed tells nobody.
    expect(await emailsFor(outcome({ outcome: 'confirmed-change' }), context, settings, inboxOf)).toEqual([]);
  });
});
