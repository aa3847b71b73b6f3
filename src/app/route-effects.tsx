import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import type { RouteDefinition } from './routes.tsx';
import { documentTitle } from '#src/config/site.ts';
import { HASH_SCROLL_DELAY_MS } from '#src/config/constants.ts';
import { useAnalyticsConsent } from '#src/features/consent/use-analytics-consent.ts';
import { scrollToElementId } from '#src/lib/scroll.ts';

function setMetaDescription(content: string): void {
  let tag = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
  if (!tag) {
    tag = document.createElement('meta');
    tag.name = 'description';
    document.head.append(tag);
  }
  tag.content = content;
}

/**
 * Per-route side effects: document title and description, scroll position (top, or the
 * hash target after the spec's delay), focus for screen readers, and one page view per route
 * change once analytics is accepted.
 */
export function RouteEffects({ route }: { route: RouteDefinition }) {
  const location = useLocation();
  const consent = useAnalyticsConsent();
  const firstRender = useRef(true);
  const title = documentTitle(route);

  useEffect(() => {
    document.title = title;
    setMetaDescription(route.description);
  }, [title, route.description]);

  useEffect(() => {
    if (consent === 'granted') {
      // Once per history entry: the page's inline script may have counted this one already.
      void import('#src/lib/analytics.ts').then((analytics) =>
        analytics.countPageView(location.key, location.pathname + location.search, title),
      );
    }
  }, [consent, location.key, location.pathname, location.search, title]);

  useEffect(() => {
    const isFirst = firstRender.current;
    firstRender.current = false;
    if (location.hash) {
      const id = decodeURIComponent(location.hash.slice(1));
      const timer = window.setTimeout(() => scrollToElementId(id), HASH_SCROLL_DELAY_MS);
      return () => window.clearTimeout(timer);
    }
    if (!isFirst) {
      window.scrollTo(0, 0);
      // Tell assistive technology a new page is here, as a full page load would.
      document.getElementById('main')?.focus({ preventScroll: true });
    }
    return undefined;
  }, [location.pathname, location.hash, location.key]);

  return null;
}
