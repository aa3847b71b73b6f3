// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BOOT_MODULES_ID,
  bootLoaderScript,
  FIRST_PAINT_WAIT_MS,
  WAKE_MARGIN,
  withBootLoader,
} from '#scripts/vite-plugins/boot-loader.ts';
import { HEADER_SCROLL_THRESHOLD_PX } from '#src/config/constants.ts';
import * as marks from '#src/lib/page-marks.ts';

const BUILT_INDEX = `<!doctype html>
<html lang="en-GB">
  <head>
    <link rel="manifest" href="/site.webmanifest" />
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;
const MODULES = { analyticsHref: '/assets/analytics-abc.js' };

describe('withBootLoader', () => {
  it('replaces the entry script and the manifest link with one inline script after the content', () => {
    const html = withBootLoader(BUILT_INDEX, MODULES);
    expect(html).not.toContain('<script type="module"');
    expect(html).not.toContain('<link rel="manifest"');
    expect(html).toMatch(
      /<div id="root"><\/div>\s*<script>\(function\(\w\)\{[\s\S]*\}\)\(document\)<\/script>\s*<\/body>/,
    );
    expect(html).toMatch(/import\(["`]\/assets\/index-abc\.js["`]\)/);
    expect(html).toMatch(/["`]\/site\.webmanifest["`]/);
  });

  it('fails the build when the entry script is not where Vite writes it', () => {
    expect(() => withBootLoader('<html><body></body></html>', MODULES)).toThrow(/no entry module script/);
  });

  it('writes the same script for every page, so one CSP hash allows it', () => {
    expect(
      withBootLoader(BUILT_INDEX.replace('<div id="root"></div>', '<div id="root">other</div>'), MODULES),
    ).toContain(bootLoaderScript('/assets/index-abc.js', '/site.webmanifest', MODULES));
  });
});

describe('a page that waits for its visitor', () => {
  const ENTRY = '/assets/index-abc.js';
  const ANALYTICS = MODULES.analyticsHref;
  let imports: string[] = [];
  let failEntry = false;
  const analytics = { countPageView: vi.fn(), disableAnalytics: vi.fn() };
  // A document of each test's own: a script's listeners stay on the document it ran in.
  let doc = document;

  afterEach(() => {
    vi.useRealTimers();
  });

  beforeEach(() => {
    imports = [];
    failEntry = false;
    analytics.countPageView.mockReset();
    analytics.disableAnalytics.mockReset();
    localStorage.clear();
    doc = document.implementation.createHTMLDocument('About Us | Podling');
    doc.body.innerHTML = `
      <header class="site-header" ${marks.HEADER_SCROLLED.attribute}="false">
        <details open><summary>Open menu</summary><a href="/about">About</a></details>
      </header>
      <form ${marks.WAKES_APP_ATTRIBUTE}=""></form>
      <button type="button" id="app-button">Back to Home</button>
      <p ${marks.CURRENT_YEAR_ATTRIBUTE}="">© 2020 Podling Ltd. All rights reserved.</p>
      <button type="button" ${marks.COOKIE_SETTINGS_ATTRIBUTE}="">Cookie settings</button>
      <button type="button" ${marks.CONSENT_CHOICE_ATTRIBUTE}="granted">Accept analytics</button>
      <button type="button" ${marks.CONSENT_CHOICE_ATTRIBUTE}="denied">Reject analytics</button>
      <script type="application/json" id="${BOOT_MODULES_ID}">["/assets/framework.js"]</script>`;
    vi.stubGlobal('__bootImport', (href: string) => {
      imports.push(href);
      if (href === ANALYTICS) return Promise.resolve(analytics);
      return failEntry ? Promise.reject(new Error('offline')) : Promise.resolve({});
    });
  });

  /** Runs the page's script; import() (not available to eval here) is recorded instead. */
  const run = (manifestHref: string | null = null) =>
    new Function(
      'doc',
      bootLoaderScript(ENTRY, manifestHref, MODULES)
        .replaceAll('import(', 'window.__bootImport(')
        .replace(/\(document\)$/, '(doc)'),
    )(doc);
  const html = () => doc.documentElement;
  const click = (selector: string) => doc.querySelector<HTMLElement>(selector)?.click();
  const key = (name: string) =>
    doc.body.dispatchEvent(new KeyboardEvent('keydown', { key: name, bubbles: true }));
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('keeps the header, the year and the banner working, and loads nothing for them', async () => {
    run();
    expect(html().hasAttribute(marks.WAITS_FOR_VISITOR_ATTRIBUTE)).toBe(true);
    expect(doc.querySelector(`[${marks.CURRENT_YEAR_ATTRIBUTE}]`)?.textContent).toBe(
      `© ${new Date().getFullYear()} Podling Ltd. All rights reserved.`,
    );
    const header = doc.querySelector('header')!;
    vi.stubGlobal('scrollY', HEADER_SCROLL_THRESHOLD_PX + 1);
    window.dispatchEvent(new Event('scroll'));
    expect(header.classList.contains(marks.HEADER_SCROLLED.className)).toBe(true);
    expect(header.getAttribute(marks.HEADER_SCROLLED.attribute)).toBe('true');
    vi.stubGlobal('scrollY', HEADER_SCROLL_THRESHOLD_PX);
    window.dispatchEvent(new Event('scroll'));
    expect(header.getAttribute(marks.HEADER_SCROLLED.attribute)).toBe('false');

    html().setAttribute(marks.CONSENT_OPEN_ATTRIBUTE, '');
    click(`[${marks.CONSENT_CHOICE_ATTRIBUTE}="denied"]`);
    expect(localStorage.getItem(marks.CONSENT_STORAGE_KEY)).toBe('denied');
    expect(html().hasAttribute(marks.CONSENT_OPEN_ATTRIBUTE)).toBe(false);
    click(`[${marks.COOKIE_SETTINGS_ATTRIBUTE}]`);
    expect(html().hasAttribute(marks.CONSENT_OPEN_ATTRIBUTE)).toBe(true);
    key('PageDown');
    key(' ');
    await settle();
    expect(imports).toEqual([]);
  });

  it('Accept loads the analytics module alone, which counts the entry the page opened', async () => {
    run();
    click(`[${marks.CONSENT_CHOICE_ATTRIBUTE}="granted"]`);
    await settle();
    expect(localStorage.getItem(marks.CONSENT_STORAGE_KEY)).toBe('granted');
    expect(imports).toEqual([ANALYTICS]);
    expect(analytics.countPageView).toHaveBeenCalledWith('default', '/', 'About Us | Podling');
    // Withdrawn on the same page: analytics, loaded, is turned off.
    click(`[${marks.CONSENT_CHOICE_ATTRIBUTE}="denied"]`);
    await settle();
    expect(analytics.disableAnalytics).toHaveBeenCalledTimes(1);
  });

  it('Escape closes the phone menu at once, then boots the app', () => {
    run();
    const menu = doc.querySelector('details')!;
    key('Escape');
    expect(menu.open).toBe(false);
    expect(imports).toEqual([ENTRY]);
  });

  it('after the first paint, a part that needs the app coming near the viewport boots it once', () => {
    const watched: { callback: IntersectionObserverCallback; margin?: string; targets: Element[] }[] = [];
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        private readonly entry: (typeof watched)[number];
        constructor(callback: IntersectionObserverCallback, options?: IntersectionObserverInit) {
          this.entry = { callback, margin: options?.rootMargin, targets: [] };
          watched.push(this.entry);
        }
        observe(target: Element) {
          this.entry.targets.push(target);
        }
        disconnect() {
          this.entry.targets = [];
        }
      },
    );
    const near = (isIntersecting: boolean) => {
      for (const { callback, targets } of watched)
        callback(
          targets.map((target) => ({ target, isIntersecting }) as IntersectionObserverEntry),
          {} as IntersectionObserver,
        );
    };
    vi.useFakeTimers();
    run();
    expect(watched).toEqual([]);
    vi.advanceTimersByTime(FIRST_PAINT_WAIT_MS);
    expect(watched.map(({ margin, targets }) => [margin, targets.length])).toEqual([[WAKE_MARGIN, 1]]);
    near(false);
    expect(imports).toEqual([]);
    near(true);
    near(true);
    expect(imports).toEqual([ENTRY]);
  });

  it('adds the manifest link after the first contentful paint, or seconds on should none be reported, and loads nothing', () => {
    type PaintCallback = (
      entries: { getEntriesByName: (name: string) => unknown[] },
      observer: unknown,
    ) => void;
    const paints: PaintCallback[] = [];
    vi.stubGlobal(
      'PerformanceObserver',
      class {
        static readonly supportedEntryTypes = ['paint'];
        constructor(private readonly callback: PaintCallback) {}
        observe() {
          paints.push(this.callback);
        }
        disconnect() {}
      },
    );
    const manifest = () => doc.head.querySelector('link[rel="manifest"]')?.getAttribute('href');
    const paint = (name: string) => {
      for (const callback of paints)
        callback({ getEntriesByName: (entry) => (entry === name ? [name] : []) }, { disconnect() {} });
    };
    vi.useFakeTimers();
    run('/site.webmanifest');
    paint('first-paint');
    vi.advanceTimersByTime(FIRST_PAINT_WAIT_MS - 1);
    expect(manifest()).toBeUndefined();
    paint('first-contentful-paint');
    vi.advanceTimersByTime(0);
    expect(manifest()).toBe('/site.webmanifest');
    expect(FIRST_PAINT_WAIT_MS).toBeGreaterThanOrEqual(3000);
    doc.head.innerHTML = '';
    run('/site.webmanifest');
    vi.advanceTimersByTime(FIRST_PAINT_WAIT_MS - 1);
    expect(manifest()).toBeUndefined();
    vi.advanceTimersByTime(1);
    expect(manifest()).toBe('/site.webmanifest');
    expect(doc.head.querySelectorAll('link[rel="manifest"]')).toHaveLength(1);
    expect(imports).toEqual([]);
  });

  it('with consent stored, counts the page view on load', async () => {
    localStorage.setItem(marks.CONSENT_STORAGE_KEY, 'granted');
    run();
    await settle();
    expect(imports).toEqual([ANALYTICS]);
    expect(analytics.countPageView).toHaveBeenCalledTimes(1);
  });

  it('the first act boots the app once, which gets the act replayed when it has taken over', async () => {
    run();
    const clicks = vi.fn();
    doc.getElementById('app-button')?.addEventListener('click', clicks);
    click('#app-button');
    key('Escape');
    expect(imports).toEqual([ENTRY]);
    expect(doc.querySelector('link[rel="modulepreload"]')?.getAttribute('href')).toBe('/assets/framework.js');
    expect(clicks).toHaveBeenCalledTimes(1);
    const keys: string[] = [];
    doc.addEventListener('keydown', (event) => keys.push(event.key));
    html().setAttribute(marks.HYDRATED_ATTRIBUTE, 'true');
    await settle();
    expect(clicks).toHaveBeenCalledTimes(2);
    expect(keys).toEqual(['Escape']);
    expect(html().hasAttribute(marks.WAITS_FOR_VISITOR_ATTRIBUTE)).toBe(false);
    // The app owns the page: the script leaves the banner's buttons to it.
    click(`[${marks.CONSENT_CHOICE_ATTRIBUTE}="granted"]`);
    expect(localStorage.getItem(marks.CONSENT_STORAGE_KEY)).toBeNull();
  });

  it('when the app fails to load, a click it should have handled reloads the page', async () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload, pathname: '/', search: '' });
    failEntry = true;
    run();
    key('Tab');
    await settle();
    expect(reload).not.toHaveBeenCalled();
    click('#app-button');
    await settle();
    expect(imports).toEqual([ENTRY, ENTRY]);
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
