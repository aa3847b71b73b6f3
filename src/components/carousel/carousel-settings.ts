import type { Settings } from 'react-slick';
import { CAROUSEL } from '#src/config/constants.ts';

/**
 * react-slick settings for the testimonial carousel (spec section 9). Under reduced motion it
 * neither autoplays nor animates: a slide change is instant (speed 0).
 * No `responsive` list: react-slick 0.31 applies it only when the viewport later crosses a
 * breakpoint, so the carousel passes `slidesToShowAt(width)` itself.
 */
export function carouselSettings(reducedMotion: boolean): Settings {
  return {
    slidesToShow: CAROUSEL.slidesToShow,
    slidesToScroll: CAROUSEL.slidesToScroll,
    autoplay: !reducedMotion,
    autoplaySpeed: CAROUSEL.autoplaySpeedMs,
    speed: reducedMotion ? 0 : CAROUSEL.transitionSpeedMs,
    dots: CAROUSEL.dots,
    infinite: CAROUSEL.infinite,
    pauseOnHover: CAROUSEL.pauseOnHover,
    // Focus and pointer pausing and the arrows are ours: slick's arrows have no useful names,
    // and its pauseOnFocus only watches slides, not the controls.
    pauseOnFocus: false,
    arrows: false,
  };
}

/** Slides shown at a viewport width: the narrowest breakpoint (a max width) the width fits under. */
export function slidesToShowAt(width: number): number {
  let shown: number = CAROUSEL.slidesToShow;
  for (const { maxWidth, slidesToShow } of CAROUSEL.breakpoints) {
    if (width <= maxWidth) shown = slidesToShow;
  }
  return shown;
}

/** Max-width media queries for the breakpoints, to follow the viewport as it changes. */
export const BREAKPOINT_QUERIES: readonly string[] = CAROUSEL.breakpoints.map(
  ({ maxWidth }) => `(max-width: ${maxWidth}px)`,
);

/** Slides shown at the current viewport width (the same max-width queries as CSS); browser only. */
export function slidesToShowNow(): number {
  let shown: number = CAROUSEL.slidesToShow;
  CAROUSEL.breakpoints.forEach(({ slidesToShow }, index) => {
    const query = BREAKPOINT_QUERIES[index];
    if (query && window.matchMedia(query).matches) shown = slidesToShow;
  });
  return shown;
}
