import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { settle, stubEmbedHosts } from './support/page';

const CAROUSEL_HEADING = /^They use Podling/;
const VIDEO_PLAY = /^Play video:/;
const CALENDAR_URL = 'https://calendly.com/podling-schools/30min';
const CALENDAR_TITLE = 'Book a 30-minute call with the Podling schools team';
/** Autoplay interval (5000 ms) plus react-slick's 50 ms and the 2000 ms transition, with margin. */
const ONE_ROTATION_MS = 8_000;

function carousel(page: Page): Locator {
  return page.getByRole('region', { name: CAROUSEL_HEADING });
}

/** True once slick's own stylesheet is in the document (it should arrive with the lazy chunk). */
async function slickCssLoaded(page: Page): Promise<boolean> {
  return page.evaluate(() =>
    [...document.styleSheets].some((sheet) => {
      try {
        return [...sheet.cssRules].some((rule) => (rule as CSSStyleRule).selectorText === '.slick-list');
      } catch {
        return false;
      }
    }),
  );
}

/** Scrolls the carousel into view and waits for react-slick to take over from the stand-in. */
async function showSlider(page: Page): Promise<Locator> {
  const region = carousel(page);
  await region.scrollIntoViewIfNeeded();
  await expect(region.locator('.slick-initialized')).toBeVisible();
  await expect(region.getByRole('button', { name: /testimonials$/ })).toBeEnabled();
  return region;
}

async function firstActiveIndex(region: Locator): Promise<string | null> {
  return region.locator('.slick-slide.slick-active').first().getAttribute('data-index');
}

test.describe('testimonial carousel', () => {
  for (const [width, slides] of [
    [2200, 5],
    [1920, 4],
    [1536, 3],
    [1024, 2],
    [640, 1],
  ] as const) {
    test(`shows ${slides} slide(s) at ${width} px`, async ({ page, visit }) => {
      await page.setViewportSize({ width, height: 900 });
      await visit('/');
      const region = await showSlider(page);
      await expect(region.locator('.slick-slide.slick-active')).toHaveCount(slides);
      // Every active slide is on screen, side by side.
      const boxes = await region
        .locator('.slick-slide.slick-active')
        .evaluateAll((nodes) => nodes.map((node) => node.getBoundingClientRect().width));
      for (const boxWidth of boxes) expect(boxWidth).toBeGreaterThan(100);
    });
  }

  test('loads react-slick and its CSS only near the viewport, without shifting the layout', async ({
    page,
    visit,
    network,
  }) => {
    // A narrow, short window puts the carousel well beyond the 400 px load-ahead margin.
    await page.setViewportSize({ width: 640, height: 600 });
    await visit('/');
    const region = carousel(page);
    await expect(region.getByRole('list')).toBeVisible();
    const distance = await region.evaluate((node) => node.getBoundingClientRect().top - window.innerHeight);
    expect(distance, 'the carousel starts far below the first screen').toBeGreaterThan(500);
    await settle(page, network);
    expect(await region.locator('.slick-slider').count()).toBe(0);
    expect(await slickCssLoaded(page)).toBe(false);
    const viewport = region.locator('.carousel-viewport');
    const before = await viewport.evaluate((node) => node.getBoundingClientRect().height);

    await showSlider(page);
    expect(await slickCssLoaded(page)).toBe(true);
    const after = await viewport.evaluate((node) => node.getBoundingClientRect().height);
    expect(Math.abs(after - before)).toBeLessThanOrEqual(1);
  });

  test('autoplays about every 5 s, and the pause button stops it', async ({ page, visit }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await visit('/');
    const region = await showSlider(page);
    const start = await firstActiveIndex(region);
    await expect.poll(() => firstActiveIndex(region), { timeout: ONE_ROTATION_MS }).not.toBe(start);

    await region.getByRole('button', { name: 'Pause testimonials' }).click();
    await expect(region.getByRole('button', { name: 'Play testimonials' })).toBeVisible();
    await page.waitForTimeout(2_500); // let a transition already under way finish
    const paused = await firstActiveIndex(region);
    await page.waitForTimeout(ONE_ROTATION_MS);
    expect(await firstActiveIndex(region)).toBe(paused);

    await region.getByRole('button', { name: 'Play testimonials' }).click();
    await expect.poll(() => firstActiveIndex(region), { timeout: ONE_ROTATION_MS }).not.toBe(paused);
  });

  test('pauses while keyboard focus is inside', async ({ page, visit }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await visit('/');
    const region = await showSlider(page);
    await region.getByRole('button', { name: 'Next testimonial' }).focus();
    await page.waitForTimeout(2_500);
    const focused = await firstActiveIndex(region);
    await page.waitForTimeout(ONE_ROTATION_MS);
    expect(await firstActiveIndex(region)).toBe(focused);
  });

  test('does not autoplay under reduced motion', async ({ page, visit }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.setViewportSize({ width: 1280, height: 800 });
    await visit('/');
    const region = await showSlider(page);
    await expect(region.getByRole('button', { name: 'Play testimonials' })).toBeVisible();
    const start = await firstActiveIndex(region);
    await page.waitForTimeout(ONE_ROTATION_MS);
    expect(await firstActiveIndex(region)).toBe(start);
  });

  test('the previous and next buttons move the slides', async ({ page, visit }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.setViewportSize({ width: 1280, height: 800 });
    await visit('/');
    const region = await showSlider(page);
    const start = await firstActiveIndex(region);
    await region.getByRole('button', { name: 'Next testimonial' }).click();
    await expect.poll(() => firstActiveIndex(region)).toBe(String(Number(start) + 1));
    await page.waitForTimeout(2_100); // react-slick ignores clicks while a transition runs
    await region.getByRole('button', { name: 'Previous testimonial' }).click();
    await expect.poll(() => firstActiveIndex(region)).toBe(start);
  });

  test('leaves nothing focusable inside hidden slides or clones, before and after moving', async ({
    page,
    visit,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await visit('/');
    const region = await showSlider(page);
    const audit = () =>
      region.evaluate((root) => {
        const tabbable =
          'a[href], area[href], button, input, select, textarea, iframe, [contenteditable], [tabindex]:not([tabindex="-1"])';
        const hidden = [...root.querySelectorAll<HTMLElement>('.slick-slide')].filter(
          (slide) => !slide.classList.contains('slick-active'),
        );
        return {
          hidden: hidden.length,
          notInert: hidden.filter((slide) => !slide.hasAttribute('inert')).length,
          notAriaHidden: hidden.filter((slide) => slide.getAttribute('aria-hidden') !== 'true').length,
          focusable: hidden.flatMap((slide) => [...slide.querySelectorAll(tabbable)]).length,
          activeHidden: root.querySelectorAll(
            '.slick-slide.slick-active[aria-hidden="true"], .slick-active[inert]',
          ).length,
        };
      });
    const expected = { notInert: 0, notAriaHidden: 0, focusable: 0, activeHidden: 0 };
    await expect.poll(audit).toMatchObject(expected);
    expect((await audit()).hidden).toBeGreaterThan(0);
    await region.getByRole('button', { name: 'Pause testimonials' }).click();
    await region.getByRole('button', { name: 'Next testimonial' }).click();
    await page.waitForTimeout(2_300);
    await expect.poll(audit).toMatchObject(expected);

    // Tabbing through the carousel visits only its controls.
    await region.getByRole('button', { name: 'Play testimonials' }).focus();
    for (let step = 0; step < 3; step += 1) {
      await page.keyboard.press('Tab');
      const inHiddenSlide = await page.evaluate(
        () => document.activeElement?.closest('.slick-slide:not(.slick-active)') !== null,
      );
      expect(inHiddenSlide).toBe(false);
    }
  });
});

test.describe('video facade', () => {
  for (const path of ['/', '/schools']) {
    test(`${path}: no player or request to the video platform before the click, then the privacy-enhanced player`, async ({
      page,
      visit,
      network,
    }) => {
      await stubEmbedHosts(page, network);
      await page.setViewportSize({ width: 1280, height: 800 });
      await visit(path);
      const play = page.getByRole('button', { name: VIDEO_PLAY });
      await play.scrollIntoViewIfNeeded();
      await expect(play).toBeVisible();
      await settle(page, network);
      expect(await page.locator('iframe[src*="youtube"]').count()).toBe(0);
      expect(network.outside.filter((url) => /youtube|ytimg|googlevideo/.test(url))).toEqual([]);
      const box = page.locator('.video-facade');
      const before = await box.boundingBox();

      await play.click();
      const frame = page.locator('.video-facade iframe');
      await expect(frame).toHaveAttribute(
        'src',
        /^https:\/\/www\.youtube-nocookie\.com\/embed\/[\w-]+\?autoplay=1&rel=0$/,
      );
      await expect(frame).toHaveAttribute('title', /.+/);
      await expect(frame).toBeFocused();
      expect(await box.boundingBox()).toEqual(before);
      await expect.poll(() => network.outside.length).toBeGreaterThan(0);
      await expect(page.frameLocator('.video-facade iframe').getByText('Embed stand-in')).toBeVisible();
      for (const url of network.outside)
        expect(url).toMatch(/^https:\/\/www\.youtube-nocookie\.com\/embed\//);
    });
  }
});

test.describe('calendar embed', () => {
  test('the calendar frame gets its address only as it nears the viewport', async ({
    page,
    visit,
    network,
  }) => {
    await stubEmbedHosts(page, network);
    await page.setViewportSize({ width: 1280, height: 800 });
    await visit('/schools');
    const frame = page.getByTitle(CALENDAR_TITLE);
    await expect(frame).toHaveCount(1);
    await settle(page, network);
    expect(await frame.getAttribute('src')).toBeNull();
    expect(await frame.getAttribute('height')).toBe('1050');
    expect(network.outside.filter((url) => url.includes('calendly'))).toEqual([]);
    await expect(page.getByRole('link', { name: 'Open the booking page in a new tab' })).toHaveAttribute(
      'href',
      CALENDAR_URL,
    );

    await frame.scrollIntoViewIfNeeded();
    await expect(frame).toHaveAttribute('src', CALENDAR_URL);
    const height = await frame.evaluate((node) => node.getBoundingClientRect().height);
    expect(height).toBe(1050);
    await expect.poll(() => network.outside.some((url) => url.startsWith(CALENDAR_URL))).toBe(true);
    await expect(page.frameLocator('.calendar-embed iframe').getByText('Embed stand-in')).toBeVisible();
    for (const url of network.outside) expect(url.startsWith(CALENDAR_URL)).toBe(true);
  });
});
