import { CalendarEmbed } from '@/components/calendar-embed';
import { TestimonialCarousel } from '@/components/carousel/testimonial-carousel';
import { VideoFacade } from '@/components/video-facade';
import { type SchoolBenefitIcon, SCHOOLS } from '@/content/schools';
import { SCHOOLS_TESTIMONIALS } from '@/content/testimonials';
import { QUOTE_FOCUS_TARGET_IDS, QuoteForm } from '@/features/quote/quote-form';
import { scrollToElementId } from '@/lib/scroll';
import '@/styles/schools.css';

/** In-page anchors of the schools page (also used by its tests). */
export const SCHOOLS_SECTION_IDS = {
  hero: 'schools-hero',
  video: 'schools-video',
  benefits: 'benefits',
  testimonials: 'schools-testimonials',
  quote: 'get-a-quote',
  call: 'book-a-call',
} as const;

const HEADING_IDS = {
  hero: 'schools-hero-heading',
  video: 'schools-video-heading',
  benefits: 'benefits-heading',
  testimonials: 'schools-testimonials-heading',
  quote: 'get-a-quote-heading',
  call: 'book-a-call-heading',
} as const;

/**
 * Scrolls to a section, then moves focus to `focusId` (or the first of several that exists)
 * without a second, instant scroll, so keyboard and screen-reader users land where they looked.
 */
function scrollAndFocus(sectionId: string, focusIds: readonly string[]): void {
  if (!scrollToElementId(sectionId)) return;
  for (const id of focusIds) {
    const target = document.getElementById(id);
    if (target) {
      target.focus({ preventScroll: true });
      return;
    }
  }
}

/** /schools: why schools choose the product, a quote request form and a call booking calendar. */
export function SchoolsPage() {
  return (
    <div className="schools-page">
      <section id={SCHOOLS_SECTION_IDS.hero} className="schools-hero" aria-labelledby={HEADING_IDS.hero}>
        <div className="schools-hero__inner">
          <div className="schools-hero__copy">
            <p className="schools-eyebrow">For primary schools</p>
            <h1 id={HEADING_IDS.hero} className="schools-hero__title">
              {SCHOOLS.hero.title}
            </h1>
            <p className="schools-hero__subtitle">{SCHOOLS.hero.subtitle}</p>
            <div className="schools-hero__actions">
              <button
                type="button"
                className="button button--primary"
                onClick={() => scrollAndFocus(SCHOOLS_SECTION_IDS.quote, QUOTE_FOCUS_TARGET_IDS)}
              >
                {SCHOOLS.hero.quoteButton}
              </button>
              <button
                type="button"
                className="button button--secondary"
                onClick={() => scrollAndFocus(SCHOOLS_SECTION_IDS.benefits, [HEADING_IDS.benefits])}
              >
                {SCHOOLS.hero.learnMoreButton}
              </button>
            </div>
          </div>
          <HeroIllustration />
        </div>
      </section>

      <section
        id={SCHOOLS_SECTION_IDS.video}
        className="schools-section schools-video"
        aria-labelledby={HEADING_IDS.video}
      >
        <h2 id={HEADING_IDS.video} className="visually-hidden">
          See it in a classroom
        </h2>
        <VideoFacade />
      </section>

      <section
        id={SCHOOLS_SECTION_IDS.benefits}
        className="schools-section schools-benefits"
        aria-labelledby={HEADING_IDS.benefits}
      >
        <header className="schools-section__header">
          <h2 id={HEADING_IDS.benefits} tabIndex={-1} className="schools-section__title">
            {SCHOOLS.benefits.heading}
          </h2>
          <p className="schools-section__intro">{SCHOOLS.benefits.intro}</p>
        </header>
        <ul className="schools-benefits__list">
          {SCHOOLS.benefits.cards.map((card) => (
            <li key={card.id} className="schools-benefit">
              <span className={`schools-benefit__icon schools-benefit__icon--${card.icon}`}>
                <BenefitIcon icon={card.icon} />
              </span>
              <h3 className="schools-benefit__title">{card.title}</h3>
              <p className="schools-benefit__body">{card.body}</p>
            </li>
          ))}
        </ul>
      </section>

      <div id={SCHOOLS_SECTION_IDS.testimonials} className="schools-testimonials">
        <TestimonialCarousel
          heading={SCHOOLS.carouselHeading}
          testimonials={SCHOOLS_TESTIMONIALS}
          headingId={HEADING_IDS.testimonials}
        />
      </div>

      <section
        id={SCHOOLS_SECTION_IDS.quote}
        className="schools-section schools-quote"
        aria-labelledby={HEADING_IDS.quote}
      >
        <div className="schools-quote__panel">
          <header className="schools-section__header">
            <h2 id={HEADING_IDS.quote} className="schools-section__title">
              {SCHOOLS.quote.heading}
            </h2>
            <p className="schools-section__intro">{SCHOOLS.quote.intro}</p>
          </header>
          <QuoteForm />
        </div>
      </section>

      <section
        id={SCHOOLS_SECTION_IDS.call}
        className="schools-section schools-call"
        aria-labelledby={HEADING_IDS.call}
      >
        <header className="schools-section__header">
          <h2 id={HEADING_IDS.call} className="schools-section__title">
            {SCHOOLS.call.heading}
          </h2>
          <p className="schools-section__intro">{SCHOOLS.call.intro}</p>
        </header>
        <div className="schools-call__frame">
          <CalendarEmbed />
        </div>
      </section>
    </div>
  );
}

const ICON_PROPS = {
  viewBox: '0 0 24 24',
  width: 28,
  height: 28,
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
  'aria-hidden': true,
  focusable: false,
} as const;

/** A small drawn icon per benefit; decorative, the card title carries the meaning. */
function BenefitIcon({ icon }: { icon: SchoolBenefitIcon }) {
  switch (icon) {
    case 'pencil':
      return (
        <svg {...ICON_PROPS}>
          <path d="M16.5 3.5a2.12 2.12 0 0 1 3 3L8 18l-4 1 1-4z" />
          <path d="M14.5 5.5l3 3" />
          <path d="M13 20h7" />
        </svg>
      );
    case 'microphone':
      return (
        <svg {...ICON_PROPS}>
          <rect x="9" y="2.5" width="6" height="11" rx="3" />
          <path d="M5.5 10.5a6.5 6.5 0 0 0 13 0" />
          <path d="M12 17v4" />
          <path d="M8.5 21h7" />
        </svg>
      );
    case 'languages':
      return (
        <svg {...ICON_PROPS}>
          <path d="M3 5h8" />
          <path d="M7 3v2" />
          <path d="M9.5 5c-.7 3.5-3 6.2-6 7.5" />
          <path d="M5 8.5c1 1.6 2.6 2.9 4.5 3.5" />
          <path d="M12.5 21l4-9 4 9" />
          <path d="M14 17.5h5" />
        </svg>
      );
    case 'accessibility':
      return (
        <svg {...ICON_PROPS}>
          <circle cx="12" cy="12" r="9.5" />
          <circle cx="12" cy="7.25" r="1.25" fill="currentColor" stroke="none" />
          <path d="M7.5 10l4.5 1 4.5-1" />
          <path d="M12 11v3.5" />
          <path d="M9.5 18l2.5-3.5 2.5 3.5" />
        </svg>
      );
  }
}

/** Decorative hero art: a microphone surrounded by speech bubbles, drawn so it never shifts layout. */
function HeroIllustration() {
  return (
    <svg
      className="schools-hero__art"
      viewBox="0 0 320 280"
      width="320"
      height="280"
      aria-hidden="true"
      focusable="false"
    >
      <circle cx="160" cy="150" r="118" fill="#ede7ff" />
      <circle cx="160" cy="150" r="84" fill="#ffffff" />
      <rect x="134" y="76" width="52" height="96" rx="26" fill="#5b2ee0" />
      <path d="M146 100h28M146 118h28M146 136h28" stroke="#ede7ff" strokeWidth="5" strokeLinecap="round" />
      <path
        d="M112 148a48 48 0 0 0 96 0"
        fill="none"
        stroke="#1b1530"
        strokeWidth="8"
        strokeLinecap="round"
      />
      <path d="M160 196v28M132 228h56" stroke="#1b1530" strokeWidth="8" strokeLinecap="round" />
      <g>
        <rect x="14" y="40" width="92" height="54" rx="18" fill="#ffb703" />
        <path d="M40 94l-6 18 22-18z" fill="#ffb703" />
        <path d="M32 60h56M32 76h36" stroke="#1b1530" strokeWidth="6" strokeLinecap="round" />
      </g>
      <g>
        <rect x="222" y="18" width="86" height="50" rx="18" fill="#1f7a3a" />
        <path d="M280 68l8 16-22-16z" fill="#1f7a3a" />
        <path d="M240 38h50M240 52h30" stroke="#ffffff" strokeWidth="6" strokeLinecap="round" />
      </g>
      <g>
        <rect x="232" y="176" width="78" height="46" rx="16" fill="#0b5c8a" />
        <path d="M246 222l-4 16 18-16z" fill="#0b5c8a" />
        <path
          d="M250 200c6-10 12-10 18 0s12 10 18 0"
          fill="none"
          stroke="#ffffff"
          strokeWidth="5"
          strokeLinecap="round"
        />
      </g>
    </svg>
  );
}
