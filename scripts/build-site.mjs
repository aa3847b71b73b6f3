// @ts-check
/**
 * Builds the site into `outDir` with the given build-time environment (VITE_* variables):
 * the client bundle, then every route prerendered to its own HTML file (plus 404.html) and a
 * sitemap generated from the route table. `npm run build` uses the process environment;
 * end-to-end tests and the benchmark pass loopback stand-ins.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, loadEnv } from 'vite';
import { contentSecurityPolicy, headersFile } from './security-headers.mjs';

/**
 * @typedef {{ path: string, heading: string, head: string, html: string, modulePath: string | null }} PrerenderedPage
 * @typedef {{ file: string, css?: string[], imports?: string[], dynamicImports?: string[], isEntry?: boolean }} ManifestChunk
 */

/** id of the JSON list of modules the client fetches right after first paint (see src/main.tsx). */
export const BOOT_MODULES_ID = 'boot-modules';

/**
 * The JavaScript a page needs to hydrate, in load order: the app's start module and the page's
 * own chunk, each with its static imports. The entry script fetches them only after the
 * prerendered page has painted, so first paint never waits on (or competes with) JavaScript.
 * @param {Record<string, ManifestChunk & { dynamicImports?: string[] }>} manifest
 * @param {string | null} modulePath
 * @returns {string[]}
 */
export function bootModules(manifest, modulePath) {
  /** @type {string[]} */
  const files = [];
  /** @param {string} key */
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || chunk.isEntry || files.includes(chunk.file)) return;
    for (const imported of chunk.imports ?? []) visit(imported);
    files.push(chunk.file);
  };
  visit('src/app/start.tsx');
  if (modulePath) visit(modulePath);
  return files.map((file) => `/${file}`);
}

/**
 * @param {string} path
 */
function fileForPath(path) {
  if (path === '*') return '404.html';
  if (path === '/') return 'index.html';
  return join(path.replace(/^\//, ''), 'index.html');
}

/**
 * Replaces the site's stylesheet links with inline <style> so first paint needs no CSS request.
 * @param {string} outDir
 * @param {string} html
 */
async function inlineStylesheets(outDir, html) {
  let result = html;
  for (const match of html.matchAll(/<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g)) {
    const css = await readFile(join(outDir, /** @type {string} */ (match[1])), 'utf8');
    result = result.replace(match[0], `<style>${css.replace(/<\/style/gi, '<\\/style')}</style>`);
  }
  return result;
}

/**
 * @param {string} siteUrl
 * @param {PrerenderedPage[]} pages
 */
export function renderSitemap(siteUrl, pages) {
  const urls = pages
    .filter((page) => page.path !== '*')
    .map((page) => `  <url><loc>${siteUrl}${page.path}</loc></url>`)
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

/**
 * @param {{ outDir: string, env?: Record<string, string>, quiet?: boolean }} options
 * @returns {Promise<PrerenderedPage[]>}
 */
export async function buildSite({ outDir, env = {}, quiet = false }) {
  const saved = /** @type {Record<string, string | undefined>} */ ({});
  for (const [name, value] of Object.entries(env)) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
  const ssrDir = resolve('node_modules/.tmp', `ssr-${process.pid}-${Date.now()}`);
  try {
    const logLevel = quiet ? 'warn' : 'info';
    await build({ logLevel, build: { outDir, emptyOutDir: true, manifest: true } });
    await build({
      logLevel: 'warn',
      build: {
        ssr: 'src/entry-server.tsx',
        outDir: ssrDir,
        emptyOutDir: true,
        copyPublicDir: false,
        // One file: the prerenderer imports it once and renders every page from it.
        rollupOptions: { output: { codeSplitting: false } },
      },
    });
    /** @type {{ prerenderAll: () => Promise<PrerenderedPage[]>, siteUrl: string }} */
    const server = await import(pathToFileURL(join(ssrDir, 'entry-server.js')).href);
    // What the app itself sees: .env files, overridden by the process environment.
    const effectiveEnv = { ...loadEnv('production', process.cwd(), 'VITE_'), ...process.env };
    // Hosts that cannot send headers still get the policy (less frame-ancestors) and referrer rule.
    const securityMeta = [
      `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(effectiveEnv, { forMeta: true })}" />`,
      '<meta name="referrer" content="strict-origin-when-cross-origin" />',
    ].join('\n    ');
    const template = await inlineStylesheets(
      outDir,
      (await readFile(join(outDir, 'index.html'), 'utf8')).replace(
        '<meta charset="UTF-8" />',
        `<meta charset="UTF-8" />\n    ${securityMeta}`,
      ),
    );
    await writeFile(join(outDir, '_headers'), headersFile(effectiveEnv));
    /** @type {Record<string, ManifestChunk>} */
    const manifest = JSON.parse(await readFile(join(outDir, '.vite', 'manifest.json'), 'utf8'));
    await rm(join(outDir, '.vite'), { recursive: true, force: true });
    const pages = await server.prerenderAll();
    for (const page of pages) {
      const file = join(outDir, fileForPath(page.path));
      const modules = JSON.stringify(bootModules(manifest, page.modulePath));
      const head = [
        page.head,
        `<script type="application/json" id="${BOOT_MODULES_ID}">${modules}</script>`,
      ].join('\n    ');
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, template.replace('<!--app-head-->', head).replace('<!--app-html-->', page.html));
    }
    await writeFile(join(outDir, 'sitemap.xml'), renderSitemap(server.siteUrl, pages));
    await writeFile(
      join(outDir, 'robots.txt'),
      `User-agent: *\nAllow: /\n\nSitemap: ${server.siteUrl}/sitemap.xml\n`,
    );
    if (!quiet) console.log(`Prerendered ${pages.length} pages into ${outDir}`);
    return pages;
  } finally {
    await rm(ssrDir, { recursive: true, force: true });
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await buildSite({ outDir: process.argv[2] ?? 'dist' });
}
