import { defineConfig } from '@playwright/test';
import { CHROMIUM_FLAGS, testBrowserPath } from './scripts/bench/chromium.mjs';
import { SITE_URL } from './tests/e2e/support/config.mjs';
import { launcherFor, selectedSpecs, serversFor } from './tests/e2e/support/servers.mjs';

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: SITE_URL,
    trace: 'off',
    // One browser context per worker, reset by Playwright between tests (page at about:blank;
    // cookies, cache, storage, routes and init scripts cleared): a new context cost this machine
    // about 1 s of CPU per test. Tests that ask for other context options (JavaScript off) still
    // get their own. docs/decisions/0014-one-browser-context-per-worker.md.
    reuseContext: true,
    launchOptions: {
      // Debian's headless shell where installed, else its full Chromium (scripts/bench/chromium.mjs).
      executablePath: testBrowserPath(),
      args: [...CHROMIUM_FLAGS],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  // Everything on loopback, started with the commands a developer uses (the emulator's CLI,
  // `vite build` once per site, `vite preview`, `wrangler dev`, `vite`), only the servers the
  // selected spec files use, all at once (tests/e2e/support/servers.mjs, start-servers.mjs).
  webServer: launcherFor(serversFor(selectedSpecs())),
});
