import { vi } from 'vitest';

/** A MediaQueryList stand-in for jsdom, which has no matchMedia. */
export function fakeMediaQueryList(query: string, matches: boolean): MediaQueryList {
  return {
    matches,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  } as MediaQueryList;
}

/** Makes `(prefers-reduced-motion: reduce)` match, or not, for the rest of the test. */
export function emulateReducedMotion(reduce: boolean): void {
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) =>
    fakeMediaQueryList(query, reduce && query.includes('prefers-reduced-motion: reduce')),
  );
}
