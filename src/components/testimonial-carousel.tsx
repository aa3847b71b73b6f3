import { useCallback, useEffect, useRef, useState } from 'react';
import type Slider from 'react-slick';
import type { Settings } from 'react-slick';
import { Avatar } from '@/components/avatar';
import { CAROUSEL } from '@/config/constants';
import type { Testimonial } from '@/content/types';
import { prefersReducedMotion } from '@/lib/scroll';
import { useNearViewport } from '@/lib/use-near-viewport';
import '@/styles/carousel.css';
// Only the address: the build keeps one inlined site stylesheet (cssCodeSplit off), which would
// pull slick's CSS into the first load if it were imported as a style. It is linked on demand.
import slickStylesheetUrl from 'slick-carousel/slick/slick.css?url';

type SliderComponent = typeof Slider;

type TestimonialCarouselProps = {
  readonly heading: string;
  readonly testimonials: readonly Testimonial[];
  readonly headingId: string;
};

/** How far ahead of the viewport the slider library starts loading. */
const LOAD_AHEAD_MARGIN = '400px 0px';

const FOCUSABLE =
  'a[href], area[href], button, input, select, textarea, iframe, audio[controls], video[controls], [contenteditable], [tabindex]';

/** react-slick settings for the testimonial carousel (spec section 9); autoplay off for reduced motion. */
export function carouselSettings(reducedMotion: boolean): Settings {
  return {
    slidesToShow: CAROUSEL.slidesToShow,
    slidesToScroll: CAROUSEL.slidesToScroll,
    autoplay: !reducedMotion,
    autoplaySpeed: CAROUSEL.autoplaySpeedMs,
    speed: CAROUSEL.transitionSpeedMs,
    dots: CAROUSEL.dots,
    infinite: CAROUSEL.infinite,
    pauseOnHover: CAROUSEL.pauseOnHover,
    // Focus pausing and the arrows are ours: slick's arrows have no useful names, and its
    // pauseOnFocus only watches slides, not the controls.
    pauseOnFocus: false,
    arrows: false,
    responsive: CAROUSEL.breakpoints.map(({ maxWidth, slidesToShow }) => ({
      breakpoint: maxWidth,
      settings: { slidesToShow, slidesToScroll: CAROUSEL.slidesToScroll },
    })),
  };
}

/** Media queries for CAROUSEL.breakpoints, widest first (the same max-width queries as react-slick). */
const BREAKPOINT_QUERIES = CAROUSEL.breakpoints.map(({ maxWidth, slidesToShow }) => ({
  query: `(max-width: ${maxWidth}px)`,
  slidesToShow,
}));

/** Slides shown at the current viewport width; browser only. */
function slidesToShowNow(): number {
  let shown: number = CAROUSEL.slidesToShow;
  for (const { query, slidesToShow } of BREAKPOINT_QUERIES) {
    if (window.matchMedia(query).matches) shown = slidesToShow;
  }
  return shown;
}

/** Longest the slider waits for slick's stylesheet before mounting anyway. */
const STYLESHEET_WAIT_MS = 3000;

let slickStylesheet: Promise<void> | undefined;

/** Links slick's stylesheet once; resolves when it has loaded, failed or taken too long. */
function linkSlickStylesheet(): Promise<void> {
  slickStylesheet ??= new Promise((resolve) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = slickStylesheetUrl;
    const done = () => {
      window.clearTimeout(timer);
      resolve();
    };
    const timer = window.setTimeout(done, STYLESHEET_WAIT_MS);
    link.addEventListener('load', done, { once: true });
    link.addEventListener('error', done, { once: true });
    document.head.append(link);
  });
  return slickStylesheet;
}

/** Loads react-slick (a lazy chunk) and its CSS, both kept out of the first load. */
async function loadSlider(): Promise<SliderComponent> {
  const [slickModule] = await Promise.all([import('react-slick'), linkSlickStylesheet()]);
  // Under Vite 8 the default import of this CommonJS package is its namespace: unwrap once.
  const imported: unknown = slickModule.default;
  return (
    typeof imported === 'function' ? imported : (imported as { default: unknown }).default
  ) as SliderComponent;
}

/** Keeps hidden slides and slick's clones out of the tab order and the accessibility tree. */
function hideInactiveSlides(root: HTMLElement | null): void {
  if (!root) return;
  root.querySelectorAll<HTMLElement>('.slick-slide').forEach((slide) => {
    const hidden = !slide.classList.contains('slick-active');
    slide.toggleAttribute('inert', hidden);
    slide.setAttribute('aria-hidden', String(hidden));
    slide.setAttribute('tabindex', '-1');
    slide.querySelectorAll<HTMLElement>(FOCUSABLE).forEach((element) => {
      if (hidden) {
        if (!element.hasAttribute('data-carousel-tabindex')) {
          element.setAttribute('data-carousel-tabindex', element.getAttribute('tabindex') ?? '');
        }
        element.setAttribute('tabindex', '-1');
      } else if (element.hasAttribute('data-carousel-tabindex')) {
        const original = element.getAttribute('data-carousel-tabindex');
        if (original) element.setAttribute('tabindex', original);
        else element.removeAttribute('tabindex');
        element.removeAttribute('data-carousel-tabindex');
      }
    });
  });
}

function TestimonialCard({ testimonial }: { readonly testimonial: Testimonial }) {
  return (
    <figure className="testimonial-card">
      <blockquote className="testimonial-card__quote">
        <p>{testimonial.quote}</p>
      </blockquote>
      <figcaption className="testimonial-card__author">
        <Avatar image={testimonial.image} size={48} decorative />
        <span className="testimonial-card__who">
          <span className="testimonial-card__name">{testimonial.author}</span>
          {testimonial.role ? <span className="testimonial-card__role">{testimonial.role}</span> : null}
        </span>
      </figcaption>
    </figure>
  );
}

function PauseIcon() {
  return (
    <svg className="carousel-button__icon" width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">
      <rect x="3" y="2" width="3.5" height="12" rx="1" fill="currentColor" />
      <rect x="9.5" y="2" width="3.5" height="12" rx="1" fill="currentColor" />
    </svg>
  );
}

function PlayIcon() {
  return (
    <svg className="carousel-button__icon" width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">
      <path
        d="M4 2.5v11a.75.75 0 0 0 1.14.64l8.5-5.5a.75.75 0 0 0 0-1.28l-8.5-5.5A.75.75 0 0 0 4 2.5Z"
        fill="currentColor"
      />
    </svg>
  );
}

function ArrowIcon({ direction }: { readonly direction: 'previous' | 'next' }) {
  return (
    <svg className="carousel-button__icon" width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">
      <path
        d={direction === 'previous' ? 'M10 3 5 8l5 5' : 'M6 3l5 5-5 5'}
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

type LoadedSlider = { readonly Component: SliderComponent; readonly reducedMotion: boolean };

/**
 * Testimonials as a react-slick carousel. The server, the first client render and visitors
 * without JavaScript get a same-sized static list; the slider loads as the section nears the
 * viewport and then takes its place without shifting anything.
 */
export function TestimonialCarousel({ heading, testimonials, headingId }: TestimonialCarouselProps) {
  const [sectionRef, near] = useNearViewport<HTMLElement>(LOAD_AHEAD_MARGIN);
  const [loaded, setLoaded] = useState<LoadedSlider | null>(null);
  /** The visitor's own choice from the toggle; null until they make one. */
  const [userPlaying, setUserPlaying] = useState<boolean | null>(null);
  const [focusInside, setFocusInside] = useState(false);
  const [slidesToShow, setSlidesToShow] = useState<number>(CAROUSEL.slidesToShow);
  const sliderRef = useRef<Slider | null>(null);
  const viewportRef = useRef<HTMLDivElement | null>(null);
  const toggleRef = useRef<HTMLButtonElement | null>(null);

  useEffect(() => {
    if (!near) return undefined;
    let cancelled = false;
    loadSlider().then(
      (Component) => {
        if (cancelled) return;
        setSlidesToShow(slidesToShowNow());
        setLoaded({ Component, reducedMotion: prefersReducedMotion() });
      },
      () => {
        // The static list stays: every testimonial is still readable.
      },
    );
    return () => {
      cancelled = true;
    };
  }, [near]);

  // react-slick 0.31 only applies `responsive` when the viewport later crosses a breakpoint,
  // not at mount, so the breakpoint in force is resolved here and passed as slidesToShow.
  useEffect(() => {
    if (!loaded) return undefined;
    const update = () => setSlidesToShow(slidesToShowNow());
    const lists = BREAKPOINT_QUERIES.map(({ query }) => window.matchMedia(query));
    lists.forEach((list) => list.addEventListener('change', update));
    return () => lists.forEach((list) => list.removeEventListener('change', update));
  }, [loaded]);

  const playing = userPlaying ?? (loaded ? !loaded.reducedMotion : true);
  const rotating = loaded !== null && playing && !focusInside;

  // react-slick keeps a 'paused' state that a changed prop alone does not clear: drive it directly.
  useEffect(() => {
    const slider = sliderRef.current;
    if (!slider) return;
    if (rotating) slider.slickPlay();
    else slider.slickPause();
  }, [rotating, loaded]);

  const syncHiddenSlides = useCallback(() => hideInactiveSlides(viewportRef.current), []);

  // Rotation pauses while keyboard focus is in the carousel; the toggle itself does not pause,
  // so that pressing Play starts rotation at once.
  useEffect(() => {
    const section = sectionRef.current;
    if (!section) return undefined;
    const onFocusIn = (event: FocusEvent) => setFocusInside(event.target !== toggleRef.current);
    const onFocusOut = (event: FocusEvent) => {
      const next = event.relatedTarget;
      if (!(next instanceof Node) || !section.contains(next)) setFocusInside(false);
    };
    section.addEventListener('focusin', onFocusIn);
    section.addEventListener('focusout', onFocusOut);
    return () => {
      section.removeEventListener('focusin', onFocusIn);
      section.removeEventListener('focusout', onFocusOut);
    };
  }, [sectionRef]);

  const ready = loaded !== null;
  // With no more testimonials than fit, react-slick shows them all and nothing can move.
  const canMove = ready && testimonials.length > slidesToShow;
  const Component = loaded?.Component;

  return (
    <section ref={sectionRef} className="section testimonial-carousel" aria-labelledby={headingId}>
      <h2 id={headingId}>{heading}</h2>
      <div className="carousel-controls" data-ready={ready ? 'true' : 'false'}>
        <button
          ref={toggleRef}
          type="button"
          className="carousel-button carousel-button--toggle"
          aria-label={playing ? 'Pause testimonials' : 'Play testimonials'}
          disabled={!canMove}
          onClick={() => setUserPlaying(!playing)}
        >
          {playing ? <PauseIcon /> : <PlayIcon />}
          {playing ? 'Pause' : 'Play'}
        </button>
        <span className="carousel-controls__spacer" />
        <button
          type="button"
          className="carousel-button"
          aria-label="Previous testimonial"
          disabled={!canMove}
          onClick={() => sliderRef.current?.slickPrev()}
        >
          <ArrowIcon direction="previous" />
        </button>
        <button
          type="button"
          className="carousel-button"
          aria-label="Next testimonial"
          disabled={!canMove}
          onClick={() => sliderRef.current?.slickNext()}
        >
          <ArrowIcon direction="next" />
        </button>
      </div>
      <div ref={viewportRef} className="carousel-viewport" data-testid="testimonial-viewport">
        {Component && loaded ? (
          <Component
            ref={sliderRef}
            {...carouselSettings(loaded.reducedMotion)}
            responsive={undefined}
            slidesToShow={slidesToShow}
            autoplay={rotating}
            className="carousel-slider"
            onInit={syncHiddenSlides}
            onReInit={syncHiddenSlides}
            afterChange={syncHiddenSlides}
          >
            {testimonials.map((testimonial) => (
              <div key={testimonial.id} className="testimonial-slide">
                <TestimonialCard testimonial={testimonial} />
              </div>
            ))}
          </Component>
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
