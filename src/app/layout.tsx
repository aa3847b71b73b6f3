import { useEffect, type ReactNode } from 'react';
import { Footer } from '@/components/footer';
import { Header } from '@/components/header';
import { LazyToaster } from '@/components/lazy-toaster';
import { ConsentBanner } from '@/features/consent/consent-banner';
import { reopenConsent } from '@/features/consent/consent-store';

export const SKIP_LINK_TEXT = 'Skip to main content';

/** The frame of every page: header, main content, footer, toasts and the cookie banner. */
export function Layout({ children }: { children: ReactNode }) {
  useEffect(() => {
    // Marks the moment React owns the prerendered page (tests wait for it before interacting).
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return (
    <>
      <a className="skip-link" href="#main">
        {SKIP_LINK_TEXT}
      </a>
      <Header />
      <main id="main" tabIndex={-1} className="site-main">
        {children}
      </main>
      <Footer onOpenCookieSettings={reopenConsent} />
      <ConsentBanner />
      <LazyToaster />
    </>
  );
}
