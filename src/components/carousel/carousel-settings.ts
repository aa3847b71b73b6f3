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

/** Slides shown where `fits` picks the breakpoints (max widths) that apply: the narrowest one's. */
function slidesToShowWhere(fits: (maxWidth: number) => boolean): number {
  let shown: number = CAROUSEL.slidesToShow;
  for (const { maxWidth, slidesToShow } of CAROUSEL.breakpoints) {
    if (fits(maxWidth)) shown = slidesToShow;
  }
  return shown;
}

export const slidesToShowAt = (width: number): number => slidesToShowWhere((maxWidth) => width <= maxWidth);

/** Max-width media queries for the breakpoints, to follow the viewport as it changes. */
export const BREAKPOINT_QUERIES: readonly string[] = CAROUSEL.breakpoints.map(
  ({ maxWidth }) => `(max-width: ${maxWidth}px)`,
);

/** Slides shown at the current viewport width (the same max-width queries as CSS); browser only. */
export const slidesToShowNow = (): number =>
  slidesToShowWhere((maxWidth) => window.matchMedia(`(max-width: ${maxWidth}px)`).matches);
