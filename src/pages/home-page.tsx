import { lazy, Suspense, useEffect, useState, type MouseEvent } from 'react';
import { Link } from 'react-router-dom';
import { Mascot } from '#src/components/mascot.tsx';
import { PartnerLogoList } from '#src/components/partner-logo.tsx';
import { StoreButtons } from '#src/components/store-buttons.tsx';
import { TestimonialCarousel } from '#src/components/carousel/testimonial-carousel.tsx';
import { VideoFacade } from '#src/components/video-facade.tsx';
import { WAITLIST_ANCHOR_ID } from '#src/config/constants.ts';
import { flags } from '#src/config/flags.ts';
import { PRODUCT_NAME } from '#src/config/site.ts';
import { HOME } from '#src/content/home.ts';
import { PARTNERS } from '#src/content/partners.ts';
import { HOME_TESTIMONIALS } from '#src/content/testimonials.ts';
import { WaitlistForm, type WaitlistFormProps } from '#src/features/waitlist/waitlist-form.tsx';
import '#src/styles/home.css';

/** Heading ids of the home page's sections, in the spec's order (tests read them too). */
export const HOME_HEADING_IDS = {
  hero: 'home-hero-heading',
  schools: 'home-schools-heading',
  video: 'home-video-heading',
  waitlist: 'waitlist-heading',
  testimonials: 'home-testimonials-heading',
  supporters: 'home-supporters-heading',
} as const;

export const HOME_VIDEO_HEADING = `See ${PRODUCT_NAME} in action`;

export type HomePageProps = {
  /** Each defaults to its build-time flag; component tests flip them. */
  appStoreButton?: boolean;
  googlePlayButton?: boolean;
  schoolsPage?: boolean;
  tempIssuePopup?: boolean;
  /** Passed to the waitlist form (tests send sign-ups to a fake). */
  submitWaitlist?: WaitlistFormProps['submit'];
};

// Off by default (TEMP_ISSUE_POPUP): its code is fetched only on builds that turn it on.
const loadIosIssuePopup = () => import('#src/components/ios-issue-popup.tsx');
const IosIssuePopup = lazy(() => loadIosIssuePopup().then((m) => ({ default: m.IosIssuePopup })));

/** /: hero, schools card, demo video, waitlist, testimonials and supporters, in the spec's order. */
export function HomePage({
  appStoreButton = flags.APP_STORE_BUTTON,
  googlePlayButton = flags.GOOGLE_PLAY_BUTTON,
  schoolsPage = flags.SCHOOLS_PAGE,
  tempIssuePopup = flags.TEMP_ISSUE_POPUP,
  submitWaitlist,
}: HomePageProps = {}) {
  const [popupOpen, setPopupOpen] = useState(false);
  useEffect(() => {
    if (tempIssuePopup) void loadIosIssuePopup();
  }, [tempIssuePopup]);

  // With the iOS sign-up issue flagged, the App Store button explains it before leaving.
  const openPopupInstead = tempIssuePopup
    ? (event: MouseEvent<HTMLAnchorElement>) => {
        event.preventDefault();
        setPopupOpen(true);
      }
    : undefined;

  return (
    <div className="home">
      {tempIssuePopup && popupOpen ? (
        <Suspense fallback={null}>
          <IosIssuePopup onClose={() => setPopupOpen(false)} />
        </Suspense>
      ) : null}

      <section className="home-hero" aria-labelledby={HOME_HEADING_IDS.hero}>
        <div className="home-hero__inner">
          <div className="home-hero__copy">
            <p className="home-hero__badge">
              <span className="home-hero__badge-dot" aria-hidden="true" />
              {HOME.hero.badge}
            </p>
            <h1 id={HOME_HEADING_IDS.hero} className="home-hero__title">
              {HOME.hero.headline}
            </h1>
            {HOME.hero.intro.map((paragraph, index) => (
              <p key={paragraph} className={index === 0 ? 'home-hero__lead' : 'home-hero__text'}>
                {paragraph}
              </p>
            ))}
            <StoreButtons
              appStoreButton={appStoreButton}
              googlePlayButton={googlePlayButton}
              location="hero_section"
              onAppStoreClick={openPopupInstead}
            />
          </div>
          <div className="home-hero__art">
            <Mascot className="home-hero__mascot" label={HOME.hero.mascotAlt} />
          </div>
        </div>
      </section>

      {schoolsPage ? (
        <section className="section home-schools" aria-labelledby={HOME_HEADING_IDS.schools}>
          <div className="home-schools__card">
            <div className="home-schools__copy">
              <h2 id={HOME_HEADING_IDS.schools}>{HOME.schoolsCard.heading}</h2>
              <p>{HOME.schoolsCard.body}</p>
            </div>
            <Link
              className="button button--primary home-schools__button"
              discover="none"
              to={HOME.schoolsCard.to}
            >
              {HOME.schoolsCard.buttonLabel}
            </Link>
          </div>
        </section>
      ) : null}

      <section className="section home-video" aria-labelledby={HOME_HEADING_IDS.video}>
        <h2 id={HOME_HEADING_IDS.video} className="home-section-title">
          {HOME_VIDEO_HEADING}
        </h2>
        <VideoFacade />
      </section>

      <section id={WAITLIST_ANCHOR_ID} className="home-waitlist" aria-labelledby={HOME_HEADING_IDS.waitlist}>
        <div className="section home-waitlist__inner">
          <h2 id={HOME_HEADING_IDS.waitlist} className="home-section-title">
            {HOME.waitlist.heading}
          </h2>
          <p className="home-waitlist__intro">{HOME.waitlist.intro}</p>
          <WaitlistForm labelledBy={HOME_HEADING_IDS.waitlist} submit={submitWaitlist} />
        </div>
      </section>

      <TestimonialCarousel
        heading={HOME.carouselHeading}
        testimonials={HOME_TESTIMONIALS}
        headingId={HOME_HEADING_IDS.testimonials}
      />

      <section className="section home-supporters" aria-labelledby={HOME_HEADING_IDS.supporters}>
        <h2 id={HOME_HEADING_IDS.supporters} className="home-section-title home-supporters__title">
          {HOME.supportedByHeading}
        </h2>
        <PartnerLogoList partners={PARTNERS} />
      </section>
    </div>
  );
}
