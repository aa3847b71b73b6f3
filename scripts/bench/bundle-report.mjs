// @ts-check
/**
 * What each prerendered route downloads before interaction, gzipped: the entry script, its boot
 * list (fetched after first paint to hydrate), everything those import statically, and any
 * stylesheets. Used by tests/e2e/prerender.spec.ts's ceiling check and `npm run bench`, which prints it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/**
 * What `npm test` enforces per route kind (src/config/site.ts). A page that waits for its visitor
 * loads nothing before its visitor acts (issue 57, scripts/vite-plugins/boot-loader.ts), schools
 * not before a part that needs the app nears the viewport. The home page hydrates with its own
 * chunk after first paint (React DOM 19 and react-router alone are about 80 KB gzip,
 * docs/speed.md): just above what it reaches. Raise a ceiling only for a reason the commit gives.
 */
export const JS_CEILING_KB = Object.freeze({ interactive: 105, content: 0 });
/** A waiting page's inline scripts (gzip), which do its work until the app loads (issue 57). */
export const INLINE_SCRIPT_CEILING_KB = 1.5;

/** A chunk's static import of another chunk (beside it in assets/). */
const STATIC_IMPORT = /(?:^|[;}\s])import\s*(?:[\w*{}\s,$]+from\s*)?["']\.\/([^"']+\.js)["']/g;

/** @typedef {typeof import('#src/config/site.ts')} RouteTableModule */
/** @typedef {Pick<RouteTableModule, 'ROUTE_LIST' | 'NOT_FOUND'>} RouteTable */
/** @typedef {keyof typeof JS_CEILING_KB} PageKind */

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
 * `jsFiles`, `jsGzipKb`: what loads before interaction; `onActGzipKb`: what the first act loads
 * (a waiting page's app); `inlineGzipKb`: the page's inline scripts.
 * @typedef {{ route: string, kind: PageKind, waits: boolean, ceilingKb: number, jsFiles: string[], jsGzipKb: number, onActGzipKb: number, inlineGzipKb: number, cssGzipKb: number, htmlGzipKb: number }} RouteReport
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
    ...table.ROUTE_LIST.map((route) => ({
      route: route.path,
      file: fileOf(route.path),
      kind: route.kind,
      waits: !('bootsAfterPaint' in route),
    })),
    { route: '(404)', file: fileOf(table.NOT_FOUND.path), kind: table.NOT_FOUND.kind, waits: true },
  ];
  for (const { route, file, kind, waits } of pages) {
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
      // What the entry fetches right after first paint to hydrate: still before interaction.
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
    // A page that waits for its visitor: its app is what the first act loads.
    reports.push({
      route,
      kind,
      waits,
      ceilingKb: JS_CEILING_KB[kind],
      jsFiles: waits ? [] : [...jsFiles],
      jsGzipKb: waits ? 0 : await gzipKb(jsFiles),
      onActGzipKb: waits ? await gzipKb(jsFiles) : 0,
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
