import type { Page } from '@playwright/test';
import { EMAIL_COPY } from '#src/config/messages.ts';
import { CALENDAR, PRODUCT_NAME } from '#src/config/site.ts';
import { signedUrl } from '#src/server/mail/emails.ts';
import { signLink } from '#src/server/links/tokens.ts';
import { E2E_LINK_SECRET, RELAY_EMULATOR_URL as AIRTABLE, SITE_RELAY_URL } from './support/config.mjs';
import { QUOTES_TABLE, recordsFor, seedRecord, WAITLIST_TABLE } from './support/emulator.ts';
import { expect, expectConsoleErrors, test } from './support/fixtures.ts';
import { QUOTE_FORM, WAITLIST_FORM } from './support/forms.ts';
import { emailedLink } from './support/outbox.ts';
import { checkbox, expectNoAxeViolations, fillQuote, joinWaitlist, uniqueEmail } from './support/page.ts';

/**
 * Every page an email's link opens wears the site (issue 41): the header with the logo link, the
 * footer, the page's title and noindex, no script, nothing the page's policy refuses (a refusal is
 * a console error, which fails the test), no axe violation; and, with JavaScript off, its one
 * button works. Relay mode (`vite preview` of the build, its local outbox); links are signed with
 * the e2e servers' public local secret, as the Worker signs them.
 */

const copy = EMAIL_COPY.linkPages;
const SENT_AT = '2026-01-05T09:00:00.000Z';
const mail = (now = new Date()) => ({
  from: { email: 'hello@podling.app' },
  siteUrl: SITE_RELAY_URL,
  now,
  linkSecret: E2E_LINK_SECRET,
});

/**
 * The page is one of the site's, framed as every other: checks what a visitor finds, and what axe
 * finds where it can run (axe is a script: with JavaScript off it cannot, and the page, which
 * carries none, is the same document either way).
 */
async function expectSitePage(page: Page, title: string, { axe }: { axe: boolean }): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page).toHaveTitle(`${title} | ${PRODUCT_NAME}`);
  const banner = page.getByRole('banner');
  await expect(banner).toBeVisible();
  await expect(banner.getByRole('link', { name: `${PRODUCT_NAME} home` })).toHaveAttribute('href', '/');
  await expect(page.getByRole('main')).toContainText(copy.homeLink);
  const footer = page.getByRole('contentinfo');
  await expect(footer).toBeVisible();
  await expect(footer.getByRole('link', { name: 'Privacy', exact: true })).toHaveAttribute(
    'href',
    '/privacy',
  );
  await expect(footer.getByRole('link', { name: 'hello@podling.app' })).toBeVisible();
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  await expect(page.locator('script')).toHaveCount(0);
  // The site's styles apply: the header is laid out as on every page, not as bare markup.
  await expect(banner).toHaveCSS('position', 'fixed');
  if (axe) await expectNoAxeViolations(page, title);
}

const seedWaitlist = (email: string, consent: 'Pending' | 'Confirmed') =>
  ({
    Email: email,
    Interests: ['Use Podling'],
    'Page Source': 'home',
    Consent: consent,
    ...(consent === 'Confirmed' ? { 'Confirmed At': SENT_AT } : {}),
    'Created At': SENT_AT,
    'Last Updated': SENT_AT,
  }) as const;

for (const javaScriptEnabled of [true, false]) {
  test.describe(`JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled });
    const axe = { axe: javaScriptEnabled };

    test('confirm: the opened link, the confirmed page with what comes next and the store buttons, and a second press that says it was already done', async ({
      page,
      request,
      consoleErrors,
    }, testInfo) => {
      void consoleErrors;
      const email = uniqueEmail(testInfo, `e2e.js-${javaScriptEnabled ? 'on' : 'off'}.link-confirm`);
      await seedRecord(request, WAITLIST_TABLE, seedWaitlist(email, 'Pending'), AIRTABLE);
      await page.goto(await signedUrl(mail(), { purpose: 'confirm', form: 'waitlist', email }));
      await expectSitePage(page, copy.confirmTitle, axe);
      await expect(page.getByText(copy.confirmBody)).toBeVisible();

      await page.getByRole('button', { name: copy.confirmButton }).click();
      await expectSitePage(page, copy.confirmedTitle, axe);
      const main = page.getByRole('main');
      await expect(main.getByRole('heading', { level: 2, name: copy.nextHeading })).toBeVisible();
      await expect(main.getByText(copy.waitlistEmails)).toBeVisible();
      await expect(main.getByRole('link', { name: /App Store/ })).toHaveAttribute('target', '_blank');
      await expect(main.getByRole('link', { name: /Google Play/ })).toBeVisible();
      expect((await recordsFor(request, WAITLIST_TABLE, email, AIRTABLE))[0]?.fields.Consent).toBe(
        'Confirmed',
      );

      await page.goBack();
      await page.getByRole('button', { name: copy.confirmButton }).click();
      await expectSitePage(page, copy.alreadyConfirmedTitle, axe);
      await expect(page.getByText(copy.alreadyConfirmedBody)).toBeVisible();
    });

    test('unsubscribe: the opened link, then nothing more will be sent, and its own button emails a confirmation that joins again', async ({
      page,
      request,
      consoleErrors,
    }, testInfo) => {
      void consoleErrors;
      const email = uniqueEmail(testInfo, `e2e.js-${javaScriptEnabled ? 'on' : 'off'}.link-unsubscribe`);
      await seedRecord(request, WAITLIST_TABLE, seedWaitlist(email, 'Confirmed'), AIRTABLE);
      await page.goto(await signedUrl(mail(), { purpose: 'unsubscribe', form: 'waitlist', email }));
      await expectSitePage(page, copy.unsubscribeTitle, axe);

      await page.getByRole('button', { name: copy.unsubscribeButton }).click();
      await expectSitePage(page, copy.unsubscribedTitle, axe);
      await expect(page.getByText(copy.unsubscribedBody)).toBeVisible();
      await expect(page.getByText(copy.rejoin)).toBeVisible();
      expect((await recordsFor(request, WAITLIST_TABLE, email, AIRTABLE))[0]?.fields.Consent).toBe(
        'Withdrawn',
      );
      // The way back: this page's own button (the forms send a withdrawn address nothing) asks
      // for a fresh confirmation; the address stays withdrawn until that is pressed.
      await page.getByRole('button', { name: copy.rejoinAction }).click();
      await expectSitePage(page, copy.rejoinSentTitle, axe);
      await expect(page.getByText(copy.rejoinSentBody)).toBeVisible();
      expect((await recordsFor(request, WAITLIST_TABLE, email, AIRTABLE))[0]?.fields.Consent).toBe(
        'Withdrawn',
      );
      await page.goto(await emailedLink('relay', email, EMAIL_COPY.rejoin.subject, 'confirm'));
      await expectSitePage(page, copy.confirmTitle, axe);
      await page.getByRole('button', { name: copy.confirmButton }).click();
      await expectSitePage(page, copy.rejoinedTitle, axe);
      await expect(page.getByText(copy.rejoinedBody)).toBeVisible();
      expect((await recordsFor(request, WAITLIST_TABLE, email, AIRTABLE))[0]?.fields.Consent).toBe(
        'Confirmed',
      );
    });

    test('change: a stored address’s new details held on the page until its owner presses, then the next steps (the waitlist’s, and a quote’s booking calendar)', async ({
      page,
      request,
      consoleErrors,
    }, testInfo) => {
      void consoleErrors;
      const email = uniqueEmail(testInfo, `e2e.js-${javaScriptEnabled ? 'on' : 'off'}.link-change`);
      await seedRecord(request, WAITLIST_TABLE, seedWaitlist(email, 'Confirmed'), AIRTABLE);
      await page.goto(`${SITE_RELAY_URL}${WAITLIST_FORM.path}`);
      await joinWaitlist(page, email, 'Invest in Podling');
      await expect(page.getByText(WAITLIST_FORM.joinedText).first()).toBeVisible();
      await page.goto(await emailedLink('relay', email, EMAIL_COPY.change.subject, 'change'));
      await expectSitePage(page, copy.changeTitle, axe);
      await expect(page.getByRole('main').getByText('Invest in Podling')).toBeVisible();
      await page.getByRole('button', { name: copy.changeButton }).click();
      await expectSitePage(page, copy.changedTitle, axe);
      await expect(page.getByText(copy.waitlistEmails)).toBeVisible();

      const teacher = uniqueEmail(
        testInfo,
        `e2e.js-${javaScriptEnabled ? 'on' : 'off'}.link-quote-change`,
        'school.sch.uk',
      );
      await seedRecord(
        request,
        QUOTES_TABLE,
        {
          Email: teacher,
          'Contact Name': 'Sam Okafor',
          'School Name': 'Hillside Primary',
          Role: 'Deputy Head',
          'Use Cases': ['Support Learners'],
          Status: 'New',
          'Created At': SENT_AT,
          'Last Updated': SENT_AT,
        },
        AIRTABLE,
      );
      await page.goto(`${SITE_RELAY_URL}${QUOTE_FORM.path}`);
      await fillQuote(page, {
        name: 'Sam Okafor',
        email: teacher,
        school: 'Hillside Primary School',
        role: 'Deputy Head',
        useCases: ['Practice Speaking'],
      });
      await expect(checkbox(page, 'Practice Speaking')).toBeChecked();
      await page.getByRole('button', { name: QUOTE_FORM.submitText }).click();
      await expect(page.getByRole('heading', { name: QUOTE_FORM.thankYouTitle })).toBeVisible();
      await page.goto(await emailedLink('relay', teacher, EMAIL_COPY.change.subject, 'change'));
      await page.getByRole('button', { name: copy.changeButton }).click();
      await expectSitePage(page, copy.changedTitle, axe);
      await expect(page.getByText(copy.quoteReply)).toBeVisible();
      await expect(page.getByRole('link', { name: new RegExp(copy.quoteBookingLink) })).toHaveAttribute(
        'href',
        CALENDAR.bookingUrl,
      );
    });

    test('an expired link (410) and a tampered one (400) say so, change nothing and lead to a new one', async ({
      page,
      request,
      consoleErrors,
    }, testInfo) => {
      const email = uniqueEmail(testInfo, `e2e.js-${javaScriptEnabled ? 'on' : 'off'}.link-refused`);
      await seedRecord(request, WAITLIST_TABLE, seedWaitlist(email, 'Pending'), AIRTABLE);
      const expired = await signLink(
        {
          purpose: 'confirm',
          form: 'waitlist',
          email,
          expiresAt: Math.floor(Date.now() / 1000) - 60,
        },
        E2E_LINK_SECRET,
      );
      const opened = await page.goto(`${SITE_RELAY_URL}/api/email/confirm?token=${expired}`);
      expect(opened?.status()).toBe(410);
      await expectSitePage(page, copy.expiredTitle, axe);
      // The browser notes the status in the console, as for any error page.
      expectConsoleErrors(consoleErrors, /status of 410/);
      await expect(page.getByRole('link', { name: copy.expiredAction })).toHaveAttribute(
        'href',
        '/#waitlist',
      );

      const good = await signedUrl(mail(), { purpose: 'confirm', form: 'waitlist', email });
      const tampered = good.replace(/token=./, (match) => (match.endsWith('A') ? 'token=B' : 'token=A'));
      const refused = await page.goto(tampered);
      expect(refused?.status()).toBe(400);
      await expectSitePage(page, copy.invalidTitle, axe);
      expectConsoleErrors(consoleErrors, /status of 400/);

      expect((await recordsFor(request, WAITLIST_TABLE, email, AIRTABLE))[0]?.fields.Consent).toBe('Pending');
    });
  });
}
