import { useLayoutEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { ROUTE_PATHS } from '#src/config/site.ts';
import { CONSENT_TEXT } from '#src/content/consent.ts';
import { setConsent, useConsent } from './consent-store.ts';
import { CONSENT_CHOICE_ATTRIBUTE, CONSENT_OPEN_ATTRIBUTE } from '#src/lib/page-marks.ts';
import { useReservedBottomSpace } from '#src/lib/use-reserved-bottom-space.ts';

/** Cookie banner: accept and reject carry equal weight; nothing is loaded before a choice. */
export function ConsentBanner() {
  const { bannerOpen } = useConsent();
  return bannerOpen ? <OpenConsentBanner /> : null;
}

function OpenConsentBanner() {
  const bannerRef = useRef<HTMLElement | null>(null);
  // While open, the page keeps the banner's height free at the bottom of its scroll area, so no
  // focused control is left underneath it.
  useReservedBottomSpace(bannerRef);
  // Reopened from the footer's 'Cookie settings' after a stored choice: let it show again.
  useLayoutEffect(() => document.documentElement.setAttribute(CONSENT_OPEN_ATTRIBUTE, ''), []);
  return (
    <section ref={bannerRef} className="consent-banner" aria-labelledby="consent-heading">
      <div className="consent-banner__inner">
        <h2 id="consent-heading" className="consent-banner__heading">
          {CONSENT_TEXT.heading}
        </h2>
        <p className="consent-banner__body">
          {CONSENT_TEXT.body}{' '}
          <Link to={ROUTE_PATHS.privacy} discover="none">
            {CONSENT_TEXT.policyLink}
          </Link>
          .
        </p>
        <div className="consent-banner__actions">
          <button
            type="button"
            className="button button--secondary"
            {...{ [CONSENT_CHOICE_ATTRIBUTE]: 'granted' }}
            onClick={() => setConsent('granted')}
          >
            {CONSENT_TEXT.accept}
          </button>
          <button
            type="button"
            className="button button--secondary"
            {...{ [CONSENT_CHOICE_ATTRIBUTE]: 'denied' }}
            onClick={() => setConsent('denied')}
          >
            {CONSENT_TEXT.reject}
          </button>
        </div>
      </div>
    </section>
  );
}
