import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { Footer } from '#src/components/footer.tsx';
import { Header } from '#src/components/header.tsx';
import { ConsentBanner } from '#src/features/consent/consent-banner.tsx';
import { reopenConsent } from '#src/features/consent/consent-store.ts';
import { HYDRATED_ATTRIBUTE } from '#src/lib/page-marks.ts';
import { whenIdleAfterLoad } from '#src/lib/when-idle-after-load.ts';

// Toasts only follow a form's submit: the toast area's code is not part of any page's first load.
const LazyToaster = lazy(() =>
  import('#src/components/lazy-toaster.tsx').then((module) => ({ default: module.LazyToaster })),
);

/** Mounts the toast area once the page has loaded and the browser is idle. */
function DeferredToaster() {
  const [ready, setReady] = useState(false);
  useEffect(() => whenIdleAfterLoad(() => setReady(true)), []);
  return ready ? (
    <Suspense fallback={null}>
      <LazyToaster />
    </Suspense>
  ) : null;
}

/** The frame of every page: header, main content, footer, toasts and the cookie banner. */
export function Layout({ children }: { children: ReactNode }) {
  useEffect(() => {
    // Marks the moment React owns the prerendered page (tests wait for it before interacting).
    document.documentElement.setAttribute(HYDRATED_ATTRIBUTE, 'true');
  }, []);
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <Header />
      <main id="main" tabIndex={-1} className="site-main">
        {children}
      </main>
      <Footer onOpenCookieSettings={reopenConsent} />
      <ConsentBanner />
      <DeferredToaster />
    </>
  );
}
