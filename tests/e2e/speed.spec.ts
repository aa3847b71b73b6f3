import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';

/**
 * Issue 14: until a page has loaded and hydrated it fetches only its own code. Other pages'
 * chunks and form code (airtable.js, the storage layer) wait for intent or for idle time after
 * load, and the CSS the page inlines is never fetched again.
 */
const PAGE_CHUNKS: Readonly<Record<string, RegExp>> = {
  '/': /\/assets\/home-page-[\w-]+\.js$/,
  '/schools': /\/assets\/schools-page-[\w-]+\.js$/,
  '/about': /\/assets\/about-page-[\w-]+\.js$/,
  '/guidelines': /\/assets\/guidelines-page-[\w-]+\.js$/,
  '/privacy': /\/assets\/privacy-page-[\w-]+\.js$/,
  '/terms': /\/assets\/terms-page-[\w-]+\.js$/,
  '/accessibility': /\/assets\/accessibility-page-[\w-]+\.js$/,
};
/**
 * The forms' storage code (airtable.js, the upsert and client modules): only a form's first
 * focus or submit may fetch it. The form components themselves are the page's own code.
 */
const FORM_CODE = /\/assets\/(airtable|upsert|client)[\w.-]*\.js$/;

/**
 * Every request the page started before it had both fired its load event and hydrated, by the
 * page's own clock: what follows (prefetch once idle) is allowed, however soon the test looks.
 */
async function requestsUntilLoadedAndHydrated(page: Page, path: string): Promise<string[]> {
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (document.documentElement.dataset.hydrated !== 'true') return;
      (window as unknown as { hydratedAt?: number }).hydratedAt = performance.now();
      observer.disconnect();
      // The document, not <html>: an init script runs before the parser has made the real one.
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-hydrated'] });
  });
  await page.goto(path, { waitUntil: 'load' });
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
  return page.evaluate(() => {
    const hydratedAt = (window as unknown as { hydratedAt?: number }).hydratedAt;
    if (hydratedAt === undefined) throw new Error('The hydration moment was not recorded');
    const navigation = performance.getEntriesByType('navigation')[0] as
      PerformanceNavigationTiming | undefined;
    const until = Math.max(hydratedAt, navigation?.loadEventEnd ?? 0);
    return performance
      .getEntriesByType('resource')
      .filter((entry) => entry.startTime <= until)
      .map((entry) => new URL(entry.name).pathname);
  });
}

test.describe('loading a page fetches only its own code', () => {
  for (const [path, ownChunk] of Object.entries(PAGE_CHUNKS)) {
    test(`${path} requests no other page's chunk, no form code and no stylesheet while it loads and hydrates`, async ({
      page,
    }) => {
      const requests = await requestsUntilLoadedAndHydrated(page, path);
      expect(requests.some((url) => ownChunk.test(url))).toBe(true);
      const otherPages = Object.entries(PAGE_CHUNKS)
        .filter(([other]) => other !== path)
        .map(([, chunk]) => chunk);
      expect(requests.filter((url) => otherPages.some((chunk) => chunk.test(url)))).toEqual([]);
      expect(requests.filter((url) => FORM_CODE.test(url))).toEqual([]);
      // Its CSS is inline: a stylesheet request would be a second copy on the critical path.
      expect(requests.filter((url) => url.endsWith('.css'))).toEqual([]);
    });
  }
});

test.describe('other pages are fetched on intent', () => {
  test('pointing at a link fetches that page’s chunk before the click', async ({ page, visit }) => {
    await visit('/about');
    const aboutLink = page
      .getByRole('contentinfo')
      .getByRole('link', { name: /privacy/i })
      .first();
    const chunk = page.waitForRequest((request) =>
      PAGE_CHUNKS['/privacy']!.test(new URL(request.url()).pathname),
    );
    await aboutLink.hover();
    await chunk;
    await aboutLink.click();
    await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
  });
});

test.describe('the cookie banner is part of the prerendered page', () => {
  const banner = (page: Page) => page.getByRole('region', { name: 'Can we count visits?' });

  // The page's modules are held back (never answered), so what shows is the prerendered HTML.
  const holdScripts = (page: Page) => page.route(/\/assets\/.*\.js$/, () => undefined);

  test('a first visit shows the banner before any JavaScript has run', async ({ page }) => {
    await holdScripts(page);
    await page.goto('/privacy', { waitUntil: 'commit' });
    await expect(banner(page)).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.dataset.hydrated)).toBeUndefined();
  });

  test('with a stored choice the banner never shows, even before hydration', async ({ page }) => {
    await page.addInitScript(() => window.localStorage.setItem('podling.analytics-consent.v1', 'denied'));
    await holdScripts(page);
    await page.goto('/privacy', { waitUntil: 'commit' });
    await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
    await expect(banner(page)).toBeHidden();
  });
});
