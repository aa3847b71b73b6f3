// @ts-check
import { runnerImport } from 'vite';

/**
 * Loads the emulator (TypeScript) from a script plain Node runs, through Vite's module runner
 * (as scripts/run-ts.mjs does for whole tools).
 * @returns {Promise<typeof import('./emulator.ts')>}
 */
export async function importEmulator() {
  const { module } = await runnerImport(new URL('./emulator.ts', import.meta.url).href, {
    configFile: false,
    logLevel: 'error',
  });
  return /** @type {typeof import('./emulator.ts')} */ (module);
}
