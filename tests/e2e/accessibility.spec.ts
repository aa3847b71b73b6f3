import type { Locator, Page } from '@playwright/test';
import {
  afterPaint,
  clippedText,
  focusCover,
  headingOutline,
  horizontalOverflow,
  REFLOW_VIEWPORT,
  TEXT_SPACING_CSS,
  undersizedTargets,
  VIEWPORTS,
} from './support/accessibility.ts';
import { addFault, QUOTES_TABLE, recordsFor, WAITLIST_TABLE } from './support/emulator.ts';
import { expect, expectConsoleErrors, test, type Visit, type VisitOptions } from './support/fixtures.ts';
import { FAILURE_TOAST, QUOTE_FORM, WAITLIST_FORM } from './support/forms.ts';
import { openHome, openSchoolsPage, stubCalendarWithNoContent, uniqueEmail } from './support/page.ts';
import { NOT_FOUND_PATH, SITE_PATHS } from './support/routes.ts';

/**
 * WCAG 2.2 AA where axe cannot look (issue 15): geometry, focus, live regions and computed
 * styles, on every route at a phone and a desktop width.
 */

const EVERY_PATH = [...SITE_PATHS, NOT_FOUND_PATH];
const BANNER_NAME = 'Can we count visits?';
/** More Tab presses than any page has controls: reaching it means focus never got to the banner. */
const MAX_TABS = 250;

/** Opens a path and, for the not-found page, accepts the browser's note on the 404 status. */
async function open(
  visit: Visit,
  consoleErrors: string[],
  path: string,
  options?: VisitOptions,
): Promise<void> {
  await visit(path, options);
  if (path === NOT_FOUND_PATH) expectConsoleErrors(consoleErrors, /status of 404/);
}

/** Presses Tab until `target` has focus; fails if it never does. */
async function tabTo(page: Page, target: Locator): Promise<void> {
  for (let presses = 0; presses < MAX_TABS; presses += 1) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

/** The aria-live politeness that applies to an element (its own or its nearest live ancestor's). */
const livePoliteness = (locator: Locator) =>
  locator.evaluate((element) => {
    const live = element.closest('[aria-live], [role="status"], [role="alert"], [role="log"]');
    if (!live) return null;
    const role = live.getAttribute('role');
    return live.getAttribute('aria-live') ?? (role === 'alert' ? 'assertive' : 'polite');
  });

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width} px (${viewport.name})`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    for (const path of EVERY_PATH) {
      // One visit per page and width, in the order the checks need it: the first paint before
      // anything moves, the banner open (as a first visitor sees it; on the phone, narrowed to
      // 320 CSS px and back for reflow), then closed.
      test(`${path}: ${viewport.name === 'phone' ? 'no horizontal scrolling at 320 CSS px with the banner open (1.4.10); ' : ''}the banner is never the largest paint; tabbing with it open never hides focus (2.4.11); text spacing (1.4.12) and 200% text (1.4.4) clip nothing; every control is at least 24×24 px or spaced (2.5.8); one h1 and no skipped heading levels (1.3.1)`, async ({
        page,
        visit,
        network,
        consoleErrors,
      }) => {
        await stubCalendarWithNoContent(page, network);
        await open(visit, consoleErrors, path, { consent: 'unset' });
        const banner = page.getByRole('region', { name: BANNER_NAME });
        await expect(banner).toBeVisible();

        if (path !== NOT_FOUND_PATH) {
          await test.step('the cookie banner is never the largest contentful paint', async () => {
            await afterPaint(page);
            const largestInBanner = await page.evaluate(
              () =>
                new Promise<boolean>((resolve) => {
                  new PerformanceObserver((list) => {
                    const entries = list.getEntries() as (PerformanceEntry & { element: Element | null })[];
                    const last = entries.at(-1);
                    resolve(Boolean(last?.element?.closest('.consent-banner')));
                  }).observe({ type: 'largest-contentful-paint', buffered: true });
                }),
            );
            expect(largestInBanner, 'the banner is the largest contentful paint').toBe(false);
          });
        }

        if (viewport.name === 'phone') {
          await test.step('narrowed to 320 CSS px, as 400 % zoom does, nothing scrolls sideways (1.4.10)', async () => {
            await page.setViewportSize(REFLOW_VIEWPORT);
            await expect(banner).toBeVisible();
            await afterPaint(page);
            expect(await horizontalOverflow(page)).toBe(0);
            await page.setViewportSize({ width: viewport.width, height: viewport.height });
          });
        }

        await test.step('tabbing with the banner open never hides the focused control (2.4.11)', async () => {
          const hidden: string[] = [];
          let reachedBanner = false;
          for (let presses = 0; presses < MAX_TABS && !reachedBanner; presses += 1) {
            await page.keyboard.press('Tab');
            const cover = await focusCover(page);
            if (!cover) continue;
            if (cover.hiddenBy) {
              hidden.push(
                `${cover.label} ${cover.hiddenBy === 'off screen' ? 'off screen' : `under the ${cover.hiddenBy}`}`,
              );
            }
            reachedBanner = cover.inBanner;
          }
          expect(reachedBanner, 'Tab reaches the banner after the page').toBe(true);
          expect(hidden).toEqual([]);
        });

        await test.step("the banner's controls are at least 24×24 px or spaced (2.5.8)", async () => {
          expect(await undersizedTargets(page, '.consent-banner')).toEqual([]);
        });

        await test.step('text spacing overrides (1.4.12) and text enlarged to 200% (1.4.4) clip nothing', async () => {
          const spacingStyle = await page.addStyleTag({ content: TEXT_SPACING_CSS });
          // The override is in force: a paragraph's computed spacing is the rule's.
          const spacing = await page
            .locator('main p')
            .first()
            .evaluate((p) => {
              const style = getComputedStyle(p);
              const size = parseFloat(style.fontSize);
              return {
                lineHeight: parseFloat(style.lineHeight) / size,
                letterSpacing: parseFloat(style.letterSpacing) / size,
              };
            });
          expect(spacing.lineHeight).toBeCloseTo(1.5, 1);
          expect(spacing.letterSpacing).toBeCloseTo(0.12, 2);
          await afterPaint(page);
          expect(await clippedText(page), 'clipped with text spacing').toEqual([]);
          expect(await horizontalOverflow(page)).toBe(0);

          // Then the spacing goes, and the text size doubles instead.
          await spacingStyle.evaluate((style) => (style as Element).remove());
          const sizes = () =>
            page.evaluate(() => ({
              text: parseFloat(getComputedStyle(document.body).fontSize),
              h1: parseFloat(getComputedStyle(document.querySelector('h1') as Element).fontSize),
            }));
          const before = await sizes();
          // What a browser's text-size setting does: the root font size doubles, layout width does not.
          const doubled = await page.addStyleTag({ content: 'html { font-size: 200% !important; }' });
          const after = await sizes();
          expect(after.text).toBeCloseTo(before.text * 2, 0);
          // Headings are already large: they grow by half at least, body text doubles.
          expect(after.h1).toBeGreaterThanOrEqual(before.h1 * 1.5);
          await afterPaint(page);
          expect(await clippedText(page), 'clipped at 200 %').toEqual([]);
          expect(await horizontalOverflow(page)).toBe(0);
          await doubled.evaluate((style) => (style as Element).remove());
        });

        await test.step("with the banner closed, the page's own controls and headings", async () => {
          await banner.getByRole('button', { name: 'Reject analytics' }).click();
          await expect(banner).toBeHidden();
          expect(await undersizedTargets(page)).toEqual([]);

          const outline = await headingOutline(page);
          expect(outline.filter((heading) => heading.level === 1)).toHaveLength(1);
          expect(outline[0]?.level, 'the first heading is the h1').toBe(1);
          const skips = outline.filter((heading, index) => {
            const previous = outline[index - 1];
            return previous !== undefined && heading.level > previous.level + 1;
          });
          expect(skips, 'headings that skip a level').toEqual([]);

          // "Cookie settings" brings the banner back over the page.
          await page.getByRole('button', { name: 'Cookie settings' }).click();
          await expect(banner).toBeVisible();
        });
      });
    }

    test('forced colours keep checked cards, focus rings, buttons and the active link visible', async ({
      page,
      visit,
    }) => {
      await page.emulateMedia({ forcedColors: 'active' });
      await openHome(page, visit);
      expect(await page.evaluate(() => matchMedia('(forced-colors: active)').matches)).toBe(true);

      // A checked card differs from an unchecked one by more than its (now forced) background.
      const use = page.getByRole('checkbox', { name: 'Use Podling', exact: true });
      await tabTo(page, use);
      await page.keyboard.press('Space');
      await expect(use).toBeChecked();
      const card = (name: string) =>
        page.getByRole('checkbox', { name, exact: true }).evaluate((input) => {
          const label = input.closest('label') as HTMLElement;
          const style = getComputedStyle(label);
          const tick = label.querySelector('svg') as SVGElement;
          return {
            border: `${style.borderTopStyle} ${style.borderTopWidth}`,
            outline: style.outlineStyle,
            tickVisible: getComputedStyle(tick).visibility === 'visible',
          };
        });
      const checked = await card('Use Podling');
      const unchecked = await card('Invest in Podling');
      expect(checked.tickVisible).toBe(true);
      expect(unchecked.tickVisible).toBe(false);
      expect(checked.border).not.toBe(unchecked.border);
      // The focused card shows a ring drawn as an outline (box shadows vanish in forced colours).
      expect(checked.outline).not.toBe('none');

      // Every button draws its edge, so its target is visible without a background.
      const edgeless = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('button, a.button')]
          .filter(
            (element) =>
              element.getBoundingClientRect().width > 1 && !element.closest('[aria-hidden="true"]'),
          )
          .filter((element) => getComputedStyle(element).visibility !== 'hidden')
          .filter((element) => !element.classList.contains('link-button'))
          .filter((element) => {
            const style = getComputedStyle(element);
            return style.borderTopStyle === 'none' || parseFloat(style.borderTopWidth) < 1;
          })
          .map((element) => element.getAttribute('aria-label') ?? element.textContent?.trim() ?? ''),
      );
      expect(edgeless, 'buttons without a visible edge').toEqual([]);

      // Focus rings are outlines on links, buttons and fields alike.
      for (const control of [
        page.getByRole('textbox', { name: WAITLIST_FORM.emailLabel }),
        page.getByRole('link', { name: /App Store/ }),
      ]) {
        await tabTo(page, control);
        const ring = await control.evaluate((element) => {
          const style = getComputedStyle(element);
          return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
        });
        expect(ring.style).not.toBe('none');
        expect(ring.width).toBeGreaterThanOrEqual(2);
      }

      // The header marks the current page with a line forced colours keep.
      const links = page.locator('.site-header__link, .site-header__panel-link');
      const marks = await links.evaluateAll((elements) =>
        elements
          .filter((element) => element.getBoundingClientRect().width > 0)
          .map((element) => {
            const style = getComputedStyle(element);
            const underline = style.textDecorationLine.includes('underline');
            // The colour the link sits on: its own background or the nearest painted ancestor's.
            let surface: Element | null = element;
            const clear = (color: string) => /^rgba\(.*,\s*0\)$/.test(color);
            let backdrop = 'rgba(0, 0, 0, 0)';
            while (surface && clear(backdrop)) {
              backdrop = getComputedStyle(surface).backgroundColor;
              surface = surface.parentElement;
            }
            const border = style.borderBottomStyle !== 'none' && parseFloat(style.borderBottomWidth) >= 2;
            // Same red, green and blue as the surface: invisible, whatever the surface's alpha (the
            // scrolled header is Canvas at 90 % in forced colours, its links' hidden line Canvas).
            const rgb = (color: string) => (color.match(/[\d.]+/g) ?? []).slice(0, 3).join(',');
            const borderShows =
              border && rgb(style.borderBottomColor) !== rgb(backdrop) && !clear(style.borderBottomColor);
            return { active: element.classList.contains('active'), marked: underline || borderShows };
          }),
      );
      if (viewport.name === 'desktop') {
        expect(marks.filter((mark) => mark.active)).toEqual([{ active: true, marked: true }]);
        expect(marks.filter((mark) => !mark.active && mark.marked)).toEqual([]);
      }
    });
  });
}

test.describe('keyboard-only journeys', () => {
  test('the home waitlist form: choose, type, submit, and focus lands on the confirmation', async ({
    page,
    visit,
    request,
  }, testInfo) => {
    const email = uniqueEmail(testInfo, 'keyboard');
    await openHome(page, visit);
    await tabTo(page, page.getByRole('checkbox', { name: 'Partner with Podling', exact: true }));
    await page.keyboard.press('Space');
    await tabTo(page, page.getByRole('textbox', { name: WAITLIST_FORM.emailLabel }));
    await page.keyboard.type(email);
    await page.keyboard.press('Enter');
    const confirmation = page.getByRole('status').filter({ hasText: WAITLIST_FORM.joinedText });
    await expect(confirmation).toBeFocused();
    await expect.poll(async () => (await recordsFor(request, WAITLIST_TABLE, email)).length).toBe(1);
  });

  test('the schools quote form: fill every field, submit, and focus lands on the thank-you', async ({
    page,
    visit,
    network,
    request,
  }, testInfo) => {
    const email = uniqueEmail(testInfo, 'keyboard-quote');
    await stubCalendarWithNoContent(page, network);
    await openSchoolsPage(page, visit);
    for (const [name, value] of [
      ['Your Name', 'Ada Keyboard'],
      [QUOTE_FORM.emailLabel, email],
      ['School/Institution Name', 'Tab Primary'],
      ['Role', 'Teacher'],
    ] as const) {
      await tabTo(page, page.getByRole('textbox', { name, exact: true }));
      await page.keyboard.type(value);
    }
    await tabTo(page, page.getByRole('checkbox', { name: 'Support Learners', exact: true }));
    await page.keyboard.press('Space');
    await tabTo(page, page.getByRole('button', { name: QUOTE_FORM.submitText }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: QUOTE_FORM.thankYouTitle })).toBeFocused();
    await expect.poll(async () => (await recordsFor(request, QUOTES_TABLE, email)).length).toBe(1);
  });
});

test.describe('live regions (4.1.3)', () => {
  test('a failure toast is announced politely', async ({ page, visit, request, consoleErrors }, testInfo) => {
    await openHome(page, visit);
    const email = uniqueEmail(testInfo, 'toast');
    // Only this test's requests meet the fault: other tests sign up in parallel.
    await addFault(request, { table: WAITLIST_TABLE, count: 1, status: 500, match: email });
    await page.getByRole('textbox', { name: WAITLIST_FORM.emailLabel }).fill(email);
    await page.getByRole('button', { name: WAITLIST_FORM.submitText }).click();
    const toast = page.getByText(FAILURE_TOAST);
    await expect(toast).toBeVisible();
    expect(await livePoliteness(toast)).toMatch(/polite|assertive/);
    expectConsoleErrors(consoleErrors, /Waitlist sign-up failed|status of 500/);
  });

  test('the quote success toast is announced politely', async ({ page, visit, network }, testInfo) => {
    await stubCalendarWithNoContent(page, network);
    await openSchoolsPage(page, visit);
    await page.getByRole('textbox', { name: 'Your Name', exact: true }).fill('Live Region');
    await page
      .getByRole('textbox', { name: QUOTE_FORM.emailLabel, exact: true })
      .fill(uniqueEmail(testInfo, 'live'));
    await page.getByRole('button', { name: QUOTE_FORM.submitText }).click();
    const toast = page.getByText(QUOTE_FORM.successToast);
    await expect(toast).toBeVisible();
    expect(await livePoliteness(toast)).toMatch(/polite|assertive/);
  });

  test.describe('carousel', () => {
    test.use({ viewport: { width: 1280, height: 800 } });

    test('under reduced motion it does not rotate and Next changes the slide at once', async ({
      page,
      visit,
    }) => {
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await visit('/');
      const carousel = page.getByRole('region', { name: 'They use Podling' });
      await carousel.scrollIntoViewIfNeeded();
      await expect(carousel.getByRole('button', { name: 'Play testimonials' })).toBeEnabled();
      const slides = carousel.getByRole('group', { name: /^\d+ of 16$/ });
      await expect(slides.first()).toHaveAccessibleName('1 of 16');
      await carousel.getByRole('button', { name: 'Next testimonial' }).click();
      // The normal transition takes 2000 ms: the change must land well before that.
      await expect(slides.first()).toHaveAccessibleName('2 of 16', { timeout: 500 });
    });

    test('slides are groups named N of M; changes are announced only while autoplay is off', async ({
      page,
      visit,
    }) => {
      await visit('/');
      const carousel = page.getByRole('region', { name: 'They use Podling' });
      await carousel.scrollIntoViewIfNeeded();
      const pause = carousel.getByRole('button', { name: 'Pause testimonials' });
      await expect(pause).toBeEnabled();
      // Hidden slides and slick's clones are aria-hidden, so only the slides in view are groups.
      const slides = carousel.getByRole('group', { name: /^\d+ of 16$/ });
      await expect(slides.first()).toHaveAttribute('aria-roledescription', 'slide');
      const live = slides.first().locator('xpath=ancestor::*[@aria-live][1]');
      await expect(live).toHaveAttribute('aria-live', 'off');

      await pause.click();
      await expect(carousel.getByRole('button', { name: 'Play testimonials' })).toBeVisible();
      await expect(live).toHaveAttribute('aria-live', 'polite');
      const firstBefore = await slides.first().getAttribute('aria-label');
      await carousel.getByRole('button', { name: 'Next testimonial' }).click();
      await expect(slides.first()).not.toHaveAccessibleName(firstBefore ?? '');
      expect(await livePoliteness(slides.first())).toBe('polite');
    });
  });
});
