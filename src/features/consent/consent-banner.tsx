import { Link } from 'react-router-dom';
import { PRODUCT_NAME, ROUTE_PATHS } from '@/config/site';
import { setConsent, useConsent } from '@/features/consent/consent-store';

export const CONSENT_TEXT = {
  heading: 'Can we count visits?',
  // Kept short: a long block appearing after hydration would become the page's largest paint.
  body: `May we use analytics cookies to count visits to ${PRODUCT_NAME}? They stay off unless you accept; change your mind any time in "Cookie settings".`,
  accept: 'Accept analytics',
  reject: 'Reject analytics',
  policyLink: 'Read our privacy policy',
} as const;

/** Cookie banner: accept and reject carry equal weight; nothing is loaded before a choice. */
export function ConsentBanner() {
  const { bannerOpen } = useConsent();
  if (!bannerOpen) return null;
  return (
    <section className="consent-banner" aria-labelledby="consent-heading">
      <div className="consent-banner__inner">
        <h2 id="consent-heading" className="consent-banner__heading">
          {CONSENT_TEXT.heading}
        </h2>
        <p className="consent-banner__body">
          {CONSENT_TEXT.body} <Link to={ROUTE_PATHS.privacy}>{CONSENT_TEXT.policyLink}</Link>.
        </p>
        <div className="consent-banner__actions">
          <button type="button" className="button button--secondary" onClick={() => setConsent('granted')}>
            {CONSENT_TEXT.accept}
          </button>
          <button type="button" className="button button--secondary" onClick={() => setConsent('denied')}>
            {CONSENT_TEXT.reject}
          </button>
        </div>
      </div>
    </section>
  );
}
