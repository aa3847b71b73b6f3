// @ts-check
/**
 * Runs a TypeScript module from the command line with Node 20, through Vite's own SSR module
 * loader, so Node-side tools can be written in TypeScript and share src/ modules (the `@/` alias
 * included) without a separate TypeScript runner.
 *
 *   node scripts/run-ts.mjs scripts/airtable-emulator/cli.ts --port 8787
 *
 * The module's `main(argv)` export, if any, is called with the remaining arguments; its resolved
 * number becomes the exit code. The loader stays open until `main` settles, so the tool's own
 * dynamic import()s (airtable.js in the storage layer, say) load while it runs.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';

const [file, ...args] = process.argv.slice(2);
if (!file) {
  console.error('Usage: node scripts/run-ts.mjs <module.ts> [arguments…]');
  process.exit(2);
}
const loader = await createServer({
  configFile: false,
  logLevel: 'error',
  appType: 'custom',
  server: { middlewareMode: true, hmr: false, ws: false, watch: null },
  optimizeDeps: { noDiscovery: true, include: [] },
  resolve: { alias: [{ find: /^@\//, replacement: fileURLToPath(new URL('../src/', import.meta.url)) }] },
});
try {
  const module = /** @type {{ main?: (argv: string[]) => unknown }} */ (
    await loader.ssrLoadModule(resolve(file))
  );
  if (typeof module.main === 'function') {
    const code = await module.main(args);
    if (typeof code === 'number') process.exitCode = code;
  }
} finally {
  await loader.close();
}
