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

describe('withBootLoader', () => {
  it('replaces the entry script and the manifest link with one inline script after the content', () => {
    const html = withBootLoader(BUILT_INDEX);
    expect(html).not.toContain('<script type="module"');
    expect(html).not.toContain('<link rel="manifest"');
    expect(html).toMatch(
      /<div id="root"><\/div>\s*<script>\(function\(\w\)\{[\s\S]*\}\)\(document\)<\/script>\s*<\/body>/,
    );
    expect(html).toMatch(/import\(["`]\/assets\/index-abc\.js["`]\)/);
    expect(html).toMatch(/["`]\/site\.webmanifest["`]/);
  });

  it('fails the build when the entry script is not where Vite writes it', () => {
    expect(() => withBootLoader('<html><body></body></html>')).toThrow(/no entry module script/);
  });

  it('writes the same script for every page, so one CSP hash allows it', () => {
    expect(
      withBootLoader(BUILT_INDEX.replace('<div id="root"></div>', '<div id="root">other</div>')),
    ).toContain(bootLoaderScript('/assets/index-abc.js', '/site.webmanifest'));
  });
});

describe('the boot loader in the page', () => {
  type PaintCallback = (
    entries: { getEntriesByName: (name: string) => unknown[] },
    observer: unknown,
  ) => void;
  let observers: { callback: PaintCallback; observer: unknown }[] = [];
  let disconnected = 0;
  let imported: string[] = [];

  beforeEach(() => {
    vi.useFakeTimers();
    observers = [];
    disconnected = 0;
    imported = [];
    document.head.innerHTML = '';
    document.body.innerHTML = `<script type="application/json" id="${BOOT_MODULES_ID}">["/assets/framework.js","/assets/page.js"]</script>`;
    class FakeObserver {
      static readonly supportedEntryTypes = ['paint', 'navigation', 'resource'];
      constructor(private readonly callback: PaintCallback) {}
      observe() {
        observers.push({ callback: this.callback, observer: this });
      }
      disconnect() {
        disconnected += 1;
      }
    }
    vi.stubGlobal('PerformanceObserver', FakeObserver);
    vi.stubGlobal('__bootImport', (href: string) => imported.push(href));
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  /** Runs the loader as the page would; import() (not available to eval here) is recorded instead. */
  const run = () => {
    const script = bootLoaderScript('/assets/index-abc.js', '/site.webmanifest').replace(
      'import(',
      'window.__bootImport(',
    );
    new Function(script)();
  };
  const preloads = () =>
    [...document.head.querySelectorAll('link[rel="modulepreload"]')].map((link) => link.getAttribute('href'));
  const paint = (names: string[]) => {
    for (const { callback, observer } of observers)
      callback({ getEntriesByName: (name) => names.filter((entry) => entry === name) }, observer);
  };

  it('asks for nothing before the first contentful paint', () => {
    run();
    paint(['first-paint']);
    vi.advanceTimersByTime(FIRST_PAINT_WAIT_MS - 1);
    expect(preloads()).toEqual([]);
    expect(imported).toEqual([]);
    expect(document.head.querySelector('link[rel="manifest"]')).toBeNull();
  });

  it('after it, preloads the boot list in order, imports the entry once and adds the manifest', () => {
    run();
    paint(['first-contentful-paint']);
    expect(imported).toEqual([]);
    vi.advanceTimersByTime(0);
    expect(disconnected).toBe(1);
    // The entry is a preload too: no module is a request chained from the document.
    expect(preloads()).toEqual(['/assets/framework.js', '/assets/page.js', '/assets/index-abc.js']);
    expect(imported).toEqual(['/assets/index-abc.js']);
    expect(document.head.querySelector('link[rel="manifest"]')?.getAttribute('href')).toBe(
      '/site.webmanifest',
    );
    vi.advanceTimersByTime(FIRST_PAINT_WAIT_MS);
    expect(imported).toHaveLength(1);
    expect(preloads()).toHaveLength(3);
  });

  it('waits seconds for a slow first paint, and starts anyway should it never be reported', () => {
    expect(FIRST_PAINT_WAIT_MS).toBeGreaterThanOrEqual(3000);
    run();
    vi.advanceTimersByTime(FIRST_PAINT_WAIT_MS - 1);
    expect(imported).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(imported).toEqual(['/assets/index-abc.js']);
  });

  it('without paint timing, starts after the first frame', () => {
    let frame: FrameRequestCallback | undefined;
    vi.stubGlobal(
      'PerformanceObserver',
      class {
        static readonly supportedEntryTypes = ['navigation'];
      },
    );
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
      frame = callback;
      return 1;
    });
    run();
    vi.advanceTimersByTime(0);
    expect(imported).toEqual([]);
    frame?.(0);
    vi.advanceTimersByTime(0);
    expect(imported).toEqual(['/assets/index-abc.js']);
    expect(observers).toEqual([]);
  });
});

describe('a page that waits for its visitor', () => {
  const ENTRY = '/assets/index-abc.js';
  const ANALYTICS = '/assets/analytics-abc.js';
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
  const run = () =>
    new Function(
      'doc',
      bootLoaderScript(ENTRY, null, { analyticsHref: ANALYTICS })
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
