import { useCallback, useEffect, useRef, useState } from 'react';
import type Slider from 'react-slick';
import { CarouselControls } from './carousel-controls.tsx';
import { BREAKPOINT_QUERIES, carouselSettings, slidesToShowNow } from './carousel-settings.ts';
import { hideInactiveSlides } from './hide-inactive-slides.ts';
import { loadSlider, type SliderComponent } from './load-slider.ts';
import { TestimonialCard } from './testimonial-card.tsx';
import { useInteractionPause } from './use-interaction-pause.ts';
import { CAROUSEL } from '#src/config/constants.ts';
import { CAROUSEL_TEXT } from '#src/content/carousel.ts';
import type { Testimonial } from '#src/content/types.ts';
import { prefersReducedMotion } from '#src/lib/scroll.ts';
import { useNearViewport } from '#src/lib/use-near-viewport.ts';
import '#src/styles/carousel.css';
import { WAKES_APP_ATTRIBUTE } from '#src/lib/page-marks.ts';

type TestimonialCarouselProps = {
  readonly heading: string;
  readonly testimonials: readonly Testimonial[];
  readonly headingId: string;
};

/** How far ahead of the viewport the slider library starts loading. */
const LOAD_AHEAD_MARGIN = '400px 0px';

type LoadedSlider = { readonly Component: SliderComponent; readonly reducedMotion: boolean };

/**
 * Testimonials as a WAI-ARIA carousel: a region named by its heading, slides as groups named 'N of
 * M', the rotation toggle first, rotation stopped while focus or the pointer is inside, changes
 * announced politely unless rotating. Until react-slick loads (as the section nears the viewport)
 * a same-sized static list stands in: on the server, at hydration and without JavaScript.
 */
export function TestimonialCarousel({ heading, testimonials, headingId }: TestimonialCarouselProps) {
  const [sectionRef, near] = useNearViewport<HTMLElement>(LOAD_AHEAD_MARGIN);
  const [loaded, setLoaded] = useState<LoadedSlider | null>(null);
  /** The visitor's own choice from the toggle; null until they make one. */
  const [userPlaying, setUserPlaying] = useState<boolean | null>(null);
  const [slidesToShow, setSlidesToShow] = useState<number>(CAROUSEL.slidesToShow);
  const sliderRef = useRef<Slider | null>(null);
  const viewportRef = useRef<HTMLDivElement | null>(null);
  const toggleRef = useRef<HTMLButtonElement | null>(null);
  const interacting = useInteractionPause(sectionRef, toggleRef);

  useEffect(() => {
    if (!near) return undefined;
    let cancelled = false;
    loadSlider().then(
      (Component) => {
        if (cancelled) return;
        setSlidesToShow(slidesToShowNow());
        setLoaded({ Component, reducedMotion: prefersReducedMotion() });
      },
      () => undefined, // The static list stays: every testimonial is still readable.
    );
    return () => {
      cancelled = true;
    };
  }, [near]);

  // Follows the breakpoint in force as the viewport changes (see carouselSettings).
  useEffect(() => {
    if (!loaded) return undefined;
    const update = () => setSlidesToShow(slidesToShowNow());
    const lists = BREAKPOINT_QUERIES.map((query) => window.matchMedia(query));
    lists.forEach((list) => list.addEventListener('change', update));
    return () => lists.forEach((list) => list.removeEventListener('change', update));
  }, [loaded]);

  const playing = userPlaying ?? (loaded ? !loaded.reducedMotion : true);
  const rotating = loaded !== null && playing && !interacting;

  // react-slick keeps a 'paused' state that a changed prop alone does not clear: drive it directly.
  useEffect(() => {
    const slider = sliderRef.current;
    if (!slider) return;
    if (rotating) slider.slickPlay();
    else slider.slickPause();
  }, [rotating, loaded]);

  const syncHiddenSlides = useCallback(() => hideInactiveSlides(viewportRef.current), []);

  const ready = loaded !== null;
  // With no more testimonials than fit, react-slick shows them all and nothing can move.
  const canMove = ready && testimonials.length > slidesToShow;

  return (
    <section
      ref={sectionRef}
      {...{ [WAKES_APP_ATTRIBUTE]: '' }}
      className="section testimonial-carousel"
      aria-labelledby={headingId}
      aria-roledescription="carousel"
    >
      <h2 id={headingId}>{heading}</h2>
      <CarouselControls
        toggleRef={toggleRef}
        playing={playing}
        canMove={canMove}
        ready={ready}
        onToggle={() => setUserPlaying(!playing)}
        onPrevious={() => sliderRef.current?.slickPrev()}
        onNext={() => sliderRef.current?.slickNext()}
      />
      {/* Announces the slides in view after a change, except while they rotate on their own. */}
      <div
        ref={viewportRef}
        className="carousel-viewport"
        data-testid="testimonial-viewport"
        aria-live={rotating ? 'off' : 'polite'}
      >
        {loaded ? (
          <loaded.Component
            ref={sliderRef}
            {...carouselSettings(loaded.reducedMotion)}
            slidesToShow={slidesToShow}
            autoplay={rotating}
            className="carousel-slider"
            onInit={syncHiddenSlides}
            onReInit={syncHiddenSlides}
            afterChange={syncHiddenSlides}
          >
            {testimonials.map((testimonial, index) => (
              <div
                key={testimonial.id}
                className="testimonial-slide"
                role="group"
                aria-roledescription="slide"
                aria-label={CAROUSEL_TEXT.slideLabel(index + 1, testimonials.length)}
              >
                <TestimonialCard testimonial={testimonial} />
              </div>
            ))}
          </loaded.Component>
        ) : (
          <ul className="testimonial-standin">
            {testimonials.map((testimonial) => (
              <li key={testimonial.id} className="testimonial-standin__item">
                <TestimonialCard testimonial={testimonial} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
