import { test as base, expect, type Page, type Request } from '@playwright/test';
import { GA_SCRIPT_URL } from './config.mjs';
import { HYDRATED_ATTRIBUTE, WAITS_FOR_VISITOR_ATTRIBUTE } from '#src/lib/page-marks.ts';

export type NetworkLog = {
  /** Every request the page made to an address that is not on loopback (none should happen). */
  outside: string[];
  /** Requests for the analytics script (served by a loopback stand-in). */
  analyticsScript: string[];
  /** The site's own requests (the top document's, not embedded frames') still under way. */
  pending: Set<Request>;
  /** How many requests the site's own document has started so far. */
  started: number;
};

/** How `visit` opens a path: the cookie choice made beforehand, and the site to open it on. */
export type VisitOptions = { consent?: 'granted' | 'denied' | 'unset'; base?: string };

/** Opens a path with the cookie choice already made, so the banner stays out of the way. */
export type Visit = (path: string, options?: VisitOptions) => Promise<void>;

/** A test's own client address (10.x.y.z), stable for the test and distinct between tests. */
function visitorAddress(id: string): string {
  let hash = 2166136261;
  for (const char of id) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  return `10.${(hash >>> 16) & 255}.${(hash >>> 8) & 255}.${1 + (hash % 254)}`;
}

/** The headers that make a request come from `address`, through the proxy the servers trust. */
const fromAddress = (address: string) => ({ 'x-forwarded-for': address, 'cf-connecting-ip': address });

type Fixtures = {
  network: NetworkLog;
  consoleErrors: string[];
  /** Opens a path with the cookie choice already made, so the banner stays out of the way. */
  visit: Visit;
};

const LOOPBACK = /^(https?|wss?):\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\//;

const GTAG_STAND_IN = 'window.__gtagStandInLoaded = (window.__gtagStandInLoaded || 0) + 1;';

type Listener = (...args: unknown[]) => void;
/** The Node-style EventEmitter methods Playwright's Page has at runtime but leaves out of its types. */
type EventEmitterView = {
  eventNames(): (string | symbol)[];
  listeners(name: string | symbol): Listener[];
  off(name: string | symbol, listener: Listener): void;
};

/** The page's event listeners: which are there now, and removing every one added since. */
function listenersOf(page: Page) {
  const emitter = page as unknown as EventEmitterView;
  return {
    snapshot: () => new Set(emitter.eventNames().flatMap((name) => emitter.listeners(name))),
    removeAllBut: (kept: Set<Listener>) => {
      for (const name of emitter.eventNames()) {
        for (const listener of emitter.listeners(name)) if (!kept.has(listener)) emitter.off(name, listener);
      }
    },
  };
}

/**
 * Watches the page's clock for a pause, so the test's end can resume it and wait for that.
 *
 * Playwright resumes a clock a test left paused by itself when the test ends, without waiting
 * (`resumeNoReply`). In a reused context that races the reset: the init script the resume adds
 * can outlive the reset, and it then throws "Cannot read properties of undefined (reading
 * 'controller')" in every page of the next test. Resumed here, awaited, nothing is left over.
 */
function watchClockPause(page: Page) {
  const clock = page.clock;
  const pauseAt = clock.pauseAt.bind(clock);
  let paused = false;
  clock.pauseAt = async (time) => {
    paused = true;
    await pauseAt(time);
  };
  return async () => {
    delete (clock as Partial<typeof clock>).pauseAt;
    if (paused) await clock.resume();
  };
}

/**
 * How often a wait for a condition in the page checks it. Playwright's default checks on every
 * animation frame, which keeps the page drawing 60 frames a second for as long as it waits (a
 * fault-matrix test drew 174 main frames with it, 88 without: docs/tests.md).
 */
export const PAGE_POLL_MS = 50;

/** Waits until React has taken over the prerendered page (the site sets `data-hydrated`). */
export async function untilHydrated(page: Page): Promise<void> {
  await page.waitForFunction(
    (name) => document.documentElement.getAttribute(name) === 'true',
    HYDRATED_ATTRIBUTE,
    { polling: PAGE_POLL_MS },
  );
}

/**
 * Waits until the page is ready for its visitor: the app has taken it over, or (a text page) it
 * waits for the visitor's first act, its inline script in charge until then.
 */
export async function untilReady(page: Page): Promise<void> {
  await page.waitForFunction(
    ([hydrated, waits]) =>
      document.documentElement.getAttribute(hydrated) === 'true' ||
      document.documentElement.hasAttribute(waits),
    [HYDRATED_ATTRIBUTE, WAITS_FOR_VISITOR_ATTRIBUTE] as const,
    { polling: PAGE_POLL_MS },
  );
}

/**
 * A first act that changes nothing on the page (Escape with no menu open), so a text page loads
 * the app; then waits until the app has taken it over. The act comes once the page has painted,
 * as a visitor's would: input ends the browser's largest-paint reports, which some tests read.
 */
export async function actUntilHydrated(page: Page): Promise<void> {
  await untilReady(page);
  const waits = await page.evaluate(
    (name) => document.documentElement.hasAttribute(name),
    WAITS_FOR_VISITOR_ATTRIBUTE,
  );
  if (waits) {
    // An observer: a test's fake clock (page.clock) answers performance.getEntriesByName with [].
    await page.evaluate(
      () =>
        new Promise<void>((painted) =>
          new PerformanceObserver((entries, observer) => {
            if (entries.getEntriesByName('first-contentful-paint').length === 0) return;
            observer.disconnect();
            painted();
          }).observe({ type: 'paint', buffered: true }),
        ),
    );
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    await page.keyboard.press('Escape');
  }
  await untilHydrated(page);
}

/** A test's own client headers: its page and its API client come from the test's own address. */
const visitorHeaders = (testId: string) => fromAddress(visitorAddress(testId));

export const test = base.extend<Fixtures>({
  // The worker's browser context is reused between tests (`reuseContext` in playwright.config.ts,
  // docs/decisions/0014-one-browser-context-per-worker.md). Playwright resets the page (about:blank),
  // cookies, cache, storage, routes, init scripts, viewport and media before each test; this
  // fixture resets what it does not (the page's listeners, the context's offline switch, a paused
  // clock) and sets the test's own address on the page instead of on the context, which would
  // force a new context for every test.
  page: async ({ page }, use, testInfo) => {
    const listening = listenersOf(page);
    const before = listening.snapshot();
    const resumeClock = watchClockPause(page);
    await page.setExtraHTTPHeaders(visitorHeaders(testInfo.testId));
    await use(page);
    await resumeClock();
    listening.removeAllBut(before);
    await page.context().setOffline(false);
  },
  request: async ({ playwright, baseURL }, use, testInfo) => {
    const request = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: visitorHeaders(testInfo.testId),
    });
    await use(request);
    await request.dispose();
  },
  network: async ({ page }, use) => {
    const log: NetworkLog = { outside: [], analyticsScript: [], pending: new Set(), started: 0 };
    const ownRequest = (request: Request) => {
      try {
        return request.frame() === page.mainFrame();
      } catch {
        return false; // a service worker's request has no frame
      }
    };
    page.on('request', (request) => {
      if (!ownRequest(request)) return;
      log.started += 1;
      log.pending.add(request);
    });
    const done = (request: Request) => log.pending.delete(request);
    page.on('requestfinished', done);
    page.on('requestfailed', done);
    await page.route('**/*', async (route) => {
      const url = route.request().url();
      if (url.startsWith(GA_SCRIPT_URL)) {
        log.analyticsScript.push(url);
        await route.fulfill({ status: 200, contentType: 'text/javascript', body: GTAG_STAND_IN });
        return;
      }
      if (!LOOPBACK.test(url) && !url.startsWith('data:') && !url.startsWith('blob:')) {
        log.outside.push(url);
        await route.abort('blockedbyclient');
        return;
      }
      await route.continue();
    });
    await use(log);
  },
  consoleErrors: async ({ page }, use) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
    await use(errors);
    expect(errors, 'console errors on the page').toEqual([]);
  },
  visit: async ({ page, network, consoleErrors }, use) => {
    void network;
    void consoleErrors;
    await use(async (path, { consent = 'denied', base } = {}) => {
      if (consent !== 'unset') {
        await page.addInitScript((choice) => {
          // Init scripts run in every frame; embedded third-party frames have no storage for us.
          if (window.top !== window) return;
          window.localStorage.setItem('podling.analytics-consent.v1', choice);
        }, consent);
      }
      await page.goto(base ? new URL(path, base).toString() : path);
      // The prerendered page is readable at once; React takes it over at the visitor's first act,
      // which the test makes here.
      await actUntilHydrated(page);
    });
  },
});

/** Removes the console errors a test expects (e.g. the browser's note on a 404 document). */
export function expectConsoleErrors(errors: string[], pattern: RegExp): void {
  const expected = errors.filter((message) => pattern.test(message));
  expect(expected.length, `expected a console error matching ${pattern}`).toBeGreaterThan(0);
  errors.splice(0, errors.length, ...errors.filter((message) => !pattern.test(message)));
}

export { expect };
