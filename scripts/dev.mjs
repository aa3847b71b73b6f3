// `npm run dev`: Vite's dev server, plus the local Airtable emulator when no real key is set,
// so the forms work on a fresh clone with no Airtable account.

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, loadEnv } from 'vite';
import { importEmulator } from './airtable-emulator/import-emulator.mjs';

const {
  EMULATOR_ADMIN_PREFIX,
  EMULATOR_API_KEY,
  EMULATOR_BASE_ID,
  EMULATOR_DEFAULT_DATA_FILE,
  EMULATOR_DEFAULT_PORT,
  EMULATOR_HOST,
  startEmulator,
} = await importEmulator();

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const mode = 'development';
const dataFile = process.env.AIRTABLE_EMULATOR_DATA || EMULATOR_DEFAULT_DATA_FILE;

/**
 * Vite flags worth passing through: `npm run dev -- --port 3000 --host 0.0.0.0 --open`.
 * @param {string[]} argv
 * @returns {import('vite').ServerOptions}
 */
function serverOverrides(argv) {
  /** @type {import('vite').ServerOptions} */
  const server = {};
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i];
    if (flag === '--port') server.port = Number(argv[++i]);
    else if (flag === '--host') server.host = argv[++i] ?? true;
    else if (flag === '--open') server.open = true;
    else if (flag === '--strictPort') server.strictPort = true;
    else throw new Error(`Unknown option ${flag} (dev accepts --port, --host, --open, --strictPort)`);
  }
  return server;
}

/**
 * An emulator left running by another `npm run dev` holds the port: reuse it rather than fail.
 * @param {string} url
 */
async function isEmulator(url) {
  try {
    const response = await fetch(`${url}${EMULATOR_ADMIN_PREFIX}/health`, {
      signal: AbortSignal.timeout(1000),
    });
    const body = /** @type {{ ok?: boolean, baseId?: string }} */ (await response.json());
    return body.ok === true && body.baseId === EMULATOR_BASE_ID;
  } catch {
    return false;
  }
}

/** @returns {Promise<{ url: string, close: () => Promise<void> }>} */
async function startOrReuseEmulator() {
  const port = Number(process.env.AIRTABLE_EMULATOR_PORT || EMULATOR_DEFAULT_PORT);
  try {
    return await startEmulator({
      port,
      dataFile: path.resolve(root, dataFile),
      log: (line) => console.warn(line),
    });
  } catch (error) {
    const url = `http://${EMULATOR_HOST}:${port}`;
    if (/** @type {NodeJS.ErrnoException} */ (error).code === 'EADDRINUSE' && (await isEmulator(url))) {
      return { url, close: async () => undefined };
    }
    throw error;
  }
}

const overrides = serverOverrides(process.argv.slice(2));
// Values already in process.env win over .env files, as they do in Vite itself.
const fileEnv = loadEnv(mode, root, 'VITE_');
const apiKey = (process.env.VITE_AIRTABLE_API_KEY ?? fileEnv.VITE_AIRTABLE_API_KEY ?? '').trim();

/** @type {{ url: string, close: () => Promise<void> } | undefined} */
let emulator;
if (!apiKey) {
  emulator = await startOrReuseEmulator();
  // Set before createServer so import.meta.env in the app sees the emulator.
  process.env.VITE_AIRTABLE_ENDPOINT_URL = emulator.url;
  process.env.VITE_AIRTABLE_API_KEY = EMULATOR_API_KEY;
  process.env.VITE_AIRTABLE_BASE_ID = EMULATOR_BASE_ID;
  console.log(
    `No VITE_AIRTABLE_API_KEY: forms write to the local Airtable emulator at ${emulator.url} ` +
      `(saved in ${dataFile}); see submissions at ${emulator.url}${EMULATOR_ADMIN_PREFIX}/ ` +
      `or with \`npm run submissions\`.`,
  );
}

const server = await createServer({ root, mode, server: overrides });
await server.listen();
server.printUrls();
server.bindCLIShortcuts({ print: true });

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await Promise.allSettled([server.close(), emulator?.close()]);
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
