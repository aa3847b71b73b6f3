import { CalendarEmbed } from '#src/components/calendar-embed.tsx';
import { TestimonialCarousel } from '#src/components/carousel/testimonial-carousel.tsx';
import { VideoFacade } from '#src/components/video-facade.tsx';
import { SCHOOLS } from '#src/content/schools.ts';
import { BenefitIcon } from '#src/components/benefit-icon.tsx';
import { SchoolsHeroArt } from '#src/components/schools-hero-art.tsx';
import { SCHOOLS_TESTIMONIALS } from '#src/content/testimonials.ts';
import { QUOTE_FOCUS_TARGET_IDS, QuoteForm } from '#src/features/quote/quote-form.tsx';
import { scrollToElementId } from '#src/lib/scroll.ts';
import type { ReactNode } from 'react';
import '#src/styles/schools.css';

/** In-page anchors of the schools page (also used by its tests). */
export const SCHOOLS_SECTION_IDS = {
  hero: 'schools-hero',
  video: 'schools-video',
  benefits: 'benefits',
  testimonials: 'schools-testimonials',
  quote: 'get-a-quote',
  call: 'book-a-call',
} as const;

type SectionName = keyof typeof SCHOOLS_SECTION_IDS;

const headingId = (name: SectionName) => `${SCHOOLS_SECTION_IDS[name]}-heading`;

/** One of the page's sections below the hero, named by its heading. */
function SchoolsSection({ name, children }: { name: SectionName; children: ReactNode }) {
  return (
    <section
      id={SCHOOLS_SECTION_IDS[name]}
      className={`section schools-section schools-${name}`}
      aria-labelledby={headingId(name)}
    >
      {children}
    </section>
  );
}

/** A section's centred heading and introduction; the benefits heading takes focus from 'Learn More'. */
const sectionHeader = (name: SectionName, { heading, intro }: { heading: string; intro: string }) => (
  <header className="schools-section__header">
    <h2
      id={headingId(name)}
      tabIndex={name === 'benefits' ? -1 : undefined}
      className="schools-section__title"
    >
      {heading}
    </h2>
    <p className="schools-section__intro">{intro}</p>
  </header>
);

/**
 * Scrolls to a section, then moves focus to `focusId` (or the first of several that exists)
 * without a second, instant scroll, so keyboard and screen-reader users land where they looked.
 */
function scrollAndFocus(sectionId: string, focusIds: readonly string[]): void {
  if (!scrollToElementId(sectionId)) return;
  const target = focusIds.map((id) => document.getElementById(id)).find((element) => element !== null);
  target?.focus({ preventScroll: true });
}

/** /schools: why schools choose the product, a quote request form and a call booking calendar. */
export function SchoolsPage() {
  return (
    <div className="schools-page">
      <section id={SCHOOLS_SECTION_IDS.hero} className="schools-hero" aria-labelledby={headingId('hero')}>
        <div className="schools-hero__inner">
          <div className="schools-hero__copy">
            <p className="schools-eyebrow">For primary schools</p>
            <h1 id={headingId('hero')} className="schools-hero__title">
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
                onClick={() => scrollAndFocus(SCHOOLS_SECTION_IDS.benefits, [headingId('benefits')])}
              >
                {SCHOOLS.hero.learnMoreButton}
              </button>
            </div>
          </div>
          <SchoolsHeroArt />
        </div>
      </section>

      <SchoolsSection name="video">
        <h2 id={headingId('video')} className="visually-hidden">
          See it in a classroom
        </h2>
        <VideoFacade />
      </SchoolsSection>

      <SchoolsSection name="benefits">
        {sectionHeader('benefits', SCHOOLS.benefits)}
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
      </SchoolsSection>

      <div id={SCHOOLS_SECTION_IDS.testimonials} className="schools-testimonials">
        <TestimonialCarousel
          heading={SCHOOLS.carouselHeading}
          testimonials={SCHOOLS_TESTIMONIALS}
          headingId={headingId('testimonials')}
        />
      </div>

      <SchoolsSection name="quote">
        <div className="schools-quote__panel">
          {sectionHeader('quote', SCHOOLS.quote)}
          <QuoteForm />
        </div>
      </SchoolsSection>

      <SchoolsSection name="call">
        {sectionHeader('call', SCHOOLS.call)}
        <div className="schools-call__frame">
          <CalendarEmbed />
        </div>
      </SchoolsSection>
    </div>
  );
}
