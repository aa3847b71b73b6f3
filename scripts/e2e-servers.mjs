// @ts-check
/**
 * Everything the end-to-end tests run against, on loopback only: the Airtable emulator and
 * two production builds served like the static host (default flags, and flags flipped).
 */
import { buildSite } from './build-site.mjs';
import { startStaticServer } from './static-server.mjs';
import {
  E2E_OUT_DIR,
  E2E_PORTS,
  E2E_STORAGE_ANSWER_BOUND_MS,
  EMULATOR_URL,
  GA_SCRIPT_URL,
  GA_TEST_ID,
} from './e2e-config.mjs';

import { importEmulator } from './airtable-emulator/import-emulator.mjs';

const { startEmulator, EMULATOR_API_KEY, EMULATOR_BASE_ID } = await importEmulator();

await startEmulator({ port: E2E_PORTS.emulator });

const common = {
  VITE_AIRTABLE_API_KEY: EMULATOR_API_KEY,
  VITE_AIRTABLE_BASE_ID: EMULATOR_BASE_ID,
  VITE_AIRTABLE_ENDPOINT_URL: EMULATOR_URL,
  VITE_GA_MEASUREMENT_ID: GA_TEST_ID,
  VITE_GA_SCRIPT_URL: GA_SCRIPT_URL,
  VITE_SITE_URL: `http://127.0.0.1:${E2E_PORTS.site}`,
  VITE_STORAGE_ANSWER_BOUND_MS: String(E2E_STORAGE_ANSWER_BOUND_MS),
};

const defaultDir = `${E2E_OUT_DIR}/default`;
const flagsDir = `${E2E_OUT_DIR}/flags`;
await buildSite({ outDir: defaultDir, env: common, quiet: true });
await buildSite({
  outDir: flagsDir,
  quiet: true,
  env: {
    ...common,
    VITE_FEATURE_SCHOOLS_PAGE: 'false',
    VITE_FEATURE_TEMP_ISSUE_POPUP: 'true',
    VITE_FEATURE_GOOGLE_PLAY_BUTTON: 'false',
  },
});
await startStaticServer({ root: defaultDir, port: E2E_PORTS.site });
await startStaticServer({ root: flagsDir, port: E2E_PORTS.siteFlags });
console.log('e2e servers ready');
