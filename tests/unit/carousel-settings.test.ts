import type { ResponsiveObject, Settings } from 'react-slick';
import { carouselSettings } from '@/components/testimonial-carousel';

/**
 * Slides shown at a viewport width, resolved the way react-slick does: breakpoints are
 * max-widths, sorted ascending; the first one the width fits under wins; above all, the base.
 */
function slidesShownAt(settings: Settings, width: number): number | undefined {
  const responsive = [...(settings.responsive ?? [])].sort((a, b) => a.breakpoint - b.breakpoint);
  const match = responsive.find((entry: ResponsiveObject) => width <= entry.breakpoint);
  if (!match) return settings.slidesToShow;
  return match.settings === 'unslick' ? undefined : (match.settings.slidesToShow ?? settings.slidesToShow);
}

describe('carouselSettings', () => {
  const settings = carouselSettings(false);

  it.each([
    [2560, 5],
    [1921, 5],
    [1920, 4],
    [1537, 4],
    [1536, 3],
    [1025, 3],
    [1024, 2],
    [641, 2],
    [640, 1],
    [320, 1],
  ])('shows the spec number of slides at %i px: %i', (width, slides) => {
    expect(slidesShownAt(settings, width)).toBe(slides);
  });

  it('scrolls one at a time at every breakpoint', () => {
    expect(settings.slidesToScroll).toBe(1);
    for (const entry of settings.responsive ?? []) {
      expect(entry.settings).not.toBe('unslick');
      if (entry.settings !== 'unslick') expect(entry.settings.slidesToScroll ?? 1).toBe(1);
    }
  });

  it('autoplays every 5000 ms with a 2000 ms transition, no dots, infinitely, pausing on hover', () => {
    expect(settings).toMatchObject({
      autoplay: true,
      autoplaySpeed: 5000,
      speed: 2000,
      dots: false,
      infinite: true,
      pauseOnHover: true,
      slidesToShow: 5,
    });
  });

  it('replaces slick arrows with named buttons of its own', () => {
    expect(settings.arrows).toBe(false);
  });

  it('does not autoplay when the visitor prefers reduced motion, and changes nothing else', () => {
    const reduced = carouselSettings(true);
    expect(reduced.autoplay).toBe(false);
    expect({ ...reduced, autoplay: true }).toEqual(settings);
  });
});
