import type { CDPSession, Page, Request, Route } from '@playwright/test';
import { RELAY_EMULATOR_URL, SITE_RELAY_URL } from './support/config.mjs';
import { afterPaint } from './support/accessibility.ts';
import { storedEmail, storedRecordsFor } from './support/emulator.ts';
import { expect, test as base, untilHydrated } from './support/fixtures.ts';
import { QUOTE_FORM, WAITLIST_FORM } from './support/forms.ts';
import { checkbox, stubCalendarWithNoContent, textbox, uniqueEmail } from './support/page.ts';

/**
 * Issue 22: a visitor quicker than the JavaScript, or without it, loses nothing. Relay mode (the
 * default build, on `vite preview`): the forms are plain HTML forms that post to the site's own
 * origin until the app takes them over, and what the browser holds when it does is kept.
 */

const relay = (path: string) => new URL(path, SITE_RELAY_URL).toString();
const NATIVE_PATHS = { waitlist: '/api/forms/waitlist', quote: '/api/forms/quote' } as const;
const BANNER_NAME = 'Can we count visits?';

/** The urlencoded body of a native post, as name → every value. */
function postedFields(request: Request): Record<string, string[]> {
  expect(request.method()).toBe('POST');
  expect(request.headers()['content-type']).toBe('application/x-www-form-urlencoded');
  const fields: Record<string, string[]> = {};
  for (const [name, value] of new URLSearchParams(request.postData() ?? '')) {
    (fields[name] ??= []).push(value);
  }
  return fields;
}

/** The next native post of a form, as the browser sends it. */
const nativePost = (page: Page, form: keyof typeof NATIVE_PATHS) =>
  page.waitForRequest(
    (request) => request.method() === 'POST' && new URL(request.url()).pathname === NATIVE_PATHS[form],
  );

/**
 * Holds the page's JavaScript until `release` is called, so a test acts on the prerendered page
 * before hydration as a quick visitor on a slow phone would, however fast this machine is.
 */
async function holdJavaScript(page: Page): Promise<{ release: () => void }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/.+\.js$/, async (route: Route) => {
    await released;
    // A native post may have left the page meanwhile: its held requests are gone with it.
    await route.fallback().catch(() => undefined);
  });
  return { release };
}

/**
 * Opens a page of the relay site as soon as its document has arrived (its JavaScript may be held),
 * with the cookie choice already made so the banner stays out of the way.
 */
async function openEarly(page: Page, path: string): Promise<void> {
  await page.addInitScript(() => {
    if (window.top === window) window.localStorage.setItem('podling.analytics-consent.v1', 'denied');
  });
  await page.goto(relay(path), { waitUntil: 'domcontentloaded' });
}

/** `throttleCpu()`: a phone four times slower than this machine's CPU (Chrome DevTools' throttling), for this test. */
const test = base.extend<{ throttleCpu: () => Promise<void> }>({
  throttleCpu: async ({ page }, use) => {
    let session: CDPSession | undefined;
    await use(async () => {
      session = await page.context().newCDPSession(page);
      await session.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    });
    // The next test reuses this page (reuseContext in playwright.config.ts): it gets it at full speed.
    if (session) {
      await session.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      await session.detach();
    }
  },
});

test.describe('before hydration (relay mode, CPU 4× slower)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('waitlist: an email and interests given before hydration survive it and are stored', async ({
    page,
    throttleCpu,
    request,
  }, testInfo) => {
    await throttleCpu();
    const held = await holdJavaScript(page);
    await openEarly(page, '/');
    const email = uniqueEmail(testInfo, 'quick-parent');
    await checkbox(page, 'Invest in Podling').check();
    await textbox(page, WAITLIST_FORM.emailLabel).fill(email);
    await expect(page.locator('html')).not.toHaveAttribute('data-hydrated', 'true');
    held.release();
    await untilHydrated(page);
    await expect(textbox(page, WAITLIST_FORM.emailLabel)).toHaveValue(email);
    await page.getByRole('button', { name: WAITLIST_FORM.submitText }).click();
    await expect(page.getByRole('button', { name: WAITLIST_FORM.joinedText })).toBeVisible();
    await expect(page.getByText('Please enter a valid email address')).toHaveCount(0);
    const [record] = await storedRecordsFor(request, WAITLIST_FORM.table, email, RELAY_EMULATOR_URL);
    expect(record?.fields.Email).toBe(storedEmail(email));
    expect(record?.fields.Interests).toEqual(['Invest in Podling']);
  });

  test('quote: every field, card and the Other text given before hydration survive it and are stored', async ({
    page,
    throttleCpu,
    request,
  }, testInfo) => {
    await throttleCpu();
    const held = await holdJavaScript(page);
    await openEarly(page, '/schools');
    const email = uniqueEmail(testInfo, 'quick-head');
    await textbox(page, 'Your Name').fill('Priya Shah');
    await textbox(page, QUOTE_FORM.emailLabel).fill(email);
    await textbox(page, 'School/Institution Name').fill('Oakfield Primary');
    await textbox(page, 'Role').fill('Head Teacher');
    await checkbox(page, 'Practice Speaking').check();
    await checkbox(page, 'Other').check();
    await textbox(page, 'Tell us how you would use it').fill('Assemblies');
    held.release();
    await untilHydrated(page);
    await page.getByRole('button', { name: QUOTE_FORM.submitText }).click();
    await expect(page.getByRole('heading', { name: QUOTE_FORM.thankYouTitle })).toBeVisible();
    const [record] = await storedRecordsFor(request, QUOTE_FORM.table, email, RELAY_EMULATOR_URL);
    expect(record?.fields).toMatchObject({
      'Contact Name': 'Priya Shah',
      'School Name': 'Oakfield Primary',
      Role: 'Head Teacher',
      'Use Cases': ['Practice Speaking', 'Other: Assemblies'],
      'Other Use Case': 'Assemblies',
    });
  });

  test('waitlist: a press before hydration posts the form natively to its action', async ({
    page,
    throttleCpu,
  }, testInfo) => {
    await throttleCpu();
    const held = await holdJavaScript(page);
    await openEarly(page, '/');
    const email = uniqueEmail(testInfo, 'early-press');
    const button = page.getByRole('button', { name: WAITLIST_FORM.submitText });
    await expect(button).toBeEnabled();
    await checkbox(page, 'Use Podling').check();
    await checkbox(page, 'Partner with Podling').check();
    await textbox(page, WAITLIST_FORM.emailLabel).fill(email);
    const posted = nativePost(page, 'waitlist');
    await button.click();
    expect(postedFields(await posted)).toEqual({
      interests: ['use', 'partner'],
      email: [email],
      company_website: [''],
    });
    held.release();
    // The server's answer is the confirmation page; the sign-up is stored once.
    await expect(page.getByText(WAITLIST_FORM.joinedText)).toBeVisible();
    const records = await storedRecordsFor(page.request, 'Waitlist', email, RELAY_EMULATOR_URL);
    expect(records).toHaveLength(1);
    expect(records[0]?.fields).toMatchObject({ Interests: ['Use Podling', 'Partner with Podling'] });
  });

  test('quote: a press before hydration posts every field natively to its action', async ({
    page,
    throttleCpu,
  }, testInfo) => {
    await throttleCpu();
    const held = await holdJavaScript(page);
    await openEarly(page, '/schools');
    const email = uniqueEmail(testInfo, 'early-head');
    await textbox(page, 'Your Name').fill('Sam Lee');
    await textbox(page, QUOTE_FORM.emailLabel).fill(email);
    await textbox(page, 'School/Institution Name').fill('Hill School');
    await textbox(page, 'Role').fill('SENCo');
    await checkbox(page, 'Support Learners').check();
    await checkbox(page, 'Other').check();
    await textbox(page, 'Tell us how you would use it').fill('Clubs & more');
    const posted = nativePost(page, 'quote');
    await page.getByRole('button', { name: QUOTE_FORM.submitText }).click();
    expect(postedFields(await posted)).toEqual({
      contactName: ['Sam Lee'],
      email: [email],
      schoolName: ['Hill School'],
      role: ['SENCo'],
      useCases: ['support-learners', 'other'],
      otherUseCase: ['Clubs & more'],
      company_website: [''],
    });
    held.release();
    await expect(page.getByRole('heading', { name: QUOTE_FORM.thankYouTitle })).toBeVisible();
    const records = await storedRecordsFor(page.request, 'School Quotes', email, RELAY_EMULATOR_URL);
    expect(records).toHaveLength(1);
    expect(records[0]?.fields).toMatchObject({
      'Contact Name': 'Sam Lee',
      Role: 'SENCo',
      'Use Cases': ['Support Learners', 'Other: Clubs & more'],
      'Other Use Case': 'Clubs & more',
    });
  });
});

test.describe('without JavaScript (relay mode)', () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });

  test('home: interest cards toggle and show it, the form posts natively, no cookie banner', async ({
    page,
  }, testInfo) => {
    await page.goto(relay('/'));
    await expect(page.getByRole('region', { name: BANNER_NAME })).toBeHidden();
    const card = checkbox(page, 'Use Podling');
    const cardBox = page.locator('label.form-toggle-card', { has: card });
    const unchosenBorder = await cardBox.evaluate((label) => getComputedStyle(label).borderTopWidth);
    await cardBox.click();
    await expect(card).toBeChecked();
    // The chosen look comes from :checked (no script sets a class).
    await expect(cardBox).toHaveCSS('border-top-width', '3px');
    await expect(cardBox.locator('.form-toggle-card__box svg')).toBeVisible();
    await cardBox.click();
    await expect(card).not.toBeChecked();
    await expect(cardBox).toHaveCSS('border-top-width', unchosenBorder);

    await checkbox(page, 'Invest in Podling').check();
    const email = uniqueEmail(testInfo, 'no-js');
    await textbox(page, WAITLIST_FORM.emailLabel).fill(email);
    const button = page.getByRole('button', { name: WAITLIST_FORM.submitText });
    await expect(button).toBeEnabled();
    const posted = nativePost(page, 'waitlist');
    await button.click();
    expect(postedFields(await posted)).toEqual({
      interests: ['invest'],
      email: [email],
      company_website: [''],
    });
  });

  test('schools: use-case cards toggle, the Other box shows while Other is ticked, the form posts natively', async ({
    page,
  }) => {
    await page.goto(relay('/schools'));
    await expect(page.getByRole('region', { name: BANNER_NAME })).toBeHidden();
    const other = textbox(page, 'Tell us how you would use it');
    await expect(other).toBeHidden();
    await checkbox(page, 'Other').check();
    await expect(other).toBeVisible();
    await checkbox(page, 'Other').uncheck();
    await expect(other).toBeHidden();
    await checkbox(page, 'Other').check();
    await other.fill('Book club');
    await checkbox(page, 'Showcase Creativity').check();
    await expect(
      page.locator('label.form-toggle-card', { has: checkbox(page, 'Showcase Creativity') }),
    ).toHaveCSS('border-top-width', '3px');
    await textbox(page, 'Your Name').fill('Ada');
    await textbox(page, QUOTE_FORM.emailLabel).fill('not-an-email');
    const posted = nativePost(page, 'quote');
    await page.getByRole('button', { name: QUOTE_FORM.submitText }).click();
    // The browser does not second-guess the email: the server answers with the spec's message.
    expect(postedFields(await posted)).toMatchObject({
      contactName: ['Ada'],
      email: ['not-an-email'],
      useCases: ['showcase-creativity', 'other'],
      otherUseCase: ['Book club'],
    });
  });

  test('the phone menu opens and its links work', async ({ page }) => {
    await page.goto(relay('/about'));
    const mobileNav = page.getByRole('navigation', { name: 'Mobile' });
    await expect(mobileNav).toBeHidden();
    const toggle = page.locator('summary.site-header__menu-button');
    await expect(toggle).toHaveAccessibleName('Open menu');
    await toggle.click();
    await expect(mobileNav).toBeVisible();
    await expect(toggle).toHaveAccessibleName('Close menu');
    const box = await mobileNav.boundingBox();
    expect(box?.y ?? 0, 'the panel hangs below the header bar').toBeGreaterThan(40);
    await mobileNav.getByRole('link', { name: 'Schools' }).click();
    await expect(page).toHaveURL(/\/schools$/);
    await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeHidden();
  });
});

test.describe('without JavaScript (direct mode: no server to post to)', () => {
  test.use({ javaScriptEnabled: false });

  test('the inert button says why and how else to reach us', async ({ page }) => {
    await page.goto('/');
    const button = page.getByRole('button', { name: WAITLIST_FORM.submitText });
    await expect(button).toBeDisabled();
    const note = page.locator('.waitlist-form .form-not-ready');
    await expect(note).toBeVisible();
    await expect(button).toHaveAccessibleDescription(/starts working once the page has finished loading/);
    await expect(note.getByRole('link', { name: 'hello@podling.app' })).toHaveAttribute(
      'href',
      'mailto:hello@podling.app',
    );
  });
});

test.describe('the booking calendar and the cookie banner (2.4.11)', () => {
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    test(`at ${viewport.width} px, tabbing into the calendar's frame leaves it clear of the banner and header`, async ({
      page,
      visit,
      network,
    }) => {
      await page.setViewportSize(viewport);
      await stubCalendarWithNoContent(page, network);
      await visit('/schools', { consent: 'unset' });
      await expect(page.getByRole('region', { name: BANNER_NAME })).toBeVisible();
      await page.getByRole('button', { name: QUOTE_FORM.submitText }).focus();
      const frame = page.locator('iframe.calendar-embed__frame');
      // The frame is created as its place nears the viewport: wait for it before tabbing on.
      await expect(frame).toBeAttached();
      for (let presses = 0; presses < 10; presses += 1) {
        await page.keyboard.press('Tab');
        if (await frame.evaluate((element) => element === document.activeElement).catch(() => false)) break;
      }
      await expect(frame).toBeFocused();
      await afterPaint(page);
      const place = () =>
        frame.evaluate((element) => {
          const rect = element.getBoundingClientRect();
          const header = document.querySelector('.site-header')?.getBoundingClientRect();
          const banner = document.querySelector('.consent-banner__inner')?.getBoundingClientRect();
          return {
            belowHeader: rect.top >= (header?.bottom ?? 0),
            aboveBanner: rect.bottom <= (banner?.top ?? 0),
          };
        });
      // The page scrolls the focused frame clear of both as the visitor would see it settle.
      await expect.poll(place, { message: 'the focused frame sits between header and banner' }).toEqual({
        belowHeader: true,
        aboveBanner: true,
      });
    });
  }
});
