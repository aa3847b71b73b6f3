import { SITE_FLAGS_URL } from './support/config.mjs';
import { documentTitle } from '#src/config/site.ts';
import { expect, expectConsoleErrors, test } from './support/fixtures.ts';
import { expectNoAxeViolations, pageViews } from './support/page.ts';
import { SITE_ROUTES } from './support/routes.ts';

test.describe('every route', () => {
  for (const route of SITE_ROUTES) {
    test(`${route.path} renders in the frame with one h1 and a title, hydrates the prerendered DOM without re-creating it, and has no accessibility violations`, async ({
      page,
      visit,
      network,
    }) => {
      await page.addInitScript(() => {
        document.addEventListener('DOMContentLoaded', () => {
          (window as unknown as { __prerenderedH1?: Element | null }).__prerenderedH1 =
            document.querySelector('h1');
        });
      });
      await visit(route.path);
      // Hydrated: React's handlers are attached to the prerendered nodes. A text-only page's
      // content is kept as markup inside a holder React owns (see src/app/lazy-page.tsx).
      await expect
        .poll(() =>
          page.evaluate(() => {
            const owned =
              document.querySelector('#main > [data-static-page]') ?? document.querySelector('h1');
            return Object.keys(owned ?? {}).some((k) => k.startsWith('__react'));
          }),
        )
        .toBe(true);
      expect(
        await page.evaluate(
          () =>
            (window as unknown as { __prerenderedH1?: Element | null }).__prerenderedH1 ===
            document.querySelector('h1'),
        ),
      ).toBe(true);
      await expect(page).toHaveTitle(documentTitle(route));
      await expect(page.locator('h1')).toHaveCount(1);
      await expect(page.locator('header.site-header')).toBeVisible();
      await expect(page.getByRole('contentinfo')).toBeVisible();
      expect(await page.locator('html').getAttribute('lang')).toBe('en-GB');
      const description = await page.locator('meta[name="description"]').getAttribute('content');
      expect(description?.length ?? 0).toBeGreaterThan(40);
      await expectNoAxeViolations(page, route.path);
      expect(network.outside).toEqual([]);
    });
  }

  test('an unknown path gets a 404 and the not-found page, whose button goes home', async ({
    page,
    visit,
    consoleErrors,
  }) => {
    const response = await page.goto('/this/does/not/exist');
    expect(response?.status()).toBe(404);
    await visit('/this/does/not/exist');
    await expect(page.getByRole('heading', { level: 1, name: 'This page is on mute...' })).toBeVisible();
    await page.getByRole('button', { name: 'Back to Home' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1, name: 'This page is on mute...' })).toHaveCount(0);
    expectConsoleErrors(consoleErrors, /status of 404/);
  });

  test('with SCHOOLS_PAGE off, /schools is not found and no Schools link shows', async ({
    page,
    visit,
    consoleErrors,
  }) => {
    await visit('/schools', { base: SITE_FLAGS_URL });
    await expect(page.getByRole('heading', { level: 1, name: 'This page is on mute...' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Schools', exact: true })).toHaveCount(0);
    expectConsoleErrors(consoleErrors, /status of 404/);
  });

  test('scrolls to top on route change', async ({ page, visit }) => {
    await visit('/privacy');
    await page.mouse.wheel(0, 2000);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Terms & Conditions' }).click();
    await expect(page).toHaveURL(/\/terms$/);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });
});

test.describe('header', () => {
  test('turns translucent only past 10 px of scroll', async ({ page, visit }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await visit('/privacy');
    const header = page.locator('header.site-header');
    const alpha = () =>
      header.evaluate((el) => {
        const match = getComputedStyle(el).backgroundColor.match(/rgba?\(([^)]+)\)/);
        const parts = match?.[1]?.split(/[ ,/]+/).filter(Boolean) ?? [];
        return parts.length === 4 ? Number(parts[3]) : 1;
      });
    await page.evaluate(() => window.scrollTo(0, 10));
    await expect(header).toHaveAttribute('data-scrolled', 'false');
    await expect.poll(alpha).toBe(1);
    await page.evaluate(() => window.scrollTo(0, 11));
    await expect(header).toHaveAttribute('data-scrolled', 'true');
    await expect.poll(alpha).toBeLessThan(1);
    await expect(header).toHaveCSS('position', 'fixed');
  });

  test('underlines the active route', async ({ page, visit }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await visit('/about');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'About Us' })).toHaveCSS('text-decoration-line', 'underline');
    await expect(nav.getByRole('link', { name: 'Home' })).not.toHaveCSS('text-decoration-line', 'underline');
  });

  test('on a phone, the menu toggle opens and closes the panel', async ({ page, visit }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await visit('/about');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    // A native disclosure: Chromium itself exposes its name and expanded state to assistive tech.
    const toggle = page.locator('summary.site-header__menu-button');
    const cdp = await page.context().newCDPSession(page);
    const expanded = async () => {
      const { root } = await cdp.send('DOM.getDocument');
      const { nodeId } = await cdp.send('DOM.querySelector', {
        nodeId: root.nodeId,
        selector: 'summary.site-header__menu-button',
      });
      const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
      return nodes[0]?.properties?.find((property) => property.name === 'expanded')?.value.value;
    };
    await expect(toggle).toHaveAccessibleName('Open menu');
    expect(await expanded()).toBe(false);
    await toggle.click();
    const panel = page.getByRole('navigation', { name: 'Mobile' });
    await expect(panel).toBeVisible();
    await expect(toggle).toHaveAccessibleName('Close menu');
    expect(await expanded()).toBe(true);
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    await expect(toggle).toHaveAccessibleName('Open menu');
    await expect(toggle).toBeFocused();
    await toggle.click();
    await panel.getByRole('link', { name: 'Product' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(panel).toBeHidden();
  });
});

test.describe('waitlist anchor', () => {
  test('#waitlist in the URL scrolls to the waitlist section', async ({ page, visit }) => {
    await visit('/#waitlist');
    await expect(page.locator('#waitlist')).toBeInViewport();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
  });

  test('the waitlist link from another page navigates home and scrolls there', async ({ page, visit }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await visit('/about');
    await page.getByRole('banner').getByRole('link', { name: 'Join the waitlist' }).click();
    await expect(page).toHaveURL(/\/#waitlist$/);
    await expect(page.locator('#waitlist')).toBeInViewport();
  });

  test('on the home page the waitlist link scrolls without navigating', async ({ page, visit }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await visit('/');
    const historyLength = await page.evaluate(() => history.length);
    await page.getByRole('banner').getByRole('link', { name: 'Join the waitlist' }).click();
    await expect(page.locator('#waitlist')).toBeInViewport();
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
    expect(await page.evaluate(() => history.length)).toBe(historyLength);
  });

  test('with reduced motion the jump is instant', async ({ page, visit }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.setViewportSize({ width: 1280, height: 800 });
    await visit('/');
    await page.getByRole('banner').getByRole('link', { name: 'Join the waitlist' }).click();
    // Instant: already there on the next frame, no smooth animation in between.
    expect(
      await page.evaluate(
        () =>
          new Promise((r) =>
            requestAnimationFrame(() => r(document.getElementById('waitlist')!.getBoundingClientRect().top)),
          ),
      ),
    ).toBeLessThan(200);
  });
});

test.describe('analytics consent', () => {
  test('loads nothing from analytics until accepted, then one page view per route change', async ({
    page,
    visit,
    network,
  }) => {
    await visit('/about', { consent: 'unset' });
    const banner = page.getByRole('region', { name: 'Can we count visits?' });
    await expect(banner).toBeVisible();
    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy', exact: true }).click();
    await expect(page).toHaveURL(/\/privacy$/);
    // The address changes before the new page is shown: accept once the visitor sees it.
    await expect(page.getByRole('heading', { level: 1, name: /Privacy/ })).toBeVisible();
    expect(network.analyticsScript).toEqual([]);
    expect(await page.evaluate(() => document.cookie)).toBe('');
    expect(await pageViews(page)).toEqual([]);

    await banner.getByRole('button', { name: 'Accept analytics' }).click();
    await expect(banner).toBeHidden();
    await expect.poll(() => network.analyticsScript.length).toBe(1);
    expect(network.analyticsScript[0]).toContain('id=G-E2ETEST01');
    await expect.poll(() => pageViews(page)).toEqual([['/privacy', 'Privacy Policy | Podling']]);

    await page.getByRole('contentinfo').getByRole('link', { name: 'Terms & Conditions' }).click();
    await expect
      .poll(() => pageViews(page))
      .toEqual([
        ['/privacy', 'Privacy Policy | Podling'],
        ['/terms', 'Terms & Conditions | Podling'],
      ]);
    await page.reload();
    await expect(page.getByRole('region', { name: 'Can we count visits?' })).toHaveCount(0);
    await expect.poll(() => pageViews(page)).toEqual([['/terms', 'Terms & Conditions | Podling']]);
    expect(network.outside).toEqual([]);
  });

  test('rejecting keeps analytics off across pages, and the choice can be changed from the footer', async ({
    page,
    visit,
    network,
  }) => {
    await visit('/', { consent: 'unset' });
    await page.getByRole('button', { name: 'Reject analytics' }).click();
    await page.getByRole('contentinfo').getByRole('link', { name: 'User Guidelines' }).click();
    await expect(page).toHaveURL(/\/guidelines$/);
    // The address changes before the new page is shown (its code loads first): until then the
    // visitor still sees, and a choice made then counts, the page they are leaving.
    await expect(page.getByRole('heading', { level: 1, name: 'User Guidelines' })).toBeVisible();
    expect(network.analyticsScript).toEqual([]);
    expect(await pageViews(page)).toEqual([]);
    await page.getByRole('button', { name: 'Cookie settings' }).click();
    await page.getByRole('button', { name: 'Accept analytics' }).click();
    await expect.poll(() => pageViews(page)).toEqual([['/guidelines', 'User Guidelines | Podling']]);
  });

  test('the banner is keyboard reachable', async ({ page, visit }) => {
    await visit('/about', { consent: 'unset' });
    for (let i = 0; i < 80; i += 1) {
      await page.keyboard.press('Tab');
      const name = await page.evaluate(() => document.activeElement?.textContent ?? '');
      if (name === 'Accept analytics') break;
    }
    await expect(page.getByRole('button', { name: 'Accept analytics' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('region', { name: 'Can we count visits?' })).toBeHidden();
  });
});
