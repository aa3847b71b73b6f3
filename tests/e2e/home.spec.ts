import type { Page } from '@playwright/test';
import { STORAGE_ANSWER_BOUND_MS } from '#src/config/constants.ts';
import { CONSENT_STORAGE_KEY, WAITS_FOR_VISITOR_ATTRIBUTE } from '#src/lib/page-marks.ts';
import { EMULATOR_URL, SITE_FLAGS_URL } from './support/config.mjs';
import { addFault, expectOnlyTheFixedAddressSent, recordsFor, WAITLIST_TABLE } from './support/emulator.ts';
import { expect, expectConsoleErrors, test } from './support/fixtures.ts';
import { FAILURE_TOAST, INVALID_EMAIL, WAITLIST_FORM } from './support/forms.ts';
import {
  checkbox,
  expectNoAxeViolations,
  gtagEvents,
  pageViews,
  openHome,
  stubStores,
  uniqueEmail,
  watchStorageBodies,
} from './support/page.ts';

// The spec's exact strings (sections 3, 4, 5 and 8) and the site's constants.
const TEXT = {
  headline: 'Your child’s voice, their own podcast',
  invalidEmail: INVALID_EMAIL,
  failureToast: FAILURE_TOAST,
  joined: WAITLIST_FORM.joinedText,
  popupText:
    "Dear visitor, We're currently experiencing a technical issue affecting sign-up on our iOS app...",
  dismiss: 'Dismiss',
  download: 'Download the app',
  submit: WAITLIST_FORM.submitText,
  emailLabel: WAITLIST_FORM.emailLabel,
  schoolsLink: 'Explore Podling for Schools',
} as const;
const INTERESTS = {
  use: 'Use Podling',
  invest: 'Invest in Podling',
  partner: 'Partner with Podling',
} as const;
const APP_STORE_URL = 'https://apps.apple.com/gb/app/podling/id6450000000';
const GOOGLE_PLAY_URL = 'https://play.google.com/store/apps/details?id=app.podling';

type StoreClick = { platform?: string; location?: string; transport_type?: string; event_category?: string };

/** store_click events react-ga4 queued for gtag. */
const storeClicks = (page: Page) => gtagEvents<StoreClick>(page, 'store_click');

const emailField = (page: Page) => page.getByRole('textbox', { name: TEXT.emailLabel });
const submitButton = (page: Page) => page.getByRole('button', { name: TEXT.submit });
const joinedButton = (page: Page) => page.getByRole('button', { name: TEXT.joined });
const interest = checkbox;
const appStore = (page: Page) => page.getByRole('link', { name: /App Store/ });
const googlePlay = (page: Page) => page.getByRole('link', { name: /Google Play/ });

test.describe('home page', () => {
  test('shows the sections in the spec’s order with the store buttons and the schools card', async ({
    page,
    visit,
    network,
  }) => {
    await openHome(page, visit);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(TEXT.headline);
    await expect(page.getByText('Available Now', { exact: true })).toBeVisible();
    const headings = await page.locator('main h1, main h2').allTextContents();
    expect(headings).toEqual([
      TEXT.headline,
      'Podling for schools',
      'See Podling in action',
      'Stay in the loop',
      'They use Podling',
      'Supported by',
    ]);
    for (const link of [appStore(page), googlePlay(page)]) {
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    }
    await expect(appStore(page)).toHaveAttribute('href', APP_STORE_URL);
    await expect(googlePlay(page)).toHaveAttribute('href', GOOGLE_PLAY_URL);
    await page.getByRole('link', { name: TEXT.schoolsLink }).click();
    await expect(page).toHaveURL(/\/schools$/);
    expect(network.outside).toEqual([]);
  });

  test('the #waitlist link lands on the waitlist section', async ({ page, visit }) => {
    await visit('/#waitlist');
    await expect(page.locator('#waitlist')).toBeInViewport();
  });
});

test.describe('waitlist form', () => {
  test('joins the waitlist and stores the record with every field', async ({
    page,
    visit,
    request,
  }, testInfo) => {
    const email = uniqueEmail(testInfo, 'e2e.home-join');
    await openHome(page, visit);
    await expectNoAxeViolations(page, 'idle');

    await interest(page, INTERESTS.use).check();
    await interest(page, INTERESTS.partner).check();
    // Mixed case and spaces: the store keeps the email trimmed and lower-cased.
    await emailField(page).fill(`  ${email.toUpperCase()} `);
    const before = Date.now();
    await submitButton(page).click();

    await expect(joinedButton(page)).toBeVisible();
    await expect(joinedButton(page)).toBeDisabled();
    await expect(emailField(page)).toHaveCount(0);
    for (const name of Object.values(INTERESTS)) await expect(interest(page, name)).toBeDisabled();
    await expectNoAxeViolations(page, 'joined');

    const records = await recordsFor(request, WAITLIST_TABLE, email);
    expect(records).toHaveLength(1);
    const { fields } = records[0]!;
    expect(fields.Email).toBe(email.toLowerCase());
    expect(fields.Interests).toEqual([INTERESTS.use, INTERESTS.partner]);
    expect(fields['Page Source']).toBe('home');
    const createdAt = Date.parse(String(fields['Created At']));
    const lastUpdated = Date.parse(String(fields['Last Updated']));
    expect(createdAt).toBeGreaterThanOrEqual(before - 5_000);
    expect(createdAt).toBeLessThanOrEqual(Date.now() + 5_000);
    expect(lastUpdated).toBe(createdAt);
  });

  test('with no interest chosen it stores General Waitlist', async ({ page, visit, request }, testInfo) => {
    const email = uniqueEmail(testInfo, 'e2e.home-general');
    await openHome(page, visit);
    await emailField(page).fill(email);
    await emailField(page).press('Enter');
    await expect(joinedButton(page)).toBeVisible();
    const [record] = await recordsFor(request, WAITLIST_TABLE, email);
    expect(record?.fields.Interests).toEqual(['General Waitlist']);
  });

  test('a repeat email updates the same record: Created At kept, Last Updated moved', async ({
    page,
    visit,
    request,
  }, testInfo) => {
    const email = uniqueEmail(testInfo, 'e2e.home-repeat');
    await openHome(page, visit);
    await interest(page, INTERESTS.use).check();
    await emailField(page).fill(email);
    await submitButton(page).click();
    await expect(joinedButton(page)).toBeVisible();
    const [first] = await recordsFor(request, WAITLIST_TABLE, email);
    expect(first).toBeDefined();

    // The second write must be stamped later: wait until the clock has passed the first stamp.
    const firstStamp = Date.parse(String(first!.fields['Last Updated']));
    await expect.poll(() => page.evaluate(() => Date.now())).toBeGreaterThan(firstStamp);
    await openHome(page, visit);
    await interest(page, INTERESTS.invest).check();
    await emailField(page).fill(email.toUpperCase());
    await submitButton(page).click();
    await expect(joinedButton(page)).toBeVisible();

    const records = await recordsFor(request, WAITLIST_TABLE, email);
    expect(records).toHaveLength(1);
    const [second] = records;
    expect(second!.id).toBe(first!.id);
    expect(second!.fields['Created At']).toBe(first!.fields['Created At']);
    expect(Date.parse(String(second!.fields['Last Updated']))).toBeGreaterThan(
      Date.parse(String(first!.fields['Last Updated'])),
    );
    expect(second!.fields.Interests).toEqual([INTERESTS.invest]);
  });

  test('an invalid email shows the message under the field and sends nothing', async ({
    page,
    visit,
    request,
  }, testInfo) => {
    const email = uniqueEmail(testInfo, 'e2e.home-invalid').replace('@', '@@');
    await openHome(page, visit);
    await emailField(page).fill(email);
    await emailField(page).blur();
    await expect(page.getByText(TEXT.invalidEmail)).toBeVisible();
    await expect(emailField(page)).toHaveAttribute('aria-invalid', 'true');
    await expect(emailField(page)).toHaveAccessibleDescription(TEXT.invalidEmail);
    // Marked by more than colour (the states' stylesheet, linked as the form mounts: not inline).
    await expect(emailField(page)).toHaveCSS('border-top-width', '3px');
    await expect(submitButton(page)).toBeDisabled();
    await expectNoAxeViolations(page, 'error');
    const sent = watchStorageBodies(page);
    await emailField(page).press('Enter');

    // Each change re-validates once the error shows: fixing the address clears it.
    const valid = email.replace('@@', '@');
    await emailField(page).fill(valid);
    await expect(page.getByText(TEXT.invalidEmail)).toHaveCount(0);
    await expect(submitButton(page)).toBeEnabled();
    // Submissions go one at a time: once the fixed address is stored, the Enter above has had
    // every chance to send the invalid one.
    await submitButton(page).click();
    await expect(joinedButton(page)).toBeVisible();
    await expectOnlyTheFixedAddressSent(request, WAITLIST_TABLE, sent, { refused: email, fixed: valid });
  });
});

test.describe('waitlist form with storage faults', () => {
  // Faults are global to the shared emulator: these tests run one at a time, each fault for
  // exactly one request to the Waitlist table.
  test.describe.configure({ mode: 'serial' });

  test('while submitting the button is disabled, busy and announced', async ({
    page,
    visit,
    request,
  }, testInfo) => {
    const email = uniqueEmail(testInfo, 'e2e.home-slow');
    // The page's clock is the test's: paused while the request is held, the page's own answer
    // bound cannot run out however long the checks below take on a busy machine.
    await page.clock.install();
    await openHome(page, visit);
    await emailField(page).fill(email);
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1_000));
    // The storage request waits for the test, not for a clock: the busy state lasts exactly as
    // long as the checks below.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let reached = false;
    await page.route(`${EMULATOR_URL}/v0/**`, async (route) => {
      reached = true;
      await held;
      await route.fallback();
    });
    await submitButton(page).click();
    await expect(submitButton(page)).toBeDisabled();
    await expect(submitButton(page)).toHaveAttribute('aria-busy', 'true');
    await expect(page.getByRole('status').filter({ hasText: 'Submitting…' })).toHaveCount(1);
    await expect.poll(() => reached, 'the submit reached the storage service').toBe(true);
    // axe yields to the event loop on timers: the paused clock moves on in steps while it runs,
    // never as far as the form's answer bound.
    let checked = false;
    const axe = expectNoAxeViolations(page, 'submitting').finally(() => (checked = true));
    const stepMs = 10;
    for (let moved = 0; !checked && moved + stepMs < STORAGE_ANSWER_BOUND_MS; moved += stepMs) {
      await page.clock.runFor(stepMs);
    }
    await axe;
    release();
    await page.clock.resume();
    await expect(joinedButton(page)).toBeVisible();
    expect(await recordsFor(request, WAITLIST_TABLE, email)).toHaveLength(1);
  });

  test('a storage failure shows the toast and keeps the form as typed; a retry then succeeds', async ({
    page,
    visit,
    request,
    consoleErrors,
  }, testInfo) => {
    const email = uniqueEmail(testInfo, 'e2e.home-fault');
    await openHome(page, visit);
    await interest(page, INTERESTS.invest).check();
    await emailField(page).fill(email);

    // airtable.js does not retry a 500, so one fault fails exactly this submit (and only this
    // test's: other tests sign up in parallel).
    await addFault(request, { table: WAITLIST_TABLE, count: 1, status: 500, match: email });
    await submitButton(page).click();

    await expect(page.getByText(TEXT.failureToast)).toBeVisible();
    await expect(joinedButton(page)).toHaveCount(0);
    await expect(emailField(page)).toHaveValue(email);
    await expect(emailField(page)).toBeEditable();
    await expect(interest(page, INTERESTS.invest)).toBeChecked();
    await expect(interest(page, INTERESTS.invest)).toBeEnabled();
    await expect(submitButton(page)).toBeEnabled();
    expect(await recordsFor(request, WAITLIST_TABLE, email)).toEqual([]);
    await expectNoAxeViolations(page, 'failure');
    expectConsoleErrors(consoleErrors, /status of 500/);
    expectConsoleErrors(consoleErrors, /Waitlist sign-up failed/);

    await interest(page, INTERESTS.use).check();
    await submitButton(page).click();
    await expect(joinedButton(page)).toBeVisible();
    const [record] = await recordsFor(request, WAITLIST_TABLE, email);
    expect(record?.fields.Interests).toEqual([INTERESTS.use, INTERESTS.invest]);
  });
});

test.describe('store buttons', () => {
  test('each click opens the store in a new tab and records a store_click after consent', async ({
    page,
    context,
    visit,
  }) => {
    await stubStores(context);
    await openHome(page, visit, { consent: 'granted' });
    // Analytics starts after hydration, once the stored consent is read (a click before that is
    // not recorded): the first page view shows it is on.
    await expect.poll(async () => (await pageViews(page)).length).toBeGreaterThan(0);

    const [appTab] = await Promise.all([page.waitForEvent('popup'), appStore(page).click()]);
    await expect(appTab).toHaveURL(APP_STORE_URL);
    // noopener: the new tab cannot reach back into the site.
    expect(await appTab.evaluate(() => window.opener)).toBeNull();
    await appTab.close();

    const [playTab] = await Promise.all([page.waitForEvent('popup'), googlePlay(page).click()]);
    await expect(playTab).toHaveURL(GOOGLE_PLAY_URL);
    await playTab.close();

    await expect.poll(() => storeClicks(page)).toHaveLength(2);
    const clicks = await storeClicks(page);
    expect(clicks.map(({ platform, location }) => [platform, location])).toEqual([
      ['iOS', 'hero_section'],
      ['Android', 'hero_section'],
    ]);
    for (const click of clicks) {
      expect(click.transport_type).toBe('beacon');
      expect(click.event_category).toBe('App Download');
    }
  });

  test('a click before the app has loaded is recorded too, and loads no app', async ({ page, context }) => {
    await stubStores(context);
    await page.addInitScript((key) => window.localStorage.setItem(key, 'granted'), CONSENT_STORAGE_KEY);
    await page.goto('/');
    // The page's inline script loads the analytics module alone and counts the view.
    await expect.poll(async () => (await pageViews(page)).length).toBe(1);
    const [tab] = await Promise.all([page.waitForEvent('popup'), appStore(page).click()]);
    await tab.close();
    await expect.poll(() => storeClicks(page)).toHaveLength(1);
    expect((await storeClicks(page)).map(({ platform, location }) => [platform, location])).toEqual([
      ['iOS', 'hero_section'],
    ]);
    expect(
      await page.evaluate((name) => document.documentElement.hasAttribute(name), WAITS_FOR_VISITOR_ATTRIBUTE),
    ).toBe(true);
  });

  test('without consent nothing is recorded', async ({ page, context, visit, network }) => {
    await stubStores(context);
    await openHome(page, visit, { consent: 'denied' });
    const [tab] = await Promise.all([page.waitForEvent('popup'), googlePlay(page).click()]);
    await tab.close();
    expect(await storeClicks(page)).toEqual([]);
    expect(network.analyticsScript).toEqual([]);
  });
});

test.describe('iOS-issue popup (flags build: TEMP_ISSUE_POPUP on, Google Play and schools off)', () => {
  test('hides the flagged-off parts', async ({ page, visit }) => {
    await openHome(page, visit, { base: SITE_FLAGS_URL });
    await expect(appStore(page)).toBeVisible();
    await expect(googlePlay(page)).toHaveCount(0);
    await expect(page.getByRole('link', { name: TEXT.schoolsLink })).toHaveCount(0);
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test('opens from the App Store button as an accessible modal; Escape, X and Dismiss close it', async ({
    page,
    visit,
  }) => {
    await openHome(page, visit, { base: SITE_FLAGS_URL });
    const dialog = page.getByRole('dialog');

    await appStore(page).click();
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(TEXT.popupText);
    await expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(await dialog.evaluate((node) => node.contains(document.activeElement))).toBe(true);
    await expectNoAxeViolations(page, 'popup open');
    // Tab never reaches the page behind, which is inert: after the last control the browser
    // takes focus to its own interface (the page's body here), then back to the first.
    const focusInOrOut = () =>
      dialog.evaluate(
        (node) => node.contains(document.activeElement) || document.activeElement === document.body,
      );
    for (let step = 0; step < 6; step += 1) {
      await page.keyboard.press('Tab');
      expect(await focusInOrOut()).toBe(true);
    }
    expect(await dialog.evaluate((node) => node.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(appStore(page)).toBeFocused();

    await appStore(page).press('Enter');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(appStore(page)).toBeFocused();

    await appStore(page).click();
    await dialog.getByRole('button', { name: TEXT.dismiss }).click();
    await expect(dialog).toHaveCount(0);
    await expect(appStore(page)).toBeFocused();
  });

  test("'Download the app' continues to the App Store in a new tab, closes it and records both clicks", async ({
    page,
    context,
    visit,
  }) => {
    await stubStores(context);
    await openHome(page, visit, { base: SITE_FLAGS_URL, consent: 'granted' });
    // As in the store buttons' test: a click before the stored consent is read is not recorded.
    await expect.poll(async () => (await pageViews(page)).length).toBeGreaterThan(0);
    await appStore(page).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    const [tab] = await Promise.all([
      page.waitForEvent('popup'),
      dialog.getByRole('link', { name: new RegExp(`^${TEXT.download}`) }).click(),
    ]);
    await expect(tab).toHaveURL(APP_STORE_URL);
    await tab.close();
    await expect(dialog).toHaveCount(0);
    await expect.poll(() => storeClicks(page)).toHaveLength(2);
    const clicks = await storeClicks(page);
    expect(clicks.map(({ platform, location }) => [platform, location])).toEqual([
      ['iOS', 'hero_section'],
      ['iOS', 'popup'],
    ]);
  });
});
