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
import { build } from 'vite';

/**
 * @typedef {{ path: string, heading: string, head: string, html: string }} PrerenderedPage
 */

/**
 * @param {string} path
 */
function fileForPath(path) {
  if (path === '*') return '404.html';
  if (path === '/') return 'index.html';
  return join(path.replace(/^\//, ''), 'index.html');
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
    await build({ logLevel, build: { outDir, emptyOutDir: true } });
    await build({
      logLevel: 'warn',
      build: { ssr: 'src/entry-server.tsx', outDir: ssrDir, emptyOutDir: true, copyPublicDir: false },
    });
    /** @type {{ prerenderAll: () => PrerenderedPage[], siteUrl: string }} */
    const server = await import(pathToFileURL(join(ssrDir, 'entry-server.js')).href);
    const template = await readFile(join(outDir, 'index.html'), 'utf8');
    const pages = server.prerenderAll();
    for (const page of pages) {
      const file = join(outDir, fileForPath(page.path));
      await mkdir(dirname(file), { recursive: true });
      await writeFile(
        file,
        template.replace('<!--app-head-->', page.head).replace('<!--app-html-->', page.html),
      );
    }
    await writeFile(join(outDir, 'sitemap.xml'), renderSitemap(server.siteUrl, pages));
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
