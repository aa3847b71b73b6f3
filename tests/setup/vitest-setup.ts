import { afterEach, beforeEach, vi } from 'vitest';

/**
 * A DOM is there in the component project and in the unit files that ask for jsdom. Testing
 * Library (its matchers, its cleanup) and the jsdom stand-ins below load only there: a file in
 * Node has no use for React DOM, and each file would load it again.
 */
let cleanup: (() => void) | undefined;

if (typeof window !== 'undefined') {
  await import('@testing-library/jest-dom/vitest');
  ({ cleanup } = await import('@testing-library/react'));
  const { fakeMediaQueryList } = await import('#tests/component/support/match-media.ts');
  // jsdom lacks these; components use them in effects only.
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
  // A component test has no idle periods: work deferred to idle time (prefetching other pages,
  // the toast library) never starts on its own, so it cannot update a component after the test
  // has looked. Tests of that work schedule it themselves.
  if (!window.requestIdleCallback) {
    window.requestIdleCallback = () => 0;
    window.cancelIdleCallback = () => undefined;
  }
  if (!window.matchMedia) {
    window.matchMedia = (query: string) => fakeMediaQueryList(query, false);
  }
  // jsdom has <dialog> but neither its methods nor dialog forms: they only open and close it
  // here. What the browser adds (focus moved in and back, Tab kept inside, Escape, the inert
  // page) is tested in a browser (tests/e2e/home.spec.ts).
  if (!HTMLDialogElement.prototype.showModal) {
    HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
      this.open = true;
    };
    HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
      this.open = false;
      this.dispatchEvent(new Event('close'));
    };
    document.addEventListener('submit', (event) => {
      const form = event.target as HTMLFormElement;
      if (form.getAttribute('method') !== 'dialog') return;
      event.preventDefault();
      form.closest('dialog')?.close();
    });
  }
}

// Any console.error during a test fails it unless the test spies on console.error itself.
let unexpectedErrors: unknown[][] = [];
const originalError = console.error;

beforeEach(() => {
  unexpectedErrors = [];
  console.error = (...args: unknown[]) => {
    unexpectedErrors.push(args);
    originalError(...args);
  };
});

afterEach(() => {
  cleanup?.();
  const errors = unexpectedErrors;
  const spied = vi.isMockFunction(console.error);
  console.error = originalError;
  if (!spied && errors.length > 0) {
    throw new Error(
      `Unexpected console.error during test:\n${errors.map((a) => a.map(String).join(' ')).join('\n')}`,
    );
  }
});
