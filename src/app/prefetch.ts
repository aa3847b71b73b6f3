import { internalPathOf, routePath } from './internal-path.ts';
import { preloadRoute, type RouteDefinition } from './routes.tsx';
import { HYDRATED_ATTRIBUTE } from '#src/lib/page-marks.ts';
import { whenIdleAfterLoad } from '#src/lib/when-idle-after-load.ts';

/** How close to the viewport a link must come before its page's code is fetched. */
const NEAR_VIEWPORT_MARGIN = '200px';

/** Calls back once the layout has marked the page hydrated (data-hydrated on <html>). */
function afterHydration(callback: () => void): () => void {
  const root = document.documentElement;
  if (root.getAttribute(HYDRATED_ATTRIBUTE) === 'true') {
    callback();
    return () => undefined;
  }
  const observer = new MutationObserver(() => {
    if (root.getAttribute(HYDRATED_ATTRIBUTE) !== 'true') return;
    observer.disconnect();
    callback();
  });
  observer.observe(root, { attributes: true, attributeFilter: [HYDRATED_ATTRIBUTE] });
  return () => observer.disconnect();
}

/**
 * Fetches another page's code on intent (pointer over, touch or focus on a link to it) or, once
 * this page has hydrated, loaded and gone idle, when a link to it nears the viewport: never while
 * this page paints and hydrates.
 */
export function prefetchOnIntent(routes: readonly RouteDefinition[]): () => void {
  const fetched = new Set<string>([routePath(window.location.pathname)]);
  const prefetch = (link: HTMLAnchorElement) => {
    const path = internalPathOf(link);
    if (path === null || fetched.has(path) || !routes.some((route) => route.path === path)) return;
    fetched.add(path);
    // Offline or a new deploy: navigating there will try again (and show its own error).
    void preloadRoute(routes, path).catch(() => fetched.delete(path));
  };
  const onIntent = (event: Event) => {
    const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (link instanceof HTMLAnchorElement) prefetch(link);
  };
  const intentEvents = ['pointerover', 'touchstart', 'focusin'] as const;
  for (const type of intentEvents)
    document.addEventListener(type, onIntent, { capture: true, passive: true });

  let observer: IntersectionObserver | null = null;
  let cancelIdle = () => undefined as void;
  const cancelHydrated = afterHydration(() => {
    cancelIdle = whenIdleAfterLoad(observeLinks);
  });
  function observeLinks() {
    if (typeof IntersectionObserver === 'undefined') return;
    observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue;
          observer?.unobserve(entry.target);
          if (entry.target instanceof HTMLAnchorElement) prefetch(entry.target);
        }
      },
      { rootMargin: NEAR_VIEWPORT_MARGIN },
    );
    for (const link of document.querySelectorAll('a[href]')) observer.observe(link);
  }

  return () => {
    for (const type of intentEvents) document.removeEventListener(type, onIntent, { capture: true });
    cancelHydrated();
    cancelIdle();
    observer?.disconnect();
  };
}
