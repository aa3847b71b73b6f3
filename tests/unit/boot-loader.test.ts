// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BOOT_MODULES_ID,
  bootLoaderScript,
  FIRST_PAINT_WAIT_MS,
  withBootLoader,
} from '#scripts/vite-plugins/boot-loader.ts';

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
    expect(preloads()).toEqual(['/assets/framework.js', '/assets/page.js']);
    expect(imported).toEqual(['/assets/index-abc.js']);
    expect(document.head.querySelector('link[rel="manifest"]')?.getAttribute('href')).toBe(
      '/site.webmanifest',
    );
    vi.advanceTimersByTime(FIRST_PAINT_WAIT_MS);
    expect(imported).toHaveLength(1);
    expect(preloads()).toHaveLength(2);
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
