import { carouselSettings, slidesToShowAt } from '@/components/carousel/carousel-settings';

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

  it('autoplays every 5000 ms with a 2000 ms transition, one at a time, no dots, infinitely, pausing on hover', () => {
    expect(settings).toMatchObject({
      autoplay: true,
      autoplaySpeed: 5000,
      speed: 2000,
      slidesToScroll: 1,
      dots: false,
      infinite: true,
      pauseOnHover: true,
      slidesToShow: 5,
    });
  });

  it('replaces slick arrows with named buttons of its own', () => {
    expect(settings.arrows).toBe(false);
  });

  it('under reduced motion neither autoplays nor animates, and changes nothing else', () => {
    const reduced = carouselSettings(true);
    expect(reduced.autoplay).toBe(false);
    expect(reduced.speed).toBe(0);
    expect({ ...reduced, autoplay: true, speed: 2000 }).toEqual(settings);
  });
});
