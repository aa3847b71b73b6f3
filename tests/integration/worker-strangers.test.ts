// @vitest-environment node
/**
 * What a stranger can make the site do with someone else's address, and what a hang upstream
 * costs, on the Worker in its real runtime (workerd through `wrangler dev`, the emulator behind
 * it): issue 40's rows, each as a visitor or an attacker with curl would try it.
 */
import { describe, expect, it } from 'vitest';
import { EMAIL_COPY, MESSAGES, WAITLIST_CONSENT_STATEMENT } from '#src/config/messages.ts';
import { FORMS } from '#src/lib/forms/forms.ts';
import { signedUrl } from '#src/server/mail/emails.ts';
import { AIRTABLE_LIMITS, MAIL_WAIT, TEAM_EMAIL, useWorker, workerMailView } from './support/worker.ts';

const WAIT = MAIL_WAIT;
const stamp = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
/** This suite's LINK_SECRET, so a test can sign the links of emails sent long ago. */
const SECRET = 'strangers-suite-link-secret-'.padEnd(48, 'x');

describe('strangers and hangs on the Worker under workerd', () => {
  const running = useWorker({
    emulator: AIRTABLE_LIMITS,
    vars: { SCHOOLS_TEAM_EMAIL: TEAM_EMAIL, LINK_SECRET: SECRET },
  });
  const { post, records, emailsTo, linkIn, press } = workerMailView(running, '198.51.100');
  const teamEmailsAbout = async (contact: string) => {
    const found = [];
    for (const email of emailsTo(TEAM_EMAIL)) if ((await email.text()).includes(contact)) found.push(email);
    return found;
  };
  const quote = (email: string, school: string, contactName: string) =>
    post(`${running().worker.url}${FORMS.quote.path}`, {
      email,
      contactName,
      schoolName: school,
      role: 'Head',
      useCases: ['support-learners'],
    });

  it("a stranger's quote for a school's address, then the school's own a second later: the team hears of both, with each one's words", async () => {
    const email = `head.${stamp()}@school.sch.uk`;
    expect((await quote(email, 'Stranger Academy', 'Mallory')).status).toBe(200);
    await expect.poll(() => records('School Quotes', email).length, WAIT).toBe(1);
    expect((await quote(email, 'Hill Primary', 'Ada Head')).status).toBe(200);
    await expect.poll(async () => (await teamEmailsAbout(email)).length, WAIT).toBe(2);
    const [first, second] = await teamEmailsAbout(email);
    expect(first?.subject).toBe(EMAIL_COPY.schoolsTeam.new.subject('Stranger Academy'));
    expect(second?.subject).toBe(EMAIL_COPY.schoolsTeam.held.subject('Hill Primary'));
    expect(await second!.text()).toContain('Ada Head');
    // The stored request is unchanged until its contact confirms; one record.
    expect(records('School Quotes', email)).toHaveLength(1);
    expect(records('School Quotes', email)[0]?.fields['School Name']).toBe('Stranger Academy');
  }, 90_000);

  it("a stranger's sign-up for a parent's address, then the parent's own: the parent's choices are stored, and the one confirmation confirms them", async () => {
    const email = `parent.${stamp()}@example.com`;
    const url = `${running().worker.url}${FORMS.waitlist.path}`;
    expect((await post(url, { email, interests: ['invest'] })).status).toBe(200);
    await expect.poll(() => records('Waitlist', email)[0]?.fields.Consent, WAIT).toBe('Pending');
    expect((await post(url, { email, interests: ['use'] })).status).toBe(200);
    await expect
      .poll(() => records('Waitlist', email)[0]?.fields.Interests, WAIT)
      .toEqual([FORMS.waitlist.fields.interests.options.find((o) => o.id === 'use')?.stored]);
    const confirm = await linkIn(email, EMAIL_COPY.confirm.subject, '/api/email/confirm');
    expect((await press(confirm)).status).toBe(200);
    expect(records('Waitlist', email)).toHaveLength(1);
    expect(records('Waitlist', email)[0]?.fields.Consent).toBe('Confirmed');
    // Within the limits: one email for the two sign-ups.
    expect(emailsTo(email)).toHaveLength(1);
  }, 90_000);

  it('an address that withdrew hears nothing a stranger causes, and joins again only from its own email', async () => {
    const email = `leaver.${stamp()}@school.sch.uk`;
    const url = `${running().worker.url}${FORMS.waitlist.path}`;
    await post(url, { email, interests: ['use'] });
    const unsubscribe = await linkIn(email, EMAIL_COPY.confirm.subject, '/api/email/unsubscribe');
    const withdrawn = await press(unsubscribe);
    expect(withdrawn.status).toBe(200);
    expect(await withdrawn.text()).toContain(EMAIL_COPY.linkPages.rejoinAction);
    expect(records('Waitlist', email)[0]?.fields.Consent).toBe('Withdrawn');

    // A stranger's sign-up and quote for it: answered as any other, stored or held, and silent.
    expect((await post(url, { email, interests: ['partner'] })).status).toBe(200);
    expect((await quote(email, 'Prank School', 'Mallory')).status).toBe(200);
    await expect.poll(() => records('School Quotes', email).length, WAIT).toBe(1);
    await expect.poll(async () => (await teamEmailsAbout(email)).length, WAIT).toBe(1);
    expect(emailsTo(email)).toHaveLength(1); // the confirmation, before it withdrew
    expect(records('Waitlist', email)[0]?.fields.Consent).toBe('Withdrawn');

    // Its own email's 'join again' asks for a confirmation, but one went within 10 minutes: none now.
    const back = await press(unsubscribe, { rejoin: '1' });
    expect(back.status).toBe(200);
    expect(await back.text()).toContain(EMAIL_COPY.linkPages.rejoinLimitedTitle);
    expect(records('Waitlist', email)[0]?.fields.Consent).toBe('Withdrawn');
    expect(emailsTo(email)).toHaveLength(1);
  }, 90_000);

  it('join again from an old email sends a fresh confirmation and stays Withdrawn until it is pressed; older, replayed and quote links never join', async () => {
    const { emulator, worker } = running();
    const email = `rejoiner.${stamp()}@example.com`;
    const long = '2025-01-06T09:00:00.000Z';
    emulator.seed('Waitlist', {
      Email: email,
      Interests: ['Use Podling'],
      Consent: 'Confirmed',
      'Confirmed At': long,
      'Created At': long,
      'Last Updated': long,
    });
    const consent = () => records('Waitlist', email).map((record) => record.fields.Consent);
    // The links of an email sent before the withdrawal (forwarded, say): nothing has mailed it since.
    const mail = {
      from: { email: 'hello@podling.app' },
      siteUrl: worker.url,
      now: new Date(),
      linkSecret: SECRET,
    };
    const oldConfirm = await signedUrl(mail, { purpose: 'confirm', form: 'waitlist', email });
    const unsubscribe = await signedUrl(mail, { purpose: 'unsubscribe', form: 'waitlist', email });
    expect((await press(unsubscribe)).status).toBe(200);
    expect(consent()).toEqual(['Withdrawn']);

    const asked = await press(unsubscribe, { rejoin: '1' });
    expect(await asked.text()).toContain(EMAIL_COPY.linkPages.rejoinSentTitle);
    expect(consent()).toEqual(['Withdrawn']);
    const fresh = await linkIn(email, EMAIL_COPY.rejoin.subject, '/api/email/confirm');
    expect(emailsTo(email)).toHaveLength(1);
    expect(consent()).toEqual(['Withdrawn']);
    // Asked again at once: the inbox's limit holds; nothing sent, nothing changed.
    expect(await (await press(unsubscribe, { rejoin: '1' })).text()).toContain(
      EMAIL_COPY.linkPages.rejoinLimitedTitle,
    );
    // A confirmation from before the withdrawal still does nothing.
    expect((await press(oldConfirm)).status).toBe(410);
    expect(consent()).toEqual(['Withdrawn']);

    const back = await press(fresh);
    expect(await back.text()).toContain(EMAIL_COPY.linkPages.rejoinedTitle);
    expect(records('Waitlist', email)[0]?.fields).toMatchObject({
      Consent: 'Confirmed',
      'Consent Text': WAITLIST_CONSENT_STATEMENT,
    });
    // Withdrawn again: the rejoin link (still within its 7 days) cannot undo that.
    expect((await press(unsubscribe)).status).toBe(200);
    expect((await press(fresh)).status).toBe(410);
    expect(consent()).toEqual(['Withdrawn']);
    expect(emailsTo(email)).toHaveLength(1);

    // A quote acknowledgement's token withdraws the address, and never joins it to the waitlist.
    const contact = `quote-only.${stamp()}@school.sch.uk`;
    const quoteUnsubscribe = await signedUrl(mail, { purpose: 'unsubscribe', form: 'quote', email: contact });
    const withdrawn = await press(quoteUnsubscribe);
    expect(withdrawn.status).toBe(200);
    expect(await withdrawn.text()).not.toContain(EMAIL_COPY.linkPages.rejoinAction);
    expect((await press(quoteUnsubscribe, { rejoin: '1' })).status).toBe(400);
    expect(records('Waitlist', contact).map((record) => record.fields.Consent)).toEqual(['Withdrawn']);
    expect(emailsTo(contact)).toEqual([]);
  }, 90_000);

  it('an address that reads as an RFC 2047 encoded-word is refused at the form, so none reaches To or Reply-To', async () => {
    const email = `=?utf-8?b?U2Nob29sIEJvYXJk?=.${stamp()}@example.com`;
    const answer = await post(`${running().worker.url}${FORMS.waitlist.path}`, { email });
    expect(answer.status).toBe(422);
    expect(await answer.json()).toMatchObject({ success: false, error: { message: MESSAGES.invalidEmail } });
  });

  it('a press while Airtable hangs costs that visitor a “try again” page; the next press is served at once', async () => {
    const { emulator, worker } = running();
    const stuck = `stuck.${stamp()}@example.com`;
    const next = `next.${stamp()}@example.com`;
    await post(`${worker.url}${FORMS.waitlist.path}`, { email: stuck });
    await post(`${worker.url}${FORMS.waitlist.path}`, { email: next });
    const stuckLink = await linkIn(stuck, EMAIL_COPY.confirm.subject, '/api/email/confirm');
    const nextLink = await linkIn(next, EMAIL_COPY.confirm.subject, '/api/email/confirm');

    emulator.addFaults({ kind: 'hang', match: stuck });
    const hung = press(stuckLink);
    // Served while the first press still waits for its hung request.
    const served = await press(nextLink);
    expect(served.status).toBe(200);
    expect(records('Waitlist', next)[0]?.fields.Consent).toBe('Confirmed');
    const late = await hung;
    expect(late.status).toBe(503);
    expect(await late.text()).toContain(EMAIL_COPY.linkPages.unavailableTitle);
    expect(records('Waitlist', stuck)[0]?.fields.Consent).toBe('Pending');
  }, 90_000);
});
