import { EMAIL_COPY } from '#src/config/messages.ts';
import { QUOTE_FORM as QUOTE_CONTRACT } from '#src/lib/forms/forms.ts';
import { CALENDAR } from '#src/config/site.ts';
import { RELAY_EMULATOR_URL as AIRTABLE, SITE_RELAY_URL } from './support/config.mjs';
import { recordsFor, seedRecord, WAITLIST_TABLE } from './support/emulator.ts';
import { expect, test } from './support/fixtures.ts';
import { QUOTE_FORM, WAITLIST_FORM } from './support/forms.ts';
import { emailed, emailedLink, emailsTo } from './support/outbox.ts';
import { fillQuote, joinWaitlist, openForm, stubCalendarWithNoContent, uniqueEmail } from './support/page.ts';

/** The schools team's address while SCHOOLS_TEAM_EMAIL is unset, as in the local runs. */
const SCHOOLS_TEAM = QUOTE_CONTRACT.conduct.tellsTeam.defaultAddress;

/**
 * Every address proves its owner (relay mode, `vite preview` with its local outbox): sign up,
 * read the email, open its link (nothing changes), press the button (Confirmed), press again
 * (nothing). With JavaScript on and off: the link's page is a plain form.
 */
for (const javaScriptEnabled of [true, false]) {
  test.describe(`JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled });

    test('a sign-up is Pending until its owner presses the emailed link’s button; opening the link changes nothing, pressing again changes nothing', async ({
      page,
      visit,
      request,
    }, testInfo) => {
      const email = uniqueEmail(testInfo, `e2e.consent-js-${javaScriptEnabled ? 'on' : 'off'}`);
      if (javaScriptEnabled)
        await openForm(page, visit, '/', WAITLIST_FORM.formSelector, { base: SITE_RELAY_URL });
      else await page.goto(`${SITE_RELAY_URL}/`);
      await expect(
        page.getByText('We first send one email to confirm it is you.', { exact: false }),
      ).toBeVisible();
      await joinWaitlist(page, email);
      await expect(page.getByText(WAITLIST_FORM.joinedText).first()).toBeVisible();
      await expect
        .poll(async () => (await recordsFor(request, WAITLIST_TABLE, email, AIRTABLE))[0]?.fields.Consent)
        .toBe('Pending');

      const link = await emailedLink('relay', email, EMAIL_COPY.confirm.subject, 'confirm');
      expect(new URL(link).origin).toBe(SITE_RELAY_URL);
      await page.goto(link);
      await expect(
        page.getByRole('heading', { level: 1, name: EMAIL_COPY.linkPages.confirmTitle }),
      ).toBeVisible();
      expect((await recordsFor(request, WAITLIST_TABLE, email, AIRTABLE))[0]?.fields.Consent).toBe('Pending');

      await page.getByRole('button', { name: EMAIL_COPY.linkPages.confirmButton }).click();
      await expect(
        page.getByRole('heading', { level: 1, name: EMAIL_COPY.linkPages.confirmedTitle }),
      ).toBeVisible();
      const [confirmed] = await recordsFor(request, WAITLIST_TABLE, email, AIRTABLE);
      expect(confirmed?.fields).toMatchObject({ Consent: 'Confirmed', 'Confirmed At': expect.any(String) });

      await page.goBack();
      await page.getByRole('button', { name: EMAIL_COPY.linkPages.confirmButton }).click();
      // The second press says it was already done (issue 41), and changes nothing.
      await expect(
        page.getByRole('heading', { level: 1, name: EMAIL_COPY.linkPages.alreadyConfirmedTitle }),
      ).toBeVisible();
      expect((await recordsFor(request, WAITLIST_TABLE, email, AIRTABLE))[0]?.fields).toEqual(
        confirmed?.fields,
      );
    });
  });
}

test.describe('JavaScript on', () => {
  test('a stranger’s sign-up for a stored address changes nothing; its owner’s change email applies it; one-click unsubscribe withdraws it', async ({
    page,
    visit,
    request,
  }, testInfo) => {
    const email = uniqueEmail(testInfo, 'e2e.consent-change');
    const earlier = await seedRecord(
      request,
      WAITLIST_TABLE,
      {
        Email: email,
        Interests: ['Use Podling'],
        'Page Source': 'home',
        Consent: 'Confirmed',
        'Confirmed At': '2026-01-01T09:00:00.000Z',
        'Created At': '2026-01-01T09:00:00.000Z',
        'Last Updated': '2026-01-01T09:00:00.000Z',
      },
      AIRTABLE,
    );
    await openForm(page, visit, '/', WAITLIST_FORM.formSelector, { base: SITE_RELAY_URL });
    await joinWaitlist(page, email, 'Invest in Podling');
    // The same answer a new address gets.
    await expect(page.getByText(WAITLIST_FORM.joinedText).first()).toBeVisible();

    const change = await emailed('relay', email, EMAIL_COPY.change.subject);
    expect((await recordsFor(request, WAITLIST_TABLE, email, AIRTABLE))[0]?.fields).toEqual(earlier.fields);
    // One email, the change's: no second confirmation for an address already stored.
    expect((await emailsTo('relay', email)).map((message) => message.headers.subject)).toEqual([
      EMAIL_COPY.change.subject,
    ]);

    const link = change.links.find((candidate) => candidate.includes('/api/email/change?')) ?? '';
    await page.goto(link);
    await expect(page.getByText('Invest in Podling')).toBeVisible();
    expect((await recordsFor(request, WAITLIST_TABLE, email, AIRTABLE))[0]?.fields).toEqual(earlier.fields);
    await page.getByRole('button', { name: EMAIL_COPY.linkPages.changeButton }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: EMAIL_COPY.linkPages.changedTitle }),
    ).toBeVisible();
    const [changed] = await recordsFor(request, WAITLIST_TABLE, email, AIRTABLE);
    expect(changed?.id).toBe(earlier.id);
    expect(changed?.fields).toMatchObject({
      Interests: ['Invest in Podling'],
      Consent: 'Confirmed',
      // A change to a confirmed sign-up keeps when it was first confirmed.
      'Confirmed At': '2026-01-01T09:00:00.000Z',
      'Created At': '2026-01-01T09:00:00.000Z',
    });

    // A mail provider's one-click unsubscribe (RFC 8058): a POST with no Origin and no cookies.
    expect(change.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    const unsubscribe = /^<(https?:[^>]+)>$/.exec(change.headers['list-unsubscribe'] ?? '')?.[1] ?? '';
    expect(new URL(unsubscribe).origin).toBe(SITE_RELAY_URL);
    const response = await request.post(unsubscribe, { form: { 'List-Unsubscribe': 'One-Click' } });
    expect(response.status()).toBe(200);
    const [withdrawn] = await recordsFor(request, WAITLIST_TABLE, email, AIRTABLE);
    expect(withdrawn?.id).toBe(earlier.id);
    expect(withdrawn?.fields.Consent).toBe('Withdrawn');
  });

  test('a new quote tells the schools team every field with Reply-To the contact, acknowledges the contact without echoing what they typed, and its unsubscribe page withdraws the address', async ({
    page,
    visit,
    request,
    network,
  }, testInfo) => {
    await stubCalendarWithNoContent(page, network);
    const email = uniqueEmail(testInfo, 'e2e.consent-quote', 'school.sch.uk');
    const entry = {
      name: 'Aoife <b>Byrne</b>',
      email,
      school: `Riverside Primary ${email.split('@')[0]}`,
      role: 'Head of English',
      useCases: ['Support Learners'],
      other: 'A radio club & <i>more</i>',
    };
    await openForm(page, visit, '/schools', QUOTE_FORM.formSelector, { base: SITE_RELAY_URL });
    await fillQuote(page, entry);
    await page.getByRole('button', { name: QUOTE_FORM.submitText }).click();
    await expect(page.getByRole('heading', { name: QUOTE_FORM.thankYouTitle })).toBeVisible();

    const team = await emailed('relay', SCHOOLS_TEAM, EMAIL_COPY.schoolsTeam.new.subject(entry.school));
    expect(team.headers['reply-to']).toContain(email);
    for (const value of [entry.name, entry.school, entry.role, 'Support Learners', entry.other, email]) {
      expect(team.text).toContain(value);
    }
    // Typed markup is text in the HTML part, never markup.
    expect(team.html).toContain('Aoife &lt;b&gt;Byrne&lt;/b&gt;');
    expect(team.html).not.toContain('<b>Byrne</b>');

    const acknowledgement = await emailed('relay', email, EMAIL_COPY.quoteAcknowledgement.subject);
    for (const typed of ['Aoife', 'Riverside', entry.role, 'radio club']) {
      expect(acknowledgement.text).not.toContain(typed);
      expect(acknowledgement.html).not.toContain(typed);
    }
    expect(acknowledgement.links).toContain(CALENDAR.bookingUrl);

    const unsubscribe = acknowledgement.links.find((link) => link.includes('/api/email/unsubscribe?')) ?? '';
    await page.goto(unsubscribe);
    await expect(
      page.getByRole('heading', { level: 1, name: EMAIL_COPY.linkPages.unsubscribeTitle }),
    ).toBeVisible();
    expect(await recordsFor(request, WAITLIST_TABLE, email, AIRTABLE)).toEqual([]);
    await page.getByRole('button', { name: EMAIL_COPY.linkPages.unsubscribeButton }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: EMAIL_COPY.linkPages.unsubscribedTitle }),
    ).toBeVisible();
    // The waitlist table is the suppression list for every email the site sends.
    expect((await recordsFor(request, WAITLIST_TABLE, email, AIRTABLE))[0]?.fields.Consent).toBe('Withdrawn');
  });
});
