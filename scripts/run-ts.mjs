// @ts-check
/**
 * Runs a TypeScript module from the command line with Node 20, through Vite's own module runner
 * (`runnerImport`), so Node-side tools can be written in TypeScript and share src/ modules
 * (the `@/` alias included) without a separate TypeScript runner.
 *
 *   node scripts/run-ts.mjs scripts/airtable-emulator/cli.ts --port 8787
 *
 * The module's `main(argv)` export, if any, is called with the remaining arguments; its
 * resolved number becomes the exit code.
 */
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runnerImport } from 'vite';

const [file, ...args] = process.argv.slice(2);
if (!file) {
  console.error('Usage: node scripts/run-ts.mjs <module.ts> [arguments…]');
  process.exit(2);
}
const { module } = /** @type {{ module: { main?: (argv: string[]) => unknown } }} */ (
  await runnerImport(pathToFileURL(resolve(file)).href, {
    configFile: false,
    logLevel: 'error',
    resolve: { alias: [{ find: /^@\//, replacement: fileURLToPath(new URL('../src/', import.meta.url)) }] },
  })
);
if (typeof module.main === 'function') {
  const code = await module.main(args);
  if (typeof code === 'number') process.exitCode = code;
}
