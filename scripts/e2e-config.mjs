// @ts-check
/** Loopback addresses and build settings shared by the e2e servers script and the specs. */
// E2E_PORT_BASE lets several test runs share one machine without sharing servers.
const base = Number(process.env.E2E_PORT_BASE ?? 4173);
export const E2E_PORTS = Object.freeze({ site: base, siteFlags: base + 1, emulator: base + 2 });

export const SITE_URL = `http://127.0.0.1:${E2E_PORTS.site}`;
/** The same site built with SCHOOLS_PAGE off, TEMP_ISSUE_POPUP on and GOOGLE_PLAY_BUTTON off. */
export const SITE_FLAGS_URL = `http://127.0.0.1:${E2E_PORTS.siteFlags}`;
export const EMULATOR_URL = `http://127.0.0.1:${E2E_PORTS.emulator}`;

export const GA_TEST_ID = 'G-E2ETEST01';
/** Nothing listens here: the specs fulfil it with a stand-in gtag.js through page.route. */
export const GA_SCRIPT_URL = 'http://127.0.0.1:4599/gtag/js';

export const E2E_OUT_DIR = `node_modules/.e2e-${base}`;

/**
 * The storage layer's answer bound in the e2e builds (production: 30 s), so a hanging request or
 * sustained 429 answers in seconds. tests/e2e/faults.spec.ts asserts against it.
 */
export const E2E_STORAGE_ANSWER_BOUND_MS = 4000;
