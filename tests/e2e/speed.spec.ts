import type { Page } from '@playwright/test';
import { pageModuleName } from '#src/config/site.ts';
import { actUntilHydrated, expect, test, untilReady } from './support/fixtures.ts';
import { SITE_ROUTES } from './support/routes.ts';

/**
 * Issue 14: until a page has loaded and hydrated it fetches only its own code. Other pages'
 * chunks and form code (airtable.js, the storage layer) wait for intent or for idle time after
 * load, and the CSS the page inlines is never fetched again. Text-only pages hydrate their
 * prerendered markup without fetching their own chunk either; and before the first paint nothing
 * but the document (and images) is asked for: the code starts after it.
 */
const PAGE_CHUNKS: Readonly<Record<string, RegExp>> = Object.fromEntries(
  SITE_ROUTES.map((route) => [route.path, new RegExp(`/assets/${pageModuleName(route.name)}-[\\w-]+\\.js$`)]),
);
/**
 * The forms' storage code (airtable.js, the upsert and client modules): only a form's first
 * focus or submit may fetch it. The form components themselves are the page's own code.
 */
const FORM_CODE = /\/assets\/(airtable|upsert|client)[\w.-]*\.js$/;
/** Pages with nothing to run: opened directly, they keep their prerendered markup. */
const STATIC_PAGES = new Set<string>(
  SITE_ROUTES.filter((route) => route.kind === 'content').map((route) => route.path),
);

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
  // A page loads no script before its visitor's first act (issue 57), made here after load; on the
  // schools page, nor before a part that needs the app nears the viewport.
  await untilReady(page);
  const scripts = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => entry.name)
      .filter((name) => /\.js(\?|$)/.test(name)),
  );
  expect(scripts, 'scripts before the first act').toEqual([]);
  await actUntilHydrated(page);
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

// One load per route answers both questions: what came before the first paint, and what came
// before the page had loaded and hydrated.
test.describe('loading a page', () => {
  for (const [path, ownChunk] of Object.entries(PAGE_CHUNKS)) {
    test(`${path}: nothing but the document before its first contentful paint; then no other page's chunk, no form code and no stylesheet while it loads and hydrates`, async ({
      page,
    }) => {
      const requested: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      const requests = await requestsUntilLoadedAndHydrated(page, path);

      // The first paint waits on nothing but the document (and images).
      const early = await page.evaluate(() => {
        const paint = performance.getEntriesByName('first-contentful-paint')[0];
        if (!paint) throw new Error('No first contentful paint was recorded');
        return performance
          .getEntriesByType('resource')
          .filter((entry) => entry.startTime < paint.startTime)
          .map((entry) => `${(entry as PerformanceResourceTiming).initiatorType} ${entry.name}`);
      });
      expect(early.filter((entry) => !entry.startsWith('img '))).toEqual([]);
      // The code did come, after the paint; the icon is inline and never requested.
      expect(requested.some((url) => /\/assets\/index-[\w-]+\.js$/.test(url))).toBe(true);
      expect(requested.filter((url) => /favicon|\.ico$/.test(url))).toEqual([]);
      expect(await page.locator('link[rel="icon"]').getAttribute('href')).toMatch(/^data:image\/svg\+xml,/);
      // Installing the site still finds its manifest, added once the page has painted.
      await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/site.webmanifest');

      // Until loaded and hydrated, it fetches only its own code.
      expect(requests.some((url) => ownChunk.test(url))).toBe(!STATIC_PAGES.has(path));
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

test.describe('a text-only page opened directly', () => {
  test('routes its links within the site without reloading or loading its own code', async ({
    page,
    visit,
  }) => {
    const pageChunks: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url()).pathname;
      if (/-page-[\w-]+\.js$/.test(url)) pageChunks.push(url);
    });
    await visit('/about');
    expect(pageChunks.filter((url) => PAGE_CHUNKS['/about']!.test(url))).toEqual([]);
    await page.evaluate(() => ((window as unknown as { sameDocument?: boolean }).sameDocument = true));
    await page.getByRole('link', { name: 'Get Started Now' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/podcast/i);
    await expect(page).toHaveURL(/\/$/);
    // The same document: the click was routed by the app, not a new page load.
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(
      true,
    );
    // Back to About: the app shows the markup it kept, still without the page's code.
    await page.goBack();
    await expect(page.getByRole('heading', { level: 1, name: 'About Us' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Get Started Now' })).toBeVisible();
  });
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
