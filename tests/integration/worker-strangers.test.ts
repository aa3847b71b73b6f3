// @vitest-environment node
/**
 * What a stranger can make the site do with someone else's address, and what a hang upstream
 * costs, on the Worker in its real runtime (workerd through `wrangler dev`, the emulator behind
 * it): issue 40's rows, each as a visitor or an attacker with curl would try it.
 */
import { describe, expect, it } from 'vitest';
import { EMAIL_COPY, MESSAGES } from '#src/config/messages.ts';
import { FORMS } from '#src/lib/forms/forms.ts';
import { AIRTABLE_LIMITS, MAIL_WAIT, TEAM_EMAIL, useWorker, workerMailView } from './support/worker.ts';

const WAIT = MAIL_WAIT;
const stamp = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

describe('strangers and hangs on the Worker under workerd', () => {
  const running = useWorker({ emulator: AIRTABLE_LIMITS, vars: { SCHOOLS_TEAM_EMAIL: TEAM_EMAIL } });
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

    const back = await press(unsubscribe, { rejoin: '1' });
    expect(back.status).toBe(200);
    expect(await back.text()).toContain(EMAIL_COPY.linkPages.rejoinedTitle);
    expect(records('Waitlist', email)[0]?.fields.Consent).toBe('Confirmed');
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
