import '@/styles/global.css';

/** Matches BOOT_MODULES_ID in scripts/vite-plugins/prerender.ts. */
const BOOT_MODULES_ID = 'boot-modules';

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

/** Longest wait for a first paint (a tab opened in the background paints only when shown). */
const FIRST_PAINT_WAIT_MS = 1000;

/** Resolves just after the browser has painted the page for the first time. */
function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => setTimeout(resolve, 0);
    if (!PerformanceObserver.supportedEntryTypes?.includes('paint')) {
      requestAnimationFrame(done);
      return;
    }
    const fallback = setTimeout(done, FIRST_PAINT_WAIT_MS);
    const observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      clearTimeout(fallback);
      done();
    });
    observer.observe({ type: 'paint', buffered: true });
  });
}

// The prerendered HTML is already the whole page: let the browser paint it before fetching and
// evaluating the framework, so first paint never waits on (or competes with) JavaScript.
await afterFirstPaint();

// Fetch everything hydration needs in parallel (the build lists it per page), not as a waterfall.
const bootModules = document.getElementById(BOOT_MODULES_ID)?.textContent;
for (const href of bootModules ? (JSON.parse(bootModules) as string[]) : []) {
  const link = document.createElement('link');
  link.rel = 'modulepreload';
  link.href = href;
  document.head.append(link);
}

const { start } = await import('@/app/start');
await start(container);
