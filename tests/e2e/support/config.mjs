// @ts-check
/**
 * Loopback addresses and build settings shared by the Playwright config and the specs. Every
 * server is a plain Vite command (`vite build` then `vite preview`) or the emulator's CLI.
 */
import { EMULATOR_API_KEY, EMULATOR_BASE_ID } from '#scripts/airtable-emulator/emulator.ts';

// E2E_PORT_BASE lets several test runs share one machine without sharing servers.
const base = Number(process.env.E2E_PORT_BASE ?? 4173);
export const E2E_PORTS = Object.freeze({
  site: base,
  siteFlags: base + 1,
  emulator: base + 2,
  siteRelay: base + 3,
  dev: base + 4,
  relayEmulator: base + 5,
  worker: base + 6,
  workerEmulator: base + 7,
  /** The Worker's devtools port (wrangler's default, 9229, is one per machine). */
  workerInspector: base + 8,
  /** Answers once every server the run needs answers (start-servers.mjs). */
  launcher: base + 9,
});

/** Direct mode (the spec's): the page's airtable.js talks to the emulator with the key. */
export const SITE_URL = `http://127.0.0.1:${E2E_PORTS.site}`;
/** The same, built with SCHOOLS_PAGE off, TEMP_ISSUE_POPUP on and GOOGLE_PLAY_BUTTON off. */
export const SITE_FLAGS_URL = `http://127.0.0.1:${E2E_PORTS.siteFlags}`;
/** Relay mode (the default without a browser key): the page talks to /api/airtable only. */
export const SITE_RELAY_URL = `http://127.0.0.1:${E2E_PORTS.siteRelay}`;
export const EMULATOR_URL = `http://127.0.0.1:${E2E_PORTS.emulator}`;
/**
 * The relay-mode site's own Airtable: its specs count the requests that reach Airtable, which
 * the shared emulator's other clients (the direct-mode specs in the other worker) would blur.
 */
export const RELAY_EMULATOR_URL = `http://127.0.0.1:${E2E_PORTS.relayEmulator}`;
/** The reference deploy: the Worker under `wrangler dev` (workerd), queue and all, with its own Airtable. */
export const WORKER_URL = `http://127.0.0.1:${E2E_PORTS.worker}`;
export const WORKER_EMULATOR_URL = `http://127.0.0.1:${E2E_PORTS.workerEmulator}`;
/** Plain `vite` (dev server) with no keys: the relay and its own emulator on the same origin. */
export const DEV_URL = `http://127.0.0.1:${E2E_PORTS.dev}`;

export const LAUNCHER_URL = `http://127.0.0.1:${E2E_PORTS.launcher}/ready`;

const GA_TEST_ID = 'G-E2ETEST01';
/** Nothing listens here: the specs fulfil it with a stand-in gtag.js through page.route. */
export const GA_SCRIPT_URL = 'http://127.0.0.1:4599/gtag/js';

export const E2E_OUT_DIR = `node_modules/.e2e-${base}`;

/**
 * The storage layer's answer bound in the e2e builds (production: 30 s), so a hanging request or
 * sustained 429 answers in seconds. tests/e2e/faults.spec.ts asserts against it.
 */
export const E2E_STORAGE_ANSWER_BOUND_MS = 4000;

/** The emulator's fixed local credentials (not secrets: they open only the loopback emulator). */
export { EMULATOR_API_KEY as E2E_EMULATOR_API_KEY, EMULATOR_BASE_ID as E2E_EMULATOR_BASE_ID };
/** The Worker signs its emails' links with the public local secret, as `startWorker` does. */
export const E2E_LINK_SECRET = 'e2e-link-secret-for-the-loopback-test-servers-only';

/**
 * @typedef {{ name: string, port: number, outDir: string, buildEnv: Record<string, string> }} E2ESite
 */

/** Settings every e2e build shares. @param {number} port */
const common = (port) => ({
  VITE_GA_MEASUREMENT_ID: GA_TEST_ID,
  VITE_GA_SCRIPT_URL: GA_SCRIPT_URL,
  VITE_SITE_URL: `http://127.0.0.1:${port}`,
  VITE_STORAGE_ANSWER_BOUND_MS: String(E2E_STORAGE_ANSWER_BOUND_MS),
});
const direct = {
  VITE_AIRTABLE_API_KEY: EMULATOR_API_KEY,
  VITE_AIRTABLE_BASE_ID: EMULATOR_BASE_ID,
  VITE_AIRTABLE_ENDPOINT_URL: EMULATOR_URL,
};

/** @type {E2ESite[]} */
export const E2E_SITES = [
  {
    name: 'default',
    port: E2E_PORTS.site,
    outDir: `${E2E_OUT_DIR}/default`,
    buildEnv: { ...common(E2E_PORTS.site), ...direct },
  },
  {
    name: 'flags',
    port: E2E_PORTS.siteFlags,
    outDir: `${E2E_OUT_DIR}/flags`,
    buildEnv: {
      ...common(E2E_PORTS.siteFlags),
      ...direct,
      VITE_FEATURE_SCHOOLS_PAGE: 'false',
      VITE_FEATURE_TEMP_ISSUE_POPUP: 'true',
      VITE_FEATURE_GOOGLE_PLAY_BUTTON: 'false',
    },
  },
  {
    name: 'relay',
    port: E2E_PORTS.siteRelay,
    outDir: `${E2E_OUT_DIR}/relay`,
    buildEnv: common(E2E_PORTS.siteRelay),
  },
];

/** What a preview server's relay talks to: the shared emulator, or for the relay site its own. */
/** Where a site's server writes its emails (the local outbox): the test run's own folder. */
export const outboxDirFor = (/** @type {string} */ name) => `${E2E_OUT_DIR}/outbox-${name}`;

export const relayEnvFor = (/** @type {E2ESite} */ site) => ({
  MAIL_OUTBOX_DIR: outboxDirFor(site.name),
  LINK_SECRET: E2E_LINK_SECRET,
  AIRTABLE_API_KEY: EMULATOR_API_KEY,
  AIRTABLE_BASE_ID: EMULATOR_BASE_ID,
  AIRTABLE_ENDPOINT_URL: site.name === 'relay' ? RELAY_EMULATOR_URL : EMULATOR_URL,
});

/**
 * Each test is a visitor of its own address, as the server's per-client limit sees production:
 * the test harness is the one proxy the local servers trust (TRUSTED_PROXIES) and names the
 * test's address in X-Forwarded-For (wrangler dev takes CF-Connecting-IP as sent).
 */
export const E2E_CLIENT_PROXY = '127.0.0.1';
