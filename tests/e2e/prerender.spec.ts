import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { INLINE_SCRIPT_CEILING_KB, measureRoutes, ON_ACT_CEILING_KB } from '#scripts/bench/bundle-report.mjs';
import { E2E_OUT_DIR } from './support/config.mjs';
import { fileForPath } from '#scripts/vite-plugins/prerender.ts';
import { documentTitle, NOT_FOUND, ROUTE_LIST } from '#src/config/site.ts';
import { expect, test } from './support/fixtures.ts';
import { SITE_PATHS, SITE_ROUTES } from './support/routes.ts';

// The static site Cloudflare's Vite plugin writes beside the Worker (direct mode: the site alone).
const BUILD = join(E2E_OUT_DIR, 'default', 'client');

/** Each route of the table (and the not-found page) → its prerendered file, title and h1. */
const PAGES = [
  ...SITE_ROUTES.map((route) => ({ ...route, file: fileForPath(route.path) })),
  { ...NOT_FOUND, path: '/404', file: fileForPath(NOT_FOUND.path) },
];

function decode(text: string): string {
  return text
    .replace(/<[^>]+>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .trim();
}

test.describe('prerendered HTML', () => {
  for (const page of PAGES) {
    test(`${page.file} carries its heading, head tags and content`, async () => {
      const html = await readFile(join(BUILD, page.file), 'utf8');
      const h1s = [...html.matchAll(/<h1[^>]*>([\s\S]*?)<\/h1>/g)].map((m) => decode(m[1] ?? ''));
      expect(h1s).toEqual([page.heading]);
      expect(decode(/<title>([^<]+)<\/title>/.exec(html)?.[1] ?? '')).toBe(documentTitle(page));
      expect(html).toMatch(/<meta name="description" content="[^"]{40,}"/);
      expect(html).toMatch(/<meta property="og:title" content="[^"]+"/);
      expect(html).toMatch(/<meta property="og:image" content="http[^"]+\/og-image\.png"/);
      expect(html).toMatch(/<meta name="twitter:card" content="summary_large_image"/);
      expect(html).toMatch(/<meta http-equiv="Content-Security-Policy"/);
      if (page.path === '/404') expect(html).toContain('<meta name="robots" content="noindex"');
      else
        expect(html).toMatch(
          new RegExp(`<link rel="canonical" href="http[^"]+${page.path === '/' ? '/' : page.path}"`),
        );
      // The page's CSS is inline: first paint waits on no stylesheet request. The links left
      // are disabled markers (never fetched) naming the files the inline CSS came from.
      for (const link of html.match(/<link[^>]*rel="stylesheet"[^>]*>/g) ?? [])
        expect(link).toMatch(/\sdisabled\b/);
      expect(html).toContain('<style>');
    });
  }

  test('the home page carries JSON-LD for the organisation and the app, and the Smart App Banner', async () => {
    const html = await readFile(join(BUILD, 'index.html'), 'utf8');
    const json = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '{}';
    const data = JSON.parse(json) as { '@graph': { '@type': string }[] };
    expect(data['@graph'].map((node) => node['@type'])).toEqual(['Organization', 'MobileApplication']);
    expect(html).toMatch(/<meta name="apple-itunes-app" content="app-id=\d+"/);
  });

  test('sitemap.xml and robots.txt come from the route table', async () => {
    const sitemap = await readFile(join(BUILD, 'sitemap.xml'), 'utf8');
    const locs = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] ?? '').pathname);
    expect(locs).toEqual(SITE_PATHS);
    expect(await readFile(join(BUILD, 'robots.txt'), 'utf8')).toMatch(/Sitemap: http\S+\/sitemap\.xml/);
  });

  test(`no route loads JavaScript before its first act, which loads ${ON_ACT_CEILING_KB} KB at most; its inline scripts stay within ${INLINE_SCRIPT_CEILING_KB} KB (gzip)`, async () => {
    const reports = await measureRoutes(BUILD, { ROUTE_LIST, NOT_FOUND });
    expect(reports.map((r) => r.route)).toEqual([...SITE_PATHS, '(404)']);
    for (const report of reports) {
      // The inline loader imports the entry and the framework it hydrates with at the first act only
      // (schools: or as a part that needs the app nears the viewport), doing the page's work until then.
      expect(report.onActFiles, report.route).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^assets\/index-[\w-]+\.js$/),
          expect.stringMatching(/^assets\/framework-[\w-]+\.js$/),
        ]),
      );
      expect(report.onActGzipKb, report.route).toBeGreaterThan(50);
      expect(report.onActGzipKb, report.route).toBeLessThanOrEqual(ON_ACT_CEILING_KB);
      expect(report.inlineGzipKb, report.route).toBeLessThanOrEqual(INLINE_SCRIPT_CEILING_KB);
      // Loaded on demand, never with the app.
      expect(report.onActFiles.join(' '), report.route).not.toMatch(
        /airtable|slick|react-ga4|ios-issue-popup/i,
      );
    }
  });
});

test('the home page, compressed as the edge does, with its headers fits the first TCP window (14.6 KB)', async () => {
  const html = await readFile(join(BUILD, 'index.html'));
  const body = brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }).length;
  // The headers _headers gives every page, and 300 bytes of the host's own (status, date, type,
  // cache, length: 298 through the bench's stand-in edge, measured).
  const headers =
    /\/\*\n([\s\S]*?)\n\/assets/.exec(await readFile(join(BUILD, '_headers'), 'utf8'))?.[1] ?? '';
  expect(headers).toContain('Content-Security-Policy');
  expect(body + headers.length + 300).toBeLessThanOrEqual(14_600);
});

test.describe('with JavaScript disabled', () => {
  test.use({ javaScriptEnabled: false });

  for (const page of PAGES.filter((p) => p.path !== '/404')) {
    test(`${page.path} shows its full text content`, async ({ page: browserPage, network }) => {
      await browserPage.goto(page.path);
      const h1 = browserPage.locator('h1');
      await expect(h1).toBeVisible();
      await expect(h1).toHaveText(page.heading);
      for (const h2 of await browserPage.locator('main h2').all()) {
        if (
          await h2.evaluate(
            (el) => el.closest('.visually-hidden') === null && !el.classList.contains('visually-hidden'),
          )
        ) {
          await expect(h2).toBeVisible();
        }
      }
      await expect(browserPage.getByRole('contentinfo')).toBeVisible();
      expect(network.outside).toEqual([]);
    });
  }

  test('the home page shows every testimonial and the waitlist form as plain content', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('#waitlist')).toBeVisible();
    const quotes = page.locator('main blockquote');
    expect(await quotes.count()).toBeGreaterThanOrEqual(16);
    for (const quote of (await quotes.all()).slice(0, 16)) await expect(quote).toBeVisible();
  });
});

// Hydration keeping the prerendered DOM is checked on every route's visit in frame.spec.ts.
