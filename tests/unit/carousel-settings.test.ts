import { carouselSettings, slidesToShowAt } from '#src/components/carousel/carousel-settings.ts';

describe('slidesToShowAt', () => {
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
    expect(slidesToShowAt(width)).toBe(slides);
  });
});

describe('carouselSettings', () => {
  const settings = carouselSettings(false);

  it('replaces slick arrows with named buttons of its own', () => {
    expect(settings.arrows).toBe(false);
  });

  it('under reduced motion neither autoplays nor animates, and changes nothing else', () => {
    const reduced = carouselSettings(true);
    expect(reduced.autoplay).toBe(false);
    expect(reduced.speed).toBe(0);
    expect(settings.autoplay).toBe(true);
    expect(settings.speed).toBeGreaterThan(0);
    expect({ ...reduced, autoplay: settings.autoplay, speed: settings.speed }).toEqual(settings);
  });
});
