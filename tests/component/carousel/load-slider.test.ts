import {
  linkSlickStylesheet,
  resetSlickStylesheetForTests,
  STYLESHEET_WAIT_MS,
  unwrapDefault,
} from '#src/components/carousel/load-slider.ts';

const stylesheets = () => document.head.querySelectorAll('link[rel="stylesheet"]');

describe('load-slider', () => {
  beforeEach(() => {
    resetSlickStylesheetForTests();
    stylesheets().forEach((link) => link.remove());
  });

  it('unwraps the CommonJS namespace Vite hands over, or takes the component as it is', () => {
    function Slider() {
      return null;
    }
    expect(unwrapDefault(Slider)).toBe(Slider);
    expect(unwrapDefault({ default: Slider })).toBe(Slider);
  });

  it('links slick’s stylesheet once and resolves when it loads', async () => {
    const first = linkSlickStylesheet();
    const second = linkSlickStylesheet();
    expect(second).toBe(first);
    expect(stylesheets()).toHaveLength(1);
    stylesheets()[0]?.dispatchEvent(new Event('load'));
    await expect(first).resolves.toBeUndefined();
  });

  it('gives up waiting after STYLESHEET_WAIT_MS so the slider still mounts', async () => {
    vi.useFakeTimers();
    try {
      const loaded = linkSlickStylesheet();
      vi.advanceTimersByTime(STYLESHEET_WAIT_MS);
      await expect(loaded).resolves.toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });
});
