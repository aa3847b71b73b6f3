// @ts-check
/**
 * The loopback servers the browser tests use, and which of them a run needs: a run starts only
 * the servers its spec files name (by the URL constants of config.mjs they use), so one spec
 * starts one or two servers, not eight. Sites are built once (build-site.mjs) and served with
 * `vite preview`; the Worker serves the relay site's build under `wrangler dev`. They all start
 * at once (start-servers.mjs), behind one entry in Playwright's `webServer`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DEV_URL,
  E2E_CLIENT_PROXY,
  E2E_EMULATOR_API_KEY,
  E2E_EMULATOR_BASE_ID,
  E2E_LINK_SECRET,
  E2E_OUT_DIR,
  E2E_PORTS,
  E2E_SITES,
  E2E_STORAGE_ANSWER_BOUND_MS,
  LAUNCHER_URL,
  outboxDirFor,
  relayEnvFor,
  WORKER_EMULATOR_URL,
  WORKER_URL,
} from './config.mjs';
import { WRANGLER_LOCAL_ENV } from '#scripts/wrangler-env.mjs';

/** @typedef {{ command: string, url: string, env?: Record<string, string>, timeout: number, oneAtATime?: boolean }} Server */
/** @typedef {Server & { reuseExistingServer: boolean, stdout: 'pipe' }} WebServer */

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const SPEC_DIR = 'tests/e2e';
const vite = 'node node_modules/vite/bin/vite.js';

/** @param {string} name */
const siteNamed = (name) => {
  const site = E2E_SITES.find((candidate) => candidate.name === name);
  if (!site) throw new Error(`no e2e site ${name}`);
  return site;
};

/** @param {number} port @param {string} extra */
const emulator = (port, extra = '') => ({
  command: `node --import tsx scripts/airtable-emulator/cli.ts --port ${port} --no-data${extra}`,
  url: `http://127.0.0.1:${port}/__emulator/health`,
  timeout: 60_000,
});

/** Serves an e2e site's build (`site` on its entry builds it first). @param {string} name */
const previewSite = (name) => {
  const site = siteNamed(name);
  return {
    // The direct-mode sites' Worker only serves files: their request lines would bury the logs.
    command:
      `${vite} preview --outDir ${site.outDir} --port ${site.port} --strictPort` +
      (name === 'relay' ? '' : ' --logLevel warn'),
    url: `http://127.0.0.1:${site.port}/`,
    env: {
      ...site.buildEnv,
      ...relayEnvFor(site),
      TRUSTED_PROXIES: E2E_CLIENT_PROXY,
      WORKER_STATE_DIR: `${E2E_OUT_DIR}/state-${name}`,
    },
    timeout: 60_000,
    // Cloudflare's plugin finds the build to preview through one file (.wrangler/deploy): one
    // preview reads it at a time (start-servers.mjs).
    oneAtATime: true,
  };
};

/** The command that builds the named e2e sites, each only when its sources changed (build-site.mjs). */
export const BUILD_SITE_COMMAND = 'node --import tsx tests/e2e/support/build-site.mjs';

/**
 * Every server, with what it needs and the names in a spec that ask for it; `site` is the e2e
 * site it serves, built before it starts. The direct-mode site on SITE_URL is Playwright's
 * baseURL: every run has it.
 * @typedef {{ name: string, needs: string[], askedBy: RegExp | null, site?: string, server: () => Server }} E2EServer
 * @type {E2EServer[]}
 */
export const E2E_SERVERS = [
  {
    // The direct-mode sites' browsers call it from both test workers at once: a limit above
    // Airtable's 5 a second keeps one test's burst from failing another's (a 429 in its
    // console). Airtable's real limit is held by the relay's and the Worker's emulators, the
    // integration tests and the load test.
    name: 'emulator',
    needs: [],
    askedBy: null,
    server: () => emulator(E2E_PORTS.emulator, ' --rate-limit 25'),
  },
  { name: 'site', needs: ['emulator'], askedBy: null, site: 'default', server: () => previewSite('default') },
  {
    name: 'flags',
    needs: ['emulator'],
    askedBy: /\bSITE_FLAGS_URL\b/,
    site: 'flags',
    server: () => previewSite('flags'),
  },
  // The relay site's own Airtable: its specs count the requests that reach it.
  {
    name: 'relayEmulator',
    needs: [],
    askedBy: /\bRELAY_EMULATOR_URL\b/,
    server: () => emulator(E2E_PORTS.relayEmulator),
  },
  {
    name: 'relay',
    needs: ['relayEmulator'],
    askedBy: /\bSITE_RELAY_URL\b/,
    site: 'relay',
    server: () => previewSite('relay'),
  },
  {
    name: 'workerEmulator',
    needs: [],
    askedBy: /\bWORKER_EMULATOR_URL\b/,
    server: () => emulator(E2E_PORTS.workerEmulator),
  },
  {
    // The reference deploy as `npx wrangler dev` runs it: the built relay-mode site, the relay,
    // the queue and its consumer, writing to its own emulator.
    name: 'worker',
    needs: ['workerEmulator'],
    askedBy: /\bWORKER_URL\b/,
    site: 'relay',
    server: () => ({
      command:
        `node node_modules/wrangler/bin/wrangler.js dev --config wrangler.jsonc --port ${E2E_PORTS.worker} --ip 127.0.0.1 ` +
        `--inspector-port ${E2E_PORTS.workerInspector} ` +
        `--assets ${siteNamed('relay').outDir}/client --persist-to ${E2E_OUT_DIR}/wrangler-state ` +
        '--show-interactive-dev-session=false ' +
        `--var AIRTABLE_API_KEY:${E2E_EMULATOR_API_KEY} --var AIRTABLE_BASE_ID:${E2E_EMULATOR_BASE_ID} ` +
        `--var AIRTABLE_ENDPOINT_URL:${WORKER_EMULATOR_URL} --var LINK_SECRET:${E2E_LINK_SECRET} ` +
        `--var SITE_URL:${WORKER_URL}`,
      url: `${WORKER_URL}/`,
      env: { ...WRANGLER_LOCAL_ENV },
      timeout: 120_000,
    }),
  },
  {
    // What a newcomer runs: `vite` with no keys, its emulator keeping data in a scratch file.
    name: 'dev',
    needs: [],
    askedBy: /\bDEV_URL\b/,
    server: () => ({
      command: `${vite} --port ${E2E_PORTS.dev} --strictPort`,
      url: `${DEV_URL}/__emulator/health`,
      env: {
        AIRTABLE_EMULATOR_DATA: `${E2E_OUT_DIR}/dev-airtable.json`,
        MAIL_OUTBOX_DIR: outboxDirFor('dev'),
        LINK_SECRET: E2E_LINK_SECRET,
        TRUSTED_PROXIES: E2E_CLIENT_PROXY,
        WORKER_STATE_DIR: `${E2E_OUT_DIR}/state-dev`,
        // As the e2e builds: a refused sign-up answers in seconds, not the production 30 s.
        VITE_STORAGE_ANSWER_BOUND_MS: String(E2E_STORAGE_ANSWER_BOUND_MS),
      },
      timeout: 60_000,
    }),
  },
];

/** Every spec file, relative to the repository. */
function specFiles() {
  return readdirSync(join(ROOT, SPEC_DIR))
    .filter((name) => name.endsWith('.spec.ts'))
    .map((name) => `${SPEC_DIR}/${name}`)
    .sort();
}

/** Playwright's options that take a value: what follows them is not a file filter. */
const OPTIONS_WITH_VALUE = new Set([
  '-c',
  '--config',
  '-g',
  '--grep',
  '--grep-invert',
  '-j',
  '--workers',
  '--project',
  '--reporter',
  '--repeat-each',
  '--retries',
  '--timeout',
  '--max-failures',
  '--shard',
  '--output',
  '--trace',
  '--global-timeout',
  '--tsconfig',
]);

/**
 * The spec files a `playwright test` command line selects: its file filters (regular
 * expressions over the file path, as Playwright reads them), or every spec without any.
 * @param {string[]} argv
 */
export function selectedSpecs(argv = process.argv) {
  const at = argv.indexOf('test');
  /** @type {string[]} */
  const filters = [];
  for (let i = at + 1; at >= 0 && i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (OPTIONS_WITH_VALUE.has(arg)) i += 1;
    else if (!arg.startsWith('-')) filters.push(arg.replace(/:\d+(:\d+)?$/, ''));
  }
  const all = specFiles();
  if (filters.length === 0) return all;
  const chosen = all.filter((file) =>
    filters.some((filter) => {
      try {
        return new RegExp(filter).test(file);
      } catch {
        return file.includes(filter);
      }
    }),
  );
  return chosen.length > 0 ? chosen : all;
}

/** The servers these spec files need, in start order. @param {string[]} specs */
export function serversFor(specs) {
  const text = specs.map((file) => readFileSync(join(ROOT, file), 'utf8')).join('\n');
  const wanted = new Set(
    E2E_SERVERS.filter((entry) => entry.askedBy === null || entry.askedBy.test(text)).map(
      (entry) => entry.name,
    ),
  );
  for (let grew = true; grew;) {
    grew = false;
    for (const entry of E2E_SERVERS)
      if (wanted.has(entry.name))
        for (const need of entry.needs)
          if (!wanted.has(need)) {
            wanted.add(need);
            grew = true;
          }
  }
  return E2E_SERVERS.filter((entry) => wanted.has(entry.name));
}

/**
 * Playwright's one `webServer` for these servers: start-servers.mjs builds their sites and starts
 * them all at once (Playwright starts its webServer entries one after another, each waiting for
 * the last to answer), and answers on E2E_PORTS.launcher once every one of them answers.
 * @param {E2EServer[]} servers @returns {WebServer}
 */
export function launcherFor(servers) {
  return {
    command: `node --import tsx tests/e2e/support/start-servers.mjs ${servers.map((entry) => entry.name).join(' ')}`,
    url: LAUNCHER_URL,
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: 'pipe',
  };
}
