/// <reference types="vitest/config" />
import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { workerServer } from './scripts/vite-plugins/worker-server.ts';
import { prerender } from './scripts/vite-plugins/prerender.ts';
import { siteSettings } from './scripts/vite-plugins/site-settings.ts';
import { WorkerdFirstSequencer } from './tests/runner/sequencer.ts';

const settings = siteSettings();

export default defineConfig({
  plugins: [settings, react(), prerender(settings), ...workerServer(settings)],
  resolve: {
    alias: [
      // react-router's package exports only its development build to bundlers; the production
      // build drops dev-only warnings and checks (about 3 KB gzip less on every page).
      {
        find: /^react-router$/,
        replacement: fileURLToPath(
          new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url),
        ),
      },
      {
        find: /^react-router\/dom$/,
        replacement: fileURLToPath(
          new URL('./node_modules/react-router/dist/production/dom-export.mjs', import.meta.url),
        ),
      },
    ],
  },
  server: { host: '127.0.0.1', port: 5173 },
  // Pre-bundled at start: loaded on demand (first focus of a form, consent, near the viewport),
  // they would otherwise be discovered mid-visit and make the dev server reload the page.
  optimizeDeps: { include: ['airtable', 'react-slick', 'react-hot-toast', 'react-ga4'] },
  preview: { host: '127.0.0.1', port: 4173 },
  build: { target: 'es2022', sourcemap: false },
  // The page's build only: the Worker's (Cloudflare's plugin builds it beside) keeps Rollup's defaults.
  environments: {
    client: {
      build: {
        // A stylesheet per chunk: the prerender plugin inlines into each page only the global styles
        // and its own chunk's (a legal page no longer carries the home and schools styles before
        // first paint); client-side navigation fetches a page's CSS with its chunk.
        cssCodeSplit: true,
        // No modulepreload tags: each built page's inline boot loader (scripts/vite-plugins/boot-loader.ts)
        // preloads the page's modules when it boots the app, from the list the prerender plugin writes.
        modulePreload: false,
        rollupOptions: {
          output: {
            // Two stable chunks instead of a dozen tiny shared ones: the framework, and the app
            // shell every page needs (frame, config, consent). Fewer requests and less gzip overhead.
            codeSplitting: {
              groups: [
                // One small chunk: what the entry needs first (Vite's preload helper) and what the
                // analytics module needs (a text page loads it alone, with consent, before the app:
                // scripts/vite-plugins/boot-loader.ts, and the page marks it reads), so analytics
                // imports nothing of the shell.
                {
                  name: 'settings',
                  test: /vite[\\/]preload-helper|src[\\/](config[\\/](settings|constants)|lib[\\/]page-marks)\.ts/,
                },
                {
                  name: 'framework',
                  test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom)[\\/]/,
                },
                {
                  name: 'shell',
                  test: /src[\\/](config[\\/]|app[\\/]|lib[\\/](scroll|when-idle-after-load)\.ts|features[\\/]consent[\\/]|content[\\/]headlines\.ts|components[\\/](header|footer|brand-icons|nav-item-link|social-links|waitlist-link)\.tsx|pages[\\/]not-found-page)/,
                },
              ],
            },
          },
        },
      },
    },
  },
  // The suites as projects, so each command runs what it needs (docs/tests.md): `test:quick` is
  // unit + component, the edit loop; `test:vitest` (all of Vitest) adds integration over HTTP and
  // the Worker in workerd. The runner uses both cores (its default on 2 cores is one worker).
  test: {
    globals: true,
    setupFiles: ['./tests/setup/vitest-setup.ts'],
    testTimeout: 20_000,
    restoreMocks: true,
    // Globals a test stubs (IntersectionObserver, location…) are put back after it.
    unstubGlobals: true,
    maxWorkers: 2,
    sequence: { sequencer: WorkerdFirstSequencer },
    projects: [
      // Logic in Node; the three files that need a DOM say so in their first line.
      {
        extends: true,
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node', pool: 'threads' },
      },
      {
        extends: true,
        test: {
          name: 'component',
          include: ['tests/component/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          // One jsdom per worker, a fresh VM context per file: a file still starts from new
          // modules and globals, without loading jsdom again (about a third of the run's time).
          pool: 'vmThreads',
        },
        // Node 20 resolves react-router-dom to its CommonJS build, which requires react-router's
        // ES modules: a VM context cannot. Its ES build, as the browser gets it.
        resolve: {
          alias: [
            {
              find: /^react-router-dom$/,
              replacement: fileURLToPath(
                new URL('./node_modules/react-router-dom/dist/index.mjs', import.meta.url),
              ),
            },
          ],
        },
      },
      // Servers, child processes and builds: one process each (forks).
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          pool: 'forks',
          // Mostly waiting (on servers, child processes, the Worker's queues and the owner's
          // commands' pacers), not computing: six at a time, after the unit and component files,
          // which keep both cores busy. Measured in docs/tests.md (four: slower; eight: more so).
          maxWorkers: 6,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
