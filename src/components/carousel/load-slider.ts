import type Slider from 'react-slick';
// Only the address: imported as a style, slick's CSS (and the site's rules for the slider, in the
// same file) would be inlined in the page's first load. It is linked on demand.
import slickStylesheetUrl from '#src/styles/carousel-slider.css?url';

export type SliderComponent = typeof Slider;

/** Longest the slider waits for slick's stylesheet before mounting anyway. */
export const STYLESHEET_WAIT_MS = 3000;

let slickStylesheet: Promise<void> | undefined;

/** Links slick's stylesheet once; resolves when it has loaded, failed or taken too long. */
export function linkSlickStylesheet(): Promise<void> {
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

/** Forgets the linked stylesheet (tests only). */
export function resetSlickStylesheetForTests(): void {
  slickStylesheet = undefined;
}

/** Under Vite 8 the default import of this CommonJS package is its namespace: unwraps it once. */
export function unwrapDefault(imported: unknown): SliderComponent {
  return (
    typeof imported === 'function' ? imported : (imported as { default: unknown }).default
  ) as SliderComponent;
}

/** Loads react-slick (a lazy chunk) and its CSS, both kept out of the first load. */
export async function loadSlider(): Promise<SliderComponent> {
  const [slickModule] = await Promise.all([import('react-slick'), linkSlickStylesheet()]);
  return unwrapDefault(slickModule.default);
}
