// @ts-check
import { existsSync } from 'node:fs';

// Debian's Chromium and the launch flags that work on this project's machines (no downloads).
// `CHROMIUM_PATH` names another build for everything below.

/** Debian's full browser (package `chromium`), as visitors run it. */
export const FULL_CHROMIUM_PATH = '/usr/bin/chromium';

/** The Lighthouse bench and the image generator run the full browser. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? FULL_CHROMIUM_PATH;

/**
 * Debian's headless shell (package `chromium-headless-shell`): the same Chromium without the full
 * browser's windowing layer. The browser suite costs about a fifth less CPU in it (decision 0015).
 */
export const HEADLESS_SHELL_PATH = '/usr/bin/chromium-headless-shell';

/**
 * The browser the Playwright tests launch: `CHROMIUM_PATH`, else the headless shell where it is
 * installed, else the full browser.
 * @param {{ CHROMIUM_PATH?: string }} env @param {(path: string) => boolean} exists
 */
export function testBrowserPath(env = process.env, exists = existsSync) {
  if (env.CHROMIUM_PATH) return env.CHROMIUM_PATH;
  return exists(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : FULL_CHROMIUM_PATH;
}

export const CHROMIUM_FLAGS = Object.freeze([
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]);
