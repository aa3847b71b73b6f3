import { EMAIL_COPY } from '#src/config/emails.ts';
import { RELAY_EMULATOR_URL as AIRTABLE, SITE_RELAY_URL } from './support/config.mjs';
import { recordsFor, WAITLIST_TABLE } from './support/emulator.ts';
import { expect, test } from './support/fixtures.ts';
import { WAITLIST_FORM } from './support/forms.ts';
import { emailedLink } from './support/outbox.ts';
import { joinWaitlist, openForm, uniqueEmail } from './support/page.ts';

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
      await expect(
        page.getByRole('heading', { level: 1, name: EMAIL_COPY.linkPages.confirmedTitle }),
      ).toBeVisible();
      expect((await recordsFor(request, WAITLIST_TABLE, email, AIRTABLE))[0]?.fields).toEqual(
        confirmed?.fields,
      );
    });
  });
}
