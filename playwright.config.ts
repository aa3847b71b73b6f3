import { defineConfig } from '@playwright/test';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './scripts/chromium.mjs';
import {
  E2E_CLIENT_PROXY,
  DEV_URL,
  E2E_OUT_DIR,
  E2E_PORTS,
  E2E_SITES,
  EMULATOR_URL,
  relayEnvFor,
  RELAY_EMULATOR_URL,
  WORKER_EMULATOR_URL,
  WORKER_URL,
  E2E_EMULATOR_API_KEY,
  E2E_EMULATOR_BASE_ID,
  GA_SCRIPT_URL,
  SITE_URL,
} from './tests/e2e/support/config.mjs';

const vite = 'node node_modules/vite/bin/vite.js';

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
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_FLAGS],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  // Everything on loopback, started with the same commands a developer uses: the emulator's
  // CLI, and for each site `vite build` then `vite preview` (the host's behaviour and the relay).
  webServer: [
    {
      // The direct-mode sites' browsers talk to this one straight from both test workers at once:
      // a limit above Airtable's 5 a second keeps one test's burst from failing another's (a 429
      // in its console). Airtable's real limit is held by the relay's and the Worker's emulators
      // below, the integration tests and the load test.
      command: `node --import tsx scripts/airtable-emulator/cli.ts --port ${E2E_PORTS.emulator} --no-data --rate-limit 25`,
      url: `${EMULATOR_URL}/__emulator/health`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'pipe',
    },
    {
      command: `node --import tsx scripts/airtable-emulator/cli.ts --port ${E2E_PORTS.relayEmulator} --no-data`,
      url: `${RELAY_EMULATOR_URL}/__emulator/health`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'pipe',
    },
    ...E2E_SITES.map((site) => ({
      command:
        `${vite} build --outDir ${site.outDir} --emptyOutDir --logLevel warn && ` +
        `${vite} preview --outDir ${site.outDir} --port ${site.port} --strictPort`,
      url: `http://127.0.0.1:${site.port}/`,
      env: { ...site.buildEnv, ...relayEnvFor(site), TRUSTED_PROXIES: E2E_CLIENT_PROXY },
      timeout: 240_000,
      reuseExistingServer: false,
      stdout: 'pipe' as const,
    })),
    {
      command: `node --import tsx scripts/airtable-emulator/cli.ts --port ${E2E_PORTS.workerEmulator} --no-data`,
      url: `${WORKER_EMULATOR_URL}/__emulator/health`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'pipe',
    },
    {
      // The reference deploy as `npx wrangler dev` runs it: the built site, relay, queue, consumer.
      command:
        `${vite} build --outDir ${E2E_OUT_DIR}/worker --emptyOutDir --logLevel warn && ` +
        `node node_modules/wrangler/bin/wrangler.js dev --port ${E2E_PORTS.worker} --ip 127.0.0.1 ` +
        `--assets ${E2E_OUT_DIR}/worker --persist-to ${E2E_OUT_DIR}/wrangler-state ` +
        '--show-interactive-dev-session=false ' +
        `--var AIRTABLE_API_KEY:${E2E_EMULATOR_API_KEY} --var AIRTABLE_BASE_ID:${E2E_EMULATOR_BASE_ID} ` +
        `--var AIRTABLE_ENDPOINT_URL:${WORKER_EMULATOR_URL}`,
      url: `${WORKER_URL}/`,
      env: { VITE_SITE_URL: WORKER_URL, VITE_GA_SCRIPT_URL: GA_SCRIPT_URL, WRANGLER_SEND_METRICS: 'false' },
      timeout: 240_000,
      reuseExistingServer: false,
      stdout: 'pipe',
    },
    {
      // What a newcomer runs: `vite` with no keys, its emulator keeping data in a scratch file.
      command: `${vite} --port ${E2E_PORTS.dev} --strictPort`,
      url: `${DEV_URL}/__emulator/health`,
      env: { AIRTABLE_EMULATOR_DATA: `${E2E_OUT_DIR}/dev-airtable.json`, TRUSTED_PROXIES: E2E_CLIENT_PROXY },
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'pipe' as const,
    },
  ],
});
