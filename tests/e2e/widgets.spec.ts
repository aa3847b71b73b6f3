import type { Locator, Page } from '@playwright/test';
import { CAROUSEL } from '#src/config/constants.ts';
import { expect, test } from './support/fixtures.ts';
import { settle, stubEmbedHosts } from './support/page.ts';

const CAROUSEL_HEADING = /^They use Podling/;
const VIDEO_PLAY = /^Play video:/;
const CALENDAR_URL = 'https://calendly.com/podling-schools/30min';
const CALENDAR_TITLE = 'Book a 30-minute call with the Podling schools team';
/** react-slick waits this much longer than `autoplaySpeed` between slides. */
const SLICK_AUTOPLAY_SLACK_MS = 50;
/** One autoplay step: the interval, react-slick's slack and the transition. */
const ONE_ROTATION_MS = CAROUSEL.autoplaySpeedMs + SLICK_AUTOPLAY_SLACK_MS + CAROUSEL.transitionSpeedMs;
/** How finely the carousel's timing tests step the page's clock. */
const CLOCK_STEP_MS = 250;

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

/**
 * Stops the page's clock (installed before the visit): from here on time moves only
 * when `advance` moves it, so the carousel's timing is tested without waiting for it.
 */
async function freezeClock(page: Page): Promise<void> {
  // A moment ahead: the page's clock runs on while the test asks for its time.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 500);
}

/**
 * Moves the page's clock on by `ms` in steps of at most CLOCK_STEP_MS, as time would pass: after
 * each step React renders what the timers changed (in a task its scheduler posts as a message,
 * which the clock does not fake), and timers set in that work fire at the next step. react-slick
 * ends a transition that way: a timer, a render, then a 10 ms timer before it takes clicks again.
 */
async function advance(page: Page, ms: number): Promise<void> {
  for (let left = ms; left > 0; left -= CLOCK_STEP_MS) {
    await page.clock.runFor(Math.min(left, CLOCK_STEP_MS));
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const channel = new MessageChannel();
          let rounds = 2;
          channel.port1.onmessage = () => (--rounds === 0 ? resolve() : channel.port2.postMessage(null));
          channel.port2.postMessage(null);
        }),
    );
  }
}

/** Long enough for a transition to end and react-slick to take clicks again. */
const TRANSITION_END_MS = CAROUSEL.transitionSpeedMs + CLOCK_STEP_MS;

/** Steps the clock until the first visible slide changes and returns the page's time at that moment. */
async function nextSlideChange(page: Page, region: Locator): Promise<number> {
  const from = await firstActiveIndex(region);
  for (let elapsed = 0; elapsed <= 2 * ONE_ROTATION_MS; elapsed += CLOCK_STEP_MS) {
    await advance(page, CLOCK_STEP_MS);
    if ((await firstActiveIndex(region)) !== from) return page.evaluate(() => Date.now());
  }
  throw new Error(`the slides did not move within ${2 * ONE_ROTATION_MS} ms`);
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

  test('autoplays every 5 s, and the pause button stops it', async ({ page, visit }) => {
    await page.clock.install();
    await page.setViewportSize({ width: 1280, height: 800 });
    await visit('/');
    const region = await showSlider(page);
    await freezeClock(page);
    const first = await nextSlideChange(page, region);
    const second = await nextSlideChange(page, region);
    expect(second - first, 'time between two slides').toBeGreaterThanOrEqual(CAROUSEL.autoplaySpeedMs);
    expect(second - first, 'time between two slides').toBeLessThanOrEqual(
      CAROUSEL.autoplaySpeedMs + SLICK_AUTOPLAY_SLACK_MS + CLOCK_STEP_MS,
    );

    await region.getByRole('button', { name: 'Pause testimonials' }).click();
    await expect(region.getByRole('button', { name: 'Play testimonials' })).toBeVisible();
    await advance(page, TRANSITION_END_MS); // a transition already under way ends
    const paused = await firstActiveIndex(region);
    await advance(page, 2 * ONE_ROTATION_MS);
    expect(await firstActiveIndex(region)).toBe(paused);

    await region.getByRole('button', { name: 'Play testimonials' }).click();
    await nextSlideChange(page, region);
  });

  test('pauses while keyboard focus is inside', async ({ page, visit }) => {
    await page.clock.install();
    await page.setViewportSize({ width: 1280, height: 800 });
    await visit('/');
    const region = await showSlider(page);
    await freezeClock(page);
    await region.getByRole('button', { name: 'Next testimonial' }).focus();
    await advance(page, TRANSITION_END_MS);
    const focused = await firstActiveIndex(region);
    await advance(page, 2 * ONE_ROTATION_MS);
    expect(await firstActiveIndex(region)).toBe(focused);
  });

  test('does not autoplay under reduced motion', async ({ page, visit }) => {
    await page.clock.install();
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.setViewportSize({ width: 1280, height: 800 });
    await visit('/');
    const region = await showSlider(page);
    await freezeClock(page);
    await expect(region.getByRole('button', { name: 'Play testimonials' })).toBeVisible();
    const start = await firstActiveIndex(region);
    await advance(page, 2 * ONE_ROTATION_MS);
    expect(await firstActiveIndex(region)).toBe(start);
  });

  test('the previous and next buttons move the slides', async ({ page, visit }) => {
    await page.clock.install();
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.setViewportSize({ width: 1280, height: 800 });
    await visit('/');
    const region = await showSlider(page);
    await freezeClock(page);
    const start = await firstActiveIndex(region);
    await region.getByRole('button', { name: 'Next testimonial' }).click();
    await advance(page, TRANSITION_END_MS); // react-slick ignores clicks while a transition runs
    expect(await firstActiveIndex(region)).toBe(String(Number(start) + 1));
    await region.getByRole('button', { name: 'Previous testimonial' }).click();
    await advance(page, TRANSITION_END_MS);
    expect(await firstActiveIndex(region)).toBe(start);
  });

  test('leaves nothing focusable inside hidden slides or clones, before and after moving', async ({
    page,
    visit,
  }) => {
    await page.clock.install();
    await page.setViewportSize({ width: 1280, height: 800 });
    await visit('/');
    const region = await showSlider(page);
    await freezeClock(page);
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
    await advance(page, TRANSITION_END_MS);
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
  test('the calendar frame is created only as it nears the viewport, in the place held for it', async ({
    page,
    visit,
    network,
  }) => {
    await stubEmbedHosts(page, network);
    await page.setViewportSize({ width: 1280, height: 800 });
    await visit('/schools');
    const box = page.locator('.calendar-embed__box');
    await expect(box).toHaveCount(1);
    await settle(page, network);
    await expect(page.locator('iframe')).toHaveCount(0);
    expect(network.outside.filter((url) => url.includes('calendly'))).toEqual([]);
    const heightBefore = await box.evaluate((node) => node.getBoundingClientRect().height);
    expect(heightBefore).toBe(1050); // the frame's height, held before the frame exists
    await expect(page.getByRole('link', { name: 'Open the booking page in a new tab' })).toHaveAttribute(
      'href',
      CALENDAR_URL,
    );

    await box.scrollIntoViewIfNeeded();
    const frame = page.getByTitle(CALENDAR_TITLE);
    await expect(frame).toHaveAttribute('src', CALENDAR_URL);
    expect(await frame.evaluate((node) => node.getBoundingClientRect().height)).toBe(1050);
    expect(await box.evaluate((node) => node.getBoundingClientRect().height)).toBe(heightBefore);
    await expect.poll(() => network.outside.some((url) => url.startsWith(CALENDAR_URL))).toBe(true);
    await expect(page.frameLocator('.calendar-embed iframe').getByText('Embed stand-in')).toBeVisible();
    for (const url of network.outside) expect(url.startsWith(CALENDAR_URL)).toBe(true);
  });
});
