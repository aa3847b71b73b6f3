import type { Page } from '@playwright/test';
import { MESSAGES } from '#src/config/messages.ts';
import { CONSENT_TEXT } from '#src/content/consent.ts';
import { FOOTER_TEXT } from '#src/content/footer.ts';
import { HOME } from '#src/content/home.ts';
import { SCHOOLS } from '#src/content/schools.ts';
import { CONSENT_STORAGE_KEY, WAITS_FOR_VISITOR_ATTRIBUTE } from '#src/lib/page-marks.ts';
import { expect, expectConsoleErrors, test, untilHydrated, untilReady } from './support/fixtures.ts';
import { pageViews } from './support/page.ts';
import { NOT_FOUND_PATH } from './support/routes.ts';

/**
 * Issue 57: a text page loads no JavaScript until its visitor acts (the schools page, nor until a
 * part that needs the app nears the viewport). Its inline script keeps the header, the footer's
 * year, 'Cookie settings' and the banner working; with consent it loads the analytics module alone. The first act loads the app, which takes over (client-side navigation).
 */

/** The script requests the page makes (modules, their preloads, the analytics stand-in), as paths. */
function watchScripts(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  return scripts;
}

/** The app's own code: the entry, the framework and the shell every page boots with. */
const APP_CODE = /\/assets\/(index|framework|shell|start)-[\w-]+\.js$/;
/** What analytics loads alone: its module, the settings it reads, the preload helper, react-ga4, gtag. */
const ANALYTICS_CODE = /\/assets\/(analytics|settings|dist)-[\w-]+\.js$|\/gtag\/js$/;

/** The page views analytics is given, as `pageViews` reads them. */
const VIEWS = {
  about: ['/about', 'About Us | Podling'],
  guidelines: ['/guidelines', 'User Guidelines | Podling'],
  privacy: ['/privacy', 'Privacy Policy | Podling'],
  terms: ['/terms', 'Terms & Conditions | Podling'],
} as const satisfies Record<string, readonly [string, string]>;

/** The schools page's quote section, far below its first screen. */
const QUOTE_FORM_HEADING = SCHOOLS.quote.heading;

const banner = (page: Page) => page.getByRole('region', { name: CONSENT_TEXT.heading });
const waitsForVisitor = (page: Page) =>
  page.evaluate((name) => document.documentElement.hasAttribute(name), WAITS_FOR_VISITOR_ATTRIBUTE);

/** Opens `path` on a phone, as it is before the visitor acts; the scripts it requests from then on. */
async function openOnPhone(page: Page, path: string): Promise<string[]> {
  await page.setViewportSize({ width: 390, height: 800 });
  const scripts = watchScripts(page);
  await page.goto(path);
  await untilReady(page);
  expect(await waitsForVisitor(page)).toBe(true);
  return scripts;
}

test('reading, scrolling, the phone menu, Decline and Cookie settings load no script; the first act loads the app, which keeps the banner open', async ({
  page,
  network,
}) => {
  void network;
  const scripts = await openOnPhone(page, '/privacy');

  // The footer shows the current year, whatever year the page was built in.
  await expect(page.getByText(FOOTER_TEXT.copyright(new Date().getFullYear()))).toBeVisible();
  // The header turns translucent past 10 px, by wheel and by Page Down.
  const header = page.locator('header.site-header');
  await page.mouse.wheel(0, 11);
  await expect(header).toHaveAttribute('data-scrolled', 'true');
  await page.evaluate(() => window.scrollTo(0, 10));
  await expect(header).toHaveAttribute('data-scrolled', 'false');
  await expect(header).not.toHaveClass(/site-header--scrolled/);
  await page.keyboard.press('PageDown');
  await expect(header).toHaveClass(/site-header--scrolled/);
  // The native phone menu opens and closes.
  const toggle = page.locator('summary.site-header__menu-button');
  await toggle.click();
  await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeVisible();
  await toggle.click();
  await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeHidden();
  // Decline is stored; Cookie settings shows the banner again.
  await banner(page).getByRole('button', { name: CONSENT_TEXT.reject }).click();
  await expect(banner(page)).toBeHidden();
  expect(await page.evaluate((key) => localStorage.getItem(key), CONSENT_STORAGE_KEY)).toBe('denied');
  await page.getByRole('button', { name: FOOTER_TEXT.cookieSettings }).click();
  await expect(banner(page)).toBeVisible();

  // All of that ran no code but the page's own inline script.
  expect(scripts).toEqual([]);
  expect(await waitsForVisitor(page)).toBe(true);

  // The first act (a key that is not a scrolling key) loads the app; the banner stays open in it,
  // and its Accept now goes through the app.
  await page.keyboard.press('Tab');
  await untilHydrated(page);
  expect(scripts.filter((path) => APP_CODE.test(path)).length).toBeGreaterThan(0);
  await expect(banner(page)).toBeVisible();
  await banner(page).getByRole('button', { name: CONSENT_TEXT.accept }).click();
  await expect(banner(page)).toBeHidden();
  await expect.poll(() => pageViews(page)).toEqual([VIEWS.privacy]);
});

test('Accept loads the analytics code alone and counts the page view; the app, loaded at the first act, counts each client navigation once', async ({
  page,
  network,
}) => {
  const scripts = watchScripts(page);
  await page.goto('/about');
  await untilReady(page);
  await banner(page).getByRole('button', { name: CONSENT_TEXT.accept }).click();
  await expect(banner(page)).toBeHidden();
  await expect.poll(() => pageViews(page)).toEqual([VIEWS.about]);
  expect(network.analyticsScript).toHaveLength(1);
  expect(scripts.filter((path) => !ANALYTICS_CODE.test(path))).toEqual([]);
  expect(await waitsForVisitor(page)).toBe(true);

  await page.keyboard.press('Tab');
  await untilHydrated(page);
  expect(scripts.filter((path) => APP_CODE.test(path)).length).toBeGreaterThan(0);
  await page.evaluate(() => ((window as unknown as { sameDocument?: boolean }).sameDocument = true));
  await page.getByRole('contentinfo').getByRole('link', { name: 'Terms & Conditions' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Terms & Conditions' })).toBeVisible();
  await expect.poll(() => pageViews(page)).toEqual([VIEWS.about, VIEWS.terms]);
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(
    true,
  );
  expect(network.analyticsScript).toHaveLength(1);
});

test('with consent from an earlier visit, a text page loads the analytics code alone and counts its view once, before and after the app', async ({
  page,
  network,
}) => {
  await page.addInitScript((key) => localStorage.setItem(key, 'granted'), CONSENT_STORAGE_KEY);
  const scripts = watchScripts(page);
  await page.goto('/guidelines');
  await expect.poll(() => pageViews(page)).toEqual([VIEWS.guidelines]);
  expect(scripts.filter((path) => !ANALYTICS_CODE.test(path))).toEqual([]);
  expect(network.analyticsScript).toHaveLength(1);
  // A link followed before the app loads is an ordinary navigation, counted by the next page.
  await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy', exact: true }).click();
  await expect.poll(() => pageViews(page)).toEqual([VIEWS.privacy]);
  await page.keyboard.press('Tab');
  await untilHydrated(page);
  // The app takes over the page already counted (no second view of it) and counts the next.
  await page.getByRole('contentinfo').getByRole('link', { name: 'Terms & Conditions' }).click();
  await expect.poll(() => pageViews(page)).toEqual([VIEWS.privacy, VIEWS.terms]);
});

test.describe('the first act', () => {
  test('a click on a button the app handles, before it loads, does what it should once it has', async ({
    page,
    network,
    consoleErrors,
  }) => {
    void network;
    await page.goto(NOT_FOUND_PATH);
    await untilReady(page);
    await page.getByRole('button', { name: MESSAGES.notFoundButton }).click();
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
    await expect(page.getByRole('heading', { level: 1, name: /podcast/i })).toBeVisible();
    expectConsoleErrors(consoleErrors, /status of 404/);
  });

  test('when the app fails to load (a deploy in between), the click reloads the page, and then works', async ({
    page,
    network,
    consoleErrors,
  }) => {
    void network;
    let failed = 0;
    await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
      if (failed > 0) return route.continue();
      failed += 1;
      return route.abort('failed');
    });
    await page.goto(NOT_FOUND_PATH);
    await untilReady(page);
    const reloaded = page.waitForEvent('load');
    await page.getByRole('button', { name: MESSAGES.notFoundButton }).click();
    await reloaded;
    expect(failed).toBe(1);
    await untilReady(page);
    await page.getByRole('button', { name: MESSAGES.notFoundButton }).click();
    await expect(page.getByRole('heading', { level: 1, name: /podcast/i })).toBeVisible();
    expectConsoleErrors(consoleErrors, /status of 404|Failed to fetch|ERR_FAILED/);
  });
});

test('Escape, before the app loads, closes the phone menu at once and gives its toggle focus', async ({
  page,
  network,
}) => {
  void network;
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('/terms');
  await untilReady(page);
  const toggle = page.locator('summary.site-header__menu-button');
  await toggle.click();
  await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeVisible();
  // The app is held back: only the page's own script can answer.
  await page.route(/\/assets\/index-[\w-]+\.js$/, () => undefined);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeHidden();
  await expect(toggle).toBeFocused();
  expect(await waitsForVisitor(page)).toBe(true);
});

test('the schools page loads no script until its carousel or form nears the viewport, then the app on its own', async ({
  page,
  network,
}) => {
  void network;
  const scripts = await openOnPhone(page, '/schools');
  // Scrolling through the first screens (the hero, the video, the benefits) is reading.
  await page.mouse.wheel(0, 600);
  await expect(page.locator('header.site-header')).toHaveAttribute('data-scrolled', 'true');
  expect(scripts).toEqual([]);
  await page.getByRole('heading', { name: QUOTE_FORM_HEADING }).scrollIntoViewIfNeeded();
  await untilHydrated(page);
  expect(scripts.filter((path) => APP_CODE.test(path)).length).toBeGreaterThan(0);
});

test('the home page loads no script while its first screens are read, then the app as its waitlist form nears the viewport', async ({
  page,
  network,
}) => {
  void network;
  const scripts = await openOnPhone(page, '/');
  // The parts that need the app are watched from the first paint.
  await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
  // The hero, the schools card, the video: reading (the form is over 2,000 px down on a phone).
  await page.mouse.wheel(0, 500);
  await expect(page.locator('header.site-header')).toHaveAttribute('data-scrolled', 'true');
  // Two frames and a task: time for the watcher to have seen the scroll and booted, had it to.
  await page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done)))),
  );
  expect(await page.locator('link[rel="modulepreload"]').count()).toBe(0);
  expect(scripts).toEqual([]);
  await page.getByRole('heading', { name: HOME.waitlist.heading }).scrollIntoViewIfNeeded();
  await untilHydrated(page);
  expect(scripts.filter((path) => APP_CODE.test(path)).length).toBeGreaterThan(0);
});
