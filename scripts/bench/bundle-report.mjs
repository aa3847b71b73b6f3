// @ts-check
/**
 * What each prerendered route downloads, gzipped: no script before interaction (issue 57); at its
 * first act the entry, its boot list and everything those import statically; its inline scripts and
 * stylesheets. Used by tests/e2e/prerender.spec.ts's ceiling checks and `npm run bench`, which prints it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** A page's inline scripts (gzip), which do its work until the app loads (issue 57, boot-loader.ts). */
export const INLINE_SCRIPT_CEILING_KB = 1.5;
/** What a first act loads (gzip): the app of the heaviest page, home's 104.4 KB, and a little room. */
export const ON_ACT_CEILING_KB = 108;

/** A chunk's static import of another chunk (beside it in assets/). */
const STATIC_IMPORT = /(?:^|[;}\s])import\s*(?:[\w*{}\s,$]+from\s*)?["']\.\/([^"']+\.js)["']/g;

/** @typedef {typeof import('#src/config/site.ts')} RouteTableModule */
/** @typedef {Pick<RouteTableModule, 'ROUTE_LIST' | 'NOT_FOUND'>} RouteTable */

/** The route table, through Vite's runner (Node 20 imports no TS). @returns {Promise<RouteTableModule>} */
export async function loadRouteTable() {
  const { runnerImport } = await import('vite');
  const table = fileURLToPath(new URL('../../src/config/site.ts', import.meta.url));
  return /** @type {RouteTableModule} */ ((await runnerImport(table)).module);
}

/** The route's prerendered file: clean URLs (/about → about/index.html), 404.html for the rest. @param {string} path */
function fileOf(path) {
  if (path === '*') return '404.html';
  return path === '/' ? 'index.html' : `${path.slice(1)}/index.html`;
}

/**
 * `onActFiles`, `onActGzipKb`: what the first act loads (the page's app; nothing loads before it);
 * `inlineGzipKb`: the page's inline scripts.
 * @typedef {{ route: string, onActFiles: string[], onActGzipKb: number, inlineGzipKb: number, cssGzipKb: number, htmlGzipKb: number }} RouteReport
 */

/**
 * Every route of the table built into distDir (a route behind a flag that is off has no file),
 * then the not-found page as '(404)'. @param {string} distDir @param {RouteTable} table
 * @returns {Promise<RouteReport[]>}
 */
export async function measureRoutes(distDir, table) {
  /** @type {Map<string, number>} */
  const gzipCache = new Map();
  /** Gzipped KB of `files`, each compressed once. @param {Iterable<string>} files */
  const gzipKb = async (files) => {
    let bytes = 0;
    for (const path of files) {
      if (!gzipCache.has(path)) gzipCache.set(path, gzipSync(await readFile(join(distDir, path))).length);
      bytes += gzipCache.get(path) ?? 0;
    }
    return bytes / 1024;
  };
  /** @type {RouteReport[]} */
  const reports = [];
  const pages = [
    ...table.ROUTE_LIST.map((route) => ({ route: route.path, file: fileOf(route.path) })),
    { route: '(404)', file: fileOf(table.NOT_FOUND.path) },
  ];
  for (const { route, file } of pages) {
    const html = await readFile(join(distDir, file), 'utf8').catch(() => null);
    if (html === null) continue;
    const bootList = /<script type="application\/json" id="boot-modules">([^<]*)<\/script>/.exec(html)?.[1];
    /** @type {string[]} */
    const bootHrefs = bootList ? JSON.parse(bootList) : [];
    // Followed through static imports: whatever a loaded chunk imports statically loads before it runs.
    const queue = [
      // The entry, which the inline boot loader imports (scripts/vite-plugins/boot-loader.ts).
      ...Array.from(html.matchAll(/\bimport\([`"]\/(assets\/index-[^`"]+\.js)[`"]\)/g), (match) =>
        String(match[1]),
      ),
      // What the loader preloads with the entry to hydrate.
      ...bootHrefs.map((href) => href.replace(/^\//, '')),
    ];
    const cssFiles = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]*href="\/([^"]+)"/g)].map(
      (match) => /** @type {string} */ (match[1]),
    );
    /** @type {Set<string>} */
    const jsFiles = new Set();
    while (queue.length > 0) {
      const next = /** @type {string} */ (queue.shift());
      if (jsFiles.has(next)) continue;
      jsFiles.add(next);
      const code = await readFile(join(distDir, next), 'utf8');
      for (const match of code.matchAll(STATIC_IMPORT)) queue.push(`assets/${match[1]}`);
    }
    const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]).join('');
    reports.push({
      route,
      onActFiles: [...jsFiles],
      onActGzipKb: await gzipKb(jsFiles),
      inlineGzipKb: gzipSync(inline).length / 1024,
      cssGzipKb: await gzipKb(cssFiles),
      htmlGzipKb: gzipSync(html).length / 1024,
    });
  }
  return reports;
}

/** The middle value (the upper of two). @param {number[]} values */
export const median = (values) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** Rows of cells as aligned columns (the first row the headers). @param {string[][]} rows */
export function formatColumns(rows) {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  return rows.map((row) => row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ')).join('\n');
}
