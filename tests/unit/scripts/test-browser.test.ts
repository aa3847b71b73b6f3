import { describe, expect, it } from 'vitest';
import { FULL_CHROMIUM_PATH, HEADLESS_SHELL_PATH, testBrowserPath } from '#scripts/bench/chromium.mjs';

// Which Chromium the Playwright tests launch (docs/decisions/0015-browser-tests-in-the-headless-shell.md).
describe('the browser the e2e tests launch', () => {
  const installed =
    (...paths: string[]) =>
    (path: string) =>
      paths.includes(path);

  it("is Debian's headless shell where it is installed", () => {
    expect(testBrowserPath({}, installed(HEADLESS_SHELL_PATH, FULL_CHROMIUM_PATH))).toBe(HEADLESS_SHELL_PATH);
  });

  it("is Debian's full Chromium where the shell is not", () => {
    expect(testBrowserPath({}, installed(FULL_CHROMIUM_PATH))).toBe(FULL_CHROMIUM_PATH);
  });

  it('is the build CHROMIUM_PATH names, whatever else is installed', () => {
    expect(testBrowserPath({ CHROMIUM_PATH: '/opt/chromium/chrome' }, installed(HEADLESS_SHELL_PATH))).toBe(
      '/opt/chromium/chrome',
    );
  });
});
