// @ts-check
/**
 * `npm run bench`'s interaction to next paint (after Lighthouse, in the same Chromium): the phone
 * profile (412 × 823, touch, CPU 4× slower by Chrome's throttling) from the browser's Event Timing
 * entries (durationThreshold 16; an act's figure is its longest interaction's, 0 when none is over
 * 16 ms), for a text page's first act, which loads the app, and each form's first focus, keystroke
 * and on-blur message once the app has taken it over. Figures only: no target is enforced.
 */
import { chromium } from '@playwright/test';

/** @typedef {import('@playwright/test').Page} Page */
/** @typedef {[string, (page: Page) => Promise<unknown>][]} Acts (what the visitor does, named) */

/** The form's email box. @param {Page} page */
const email = (page) => page.getByRole('textbox', { name: /email address/i });
const INVALID = 'Please enter a valid email address';
/** @type {Acts} */
const FORM_ACTS = [
  ['first focus (tap)', (page) => email(page).tap()],
  ['first keystroke', (page) => page.keyboard.press('a')],
  [
    'on-blur message (Tab)',
    (page) => page.keyboard.press('Tab').then(() => page.getByText(INVALID).waitFor()),
  ],
];
/** @type {[string, Acts][]} */
const SCENARIOS = [
  ['/about', [['first act: Tab (loads the app)', (page) => page.keyboard.press('Tab')]]],
  [
    '/404-bench',
    [['first act: tap its button (loads the app)', (page) => page.locator('#main button').tap()]],
  ],
  ['/', FORM_ACTS],
  ['/schools', FORM_ACTS],
];

/** The longest interaction's Event Timing duration since the last call (waits up to 3 s for one). @param {Page} page */
const longestInteraction = (page) =>
  page.evaluate(async () => {
    const seen = () => /** @type {PerformanceEventTiming[]} */ (Reflect.get(globalThis, 'inp'));
    for (let waited = 0; seen().length === 0 && waited < 3000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const durations = seen().map((entry) => entry.duration);
    Reflect.set(globalThis, 'inp', []);
    return Math.max(0, ...durations);
  });

/**
 * Each act's figures, `runs` fresh visits each (interleaved), keyed 'route\tact'.
 * @param {string} siteUrl @param {number} chromePort @param {number} runs
 */
export async function measureInteractions(siteUrl, chromePort, runs) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chromePort}`);
  /** @type {Map<string, number[]>} */
  const figures = new Map();
  for (let run = 1; run <= runs; run += 1) {
    process.stderr.write(`interactions, run ${run}/${runs}…\n`);
    for (const [route, acts] of SCENARIOS) {
      const context = await browser.newContext({ viewport: { width: 412, height: 823 }, hasTouch: true });
      // A stored choice: the banner stays closed and counts nothing.
      await context.addInitScript(() => localStorage.setItem('podling.analytics-consent.v1', 'denied'));
      await context.addInitScript(() => {
        Reflect.set(globalThis, 'inp', []);
        new PerformanceObserver((list) => {
          const into = /** @type {PerformanceEventTiming[]} */ (Reflect.get(globalThis, 'inp'));
          for (const entry of /** @type {PerformanceEventTiming[]} */ (list.getEntries()))
            if (entry.interactionId) into.push(entry);
        }).observe(/** @type {PerformanceObserverInit} */ ({ type: 'event', durationThreshold: 16 }));
      });
      const page = await context.newPage();
      await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await page.goto(`${siteUrl}${route}`);
      await page.locator('html[data-hydrated="true"], html[data-waits-for-visitor]').waitFor();
      // A visitor reaches a form taken over: scrolled to, it wakes a waiting page's app.
      if (acts === FORM_ACTS) {
        await email(page).scrollIntoViewIfNeeded();
        await page.locator('html[data-hydrated="true"]').waitFor();
      }
      await page.evaluate(() => Reflect.set(globalThis, 'inp', []));
      for (const [act, perform] of acts) {
        await perform(page);
        const key = `${route}\t${act}`;
        figures.set(key, [...(figures.get(key) ?? []), await longestInteraction(page)]);
      }
      await context.close();
    }
  }
  await browser.close();
  return figures;
}
