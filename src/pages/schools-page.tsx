import { CalendarEmbed } from '#src/components/calendar-embed.tsx';
import { TestimonialCarousel } from '#src/components/carousel/testimonial-carousel.tsx';
import { VideoFacade } from '#src/components/video-facade.tsx';
import { SCHOOLS } from '#src/content/schools.ts';
import { BenefitIcon } from '#src/components/benefit-icon.tsx';
import { SchoolsHeroArt } from '#src/components/schools-hero-art.tsx';
import { SCHOOLS_TESTIMONIALS } from '#src/content/testimonials.ts';
import { QUOTE_FOCUS_TARGET_IDS, QuoteForm } from '#src/features/quote/quote-form.tsx';
import { scrollToElementId } from '#src/lib/scroll.ts';
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
          <SchoolsHeroArt />
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
