// @ts-check
/**
 * `npm run bench`: Lighthouse 12 (simulated throttling) on every route of a build served as deployed
 * and on the floor (the home hero alone, static), a table per preset of medians of BENCH_RUNS runs
 * (default 5: TBT varies on a shared machine), interleaved (every route once, then again) so a noisy
 * moment spreads over all routes, then interaction to next paint (`inp.mjs`) and what each route
 * loads (`bundle-report.mjs`). BENCH_PRESETS=mobile,desktop adds desktop. Not in `npm test`.
 */
import { readdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { createBuilder, preview } from 'vite';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium.mjs';
import { formatColumns, loadRouteTable, measureRoutes, median } from './bundle-report.mjs';
import { writeFloorPage } from './floor.mjs';
import { measureInteractions } from './inp.mjs';

const OUT = 'node_modules/.bench/site';
/** Where the build puts the site's files (the Worker's build is beside it, in podling_site/). */
const SITE_FILES = join(OUT, 'client');
const FLOOR = 'node_modules/.bench/floor';
/** The site's port (BENCH_PORT; the floor's is the next, each origin's preview 10 above). */
const PORT = Number(process.env.BENCH_PORT) || 4700;
const FLOOR_PORT = PORT + 1;
const TARGETS = {
  score: 100,
  lcpRatio: 1.2,
  fcpRatio: 1.15,
  cls: 0,
  tbtMs: 50,
  /** Before interaction, on a page that waits for its visitor (issue 57). */
  jsKb: 0,
  /** unused-javascript and network-dependency-tree-insight (issue 57). */
  insight: 0.9,
};

/** BENCH_ROUTES=/,/about: those routes only (and the floor). */
const ONLY_ROUTES = process.env.BENCH_ROUTES?.split(',').map((route) => route.trim());
/** Runs per audit (median reported). */
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 5) || 5);
/** @type {('mobile' | 'desktop')[]} */
const PRESETS = (process.env.BENCH_PRESETS ?? 'mobile')
  .split(',')
  .map((name) => name.trim())
  .filter((name) => name === 'mobile' || name === 'desktop');
/** Lighthouse occasionally fails to trace a load (no paint recorded); such a run is repeated. */
const MAX_ATTEMPTS = 3;
const FLOOR_ROUTE = 'floor (bare hero)';

/** @param {string} url @param {number} port @param {'mobile' | 'desktop'} preset */
async function auditOnce(url, port, preset) {
  const result = await lighthouse(
    url,
    {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
    },
    preset === 'desktop' ? desktopConfig : undefined,
  );
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  // The last report of each page, to read an audit's details (which scripts, which chains).
  await writeFile(join(OUT, '..', `lhr${new URL(url).pathname.replace(/\//g, '_')}.json`), result.report);
  const { categories, audits } = result.lhr;
  /** @param {string} id */
  const score = (id) => Math.round((categories[id]?.score ?? 0) * 100);
  /** @param {string} id */
  const value = (id) => audits[id]?.numericValue ?? Number.NaN;
  /** An insight's or opportunity's score (1 passes); NaN where Lighthouse gives none. @param {string} id */
  const scoreOf = (id) => audits[id]?.score ?? Number.NaN;
  const breakdown = /** @type {{ items?: { group?: string, duration?: number }[] } | undefined} */ (
    audits['mainthread-work-breakdown']?.details
  );
  const requests = /** @type {{ items?: { resourceType?: string, transferSize?: number }[] } | undefined} */ (
    audits['network-requests']?.details
  );
  const failing = Object.values(audits)
    .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary')
    .map((a) => a.id);
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    fcpMs: value('first-contentful-paint'),
    lcpMs: value('largest-contentful-paint'),
    tbtMs: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    totalKb: value('total-byte-weight') / 1024,
    // What the load fetched of JavaScript (transfer, compressed as the edge does): before interaction.
    jsKb:
      (requests?.items ?? [])
        .filter((item) => item.resourceType === 'Script')
        .reduce((sum, item) => sum + (item.transferSize ?? 0), 0) / 1024,
    // Lighthouse's figure: the main thread's time observed in the load, times its CPU slowdown (4).
    scriptEvalMs: breakdown?.items?.find((item) => item.group === 'scriptEvaluation')?.duration ?? 0,
    unusedJs: scoreOf('unused-javascript'),
    dependencyTree: scoreOf('network-dependency-tree-insight'),
    failing,
  };
}

/** @typedef {Awaited<ReturnType<typeof auditOnce>>} Run */

/** One usable run: a run that recorded no paint is repeated. @param {string} url @param {number} port @param {'mobile' | 'desktop'} preset */
async function usableRun(url, port, preset) {
  for (let attempt = 1; ; attempt += 1) {
    const run = await auditOnce(url, port, preset);
    if (attempt >= MAX_ATTEMPTS || (Number.isFinite(run.lcpMs) && run.performance > 0)) return run;
  }
}

/** Median of each figure over the runs, and every audit that failed in any. @param {Run[]} runs @returns {Run} */
function medianRun(runs) {
  const figures = Object.keys(runs[0] ?? {}).filter((key) => key !== 'failing');
  return /** @type {Run} */ ({
    ...Object.fromEntries(figures.map((key) => [key, median(runs.map((r) => /** @type {any} */ (r)[key]))])),
    failing: [...new Set(runs.flatMap((r) => r.failing))],
  });
}

/** What Cloudflare's edge compresses (text, scripts, JSON, SVG). */
const COMPRESSIBLE = /^(text\/|application\/(javascript|json|manifest\+json|xml)|image\/svg\+xml)/;

/**
 * `vite preview` of a folder on `port` + 10 (the Worker in workerd; `plain`: static files, for the
 * floor) behind a stand-in for Cloudflare's edge on `port`, which compresses and caches text as the
 * edge does: the local assets server does not, and the audits would time transfers no visitor gets.
 * @param {string} outDir @param {number} port @param {boolean} [plain]
 */
async function serveBehindEdge(outDir, port, plain = false) {
  const origin = `http://127.0.0.1:${port + 10}`;
  const vite = await preview({
    ...(plain ? { configFile: false } : {}),
    logLevel: 'warn',
    build: { outDir },
    preview: { port: port + 10, strictPort: true },
  });
  /** @type {Map<string, { status: number, headers: Record<string, string>, body: Buffer }>} */
  const kept = new Map();
  const server = http.createServer(async (request, response) => {
    const accepts = String(request.headers['accept-encoding'] ?? '');
    const encoding = accepts.includes('br') ? 'br' : accepts.includes('gzip') ? 'gzip' : '';
    const key = `${encoding} ${request.url}`;
    let answer = kept.get(key);
    if (!answer) {
      const upstream = await fetch(`${origin}${request.url}`, { redirect: 'manual' });
      const headers = Object.fromEntries(upstream.headers);
      let body = Buffer.from(await upstream.arrayBuffer());
      delete headers['content-encoding'];
      if (encoding && body.length > 0 && COMPRESSIBLE.test(headers['content-type'] ?? '')) {
        body =
          encoding === 'br'
            ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
            : gzipSync(body);
        headers['content-encoding'] = encoding;
      }
      headers['content-length'] = String(body.length);
      answer = { status: upstream.status, headers, body };
      if (upstream.ok) kept.set(key, answer);
    }
    response.writeHead(answer.status, answer.headers).end(answer.body);
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(undefined)));
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      await vite.close();
    },
  };
}

/** Each file once in brotli and gzip: no audit pays first costs. @param {string} url @param {string} dir */
async function warmCompression(url, dir) {
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name).slice(dir.length).replace(/\\/g, '/');
    for (const encoding of ['br', 'gzip'])
      await (await fetch(`${url}${path}`, { headers: { 'accept-encoding': encoding } })).arrayBuffer();
  }
}

process.env.VITE_SITE_URL = `http://127.0.0.1:${PORT}`;
await (await createBuilder({ logLevel: 'warn', build: { outDir: OUT, emptyOutDir: true } })).buildApp();
await writeFloorPage(SITE_FILES, FLOOR);
const site = await serveBehindEdge(OUT, PORT);
const floor = await serveBehindEdge(FLOOR, FLOOR_PORT, true);
const bundle = await measureRoutes(SITE_FILES, await loadRouteTable());
await warmCompression(site.url, SITE_FILES);
const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: [...CHROMIUM_FLAGS] });

/** The JavaScript target is every page's but the floor's (each waits for its visitor: docs/speed.md). */
const targets = [
  { route: FLOOR_ROUTE, url: `${floor.url}/`, jsTarget: false },
  ...bundle
    .filter((b) => b.route !== '(404)' && (!ONLY_ROUTES || ONLY_ROUTES.includes(b.route)))
    .map((b) => ({ route: b.route, url: `${site.url}${b.route}`, jsTarget: true })),
];
/** @type {Map<string, Run[]>} */
const runsByKey = new Map();
/** @type {Map<string, number[]>} */
let interactions = new Map();
try {
  // One discarded run: the first audit in a fresh browser pays its start-up costs.
  await auditOnce(`${floor.url}/`, chrome.port, 'mobile');
  for (const preset of PRESETS) {
    for (let run = 1; run <= RUNS; run += 1) {
      process.stderr.write(`${preset} run ${run}/${RUNS}…\n`);
      for (const target of targets) {
        const key = `${preset} ${target.route}`;
        runsByKey.set(key, [...(runsByKey.get(key) ?? []), await usableRun(target.url, chrome.port, preset)]);
      }
    }
  }
  interactions = await measureInteractions(site.url, chrome.port, RUNS);
} finally {
  await chrome.kill();
  await site.close();
  await floor.close();
}

const misses = [];
for (const preset of PRESETS) {
  const base = medianRun(runsByKey.get(`${preset} ${FLOOR_ROUTE}`) ?? []);
  /** @type {[string, (r: Run, target: (typeof targets)[number]) => string][]} */
  const columns = [
    ['route', (_, target) => target.route],
    ['FCP ms', (r) => r.fcpMs.toFixed(0)],
    ['FCP÷floor', (r) => (r.fcpMs / base.fcpMs).toFixed(2)],
    ['LCP ms', (r) => r.lcpMs.toFixed(0)],
    ['LCP÷floor', (r) => (r.lcpMs / base.lcpMs).toFixed(2)],
    ['TBT ms', (r) => r.tbtMs.toFixed(0)],
    ['CLS', (r) => r.cls.toFixed(3)],
    ['JS KB', (r) => r.jsKb.toFixed(1)],
    ['perf', (r) => String(r.performance)],
    ['a11y', (r) => String(r.accessibility)],
    ['bp', (r) => String(r.bestPractices)],
    ['seo', (r) => String(r.seo)],
    ['script ms', (r) => r.scriptEvalMs.toFixed(0)],
    ['unused-js', (r) => r.unusedJs.toFixed(2)],
    ['dep-tree', (r) => r.dependencyTree.toFixed(2)],
    ['total KB', (r) => r.totalKb.toFixed(1)],
  ];
  const table = [columns.map(([header]) => header)];
  for (const target of targets) {
    const r = medianRun(runsByKey.get(`${preset} ${target.route}`) ?? []);
    const fcpRatio = r.fcpMs / base.fcpMs;
    const lcpRatio = r.lcpMs / base.lcpMs;
    table.push(columns.map(([, cell]) => cell(r, target)));
    if (preset !== 'mobile' || target.route === FLOOR_ROUTE) continue;
    const scores = {
      performance: r.performance,
      accessibility: r.accessibility,
      'best practices': r.bestPractices,
      SEO: r.seo,
    };
    const problems = Object.entries(scores)
      .filter(([, score]) => score < TARGETS.score)
      .map(([name, score]) => `${name} ${score}`);
    if (fcpRatio > TARGETS.fcpRatio) problems.push(`FCP ${fcpRatio.toFixed(2)}× floor`);
    if (lcpRatio > TARGETS.lcpRatio) problems.push(`LCP ${lcpRatio.toFixed(2)}× floor`);
    if (r.cls > TARGETS.cls) problems.push(`CLS ${r.cls.toFixed(3)}`);
    if (r.tbtMs >= TARGETS.tbtMs) problems.push(`TBT ${r.tbtMs.toFixed(0)} ms`);
    /** @type {[string, number][]} */
    const insights = [
      ['unused-javascript', r.unusedJs],
      ['network-dependency-tree-insight', r.dependencyTree],
    ];
    for (const [name, score] of insights)
      if (score < TARGETS.insight) problems.push(`${name} ${score.toFixed(2)}`);
    if (target.jsTarget && r.jsKb > TARGETS.jsKb) problems.push(`JS ${r.jsKb.toFixed(1)} KB`);
    const failing = r.failing.join(', ') || 'none';
    if (problems.length > 0)
      misses.push(`${target.route}: ${problems.join(', ')}; failing audits: ${failing}`);
  }
  console.log(`\n${preset} (Lighthouse ${preset} preset, simulated throttling), median of ${RUNS} run(s):`);
  console.log(formatColumns(table));
}

console.log(
  '\nWhat each route loads (KB gzip): JavaScript at the first act (none before), inline scripts, CSS, HTML',
);
/** @param {(typeof bundle)[number]} b */
const sizes = (b) => [b.onActGzipKb, b.inlineGzipKb, b.cssGzipKb, b.htmlGzipKb].map((kb) => kb.toFixed(1));
console.log(
  formatColumns([['route', 'on act', 'inline', 'CSS', 'HTML'], ...bundle.map((b) => [b.route, ...sizes(b)])]),
);

console.log(`\nInteraction to next paint, phone profile (CPU 4×), median of ${RUNS} visit(s):`);
const acts = [...interactions].map(([key, ms]) => [...key.split('\t'), median(ms).toFixed(0), ms.join(' ')]);
console.log(formatColumns([['route', 'act', 'INP ms', 'runs (ms)'], ...acts]));

const jsTargetRoutes = targets.filter((target) => target.jsTarget).map((target) => target.route);
console.log(
  `\nTargets (mobile): FCP ≤ ${TARGETS.fcpRatio}× and LCP ≤ ${TARGETS.lcpRatio}× the floor, TBT < ${TARGETS.tbtMs} ms, ` +
    `CLS ${TARGETS.cls}, categories ${TARGETS.score}, insights ≥ ${TARGETS.insight}, JS before interaction ${TARGETS.jsKb} KB on ${jsTargetRoutes.join(' ')}.`,
);
console.log(misses.length === 0 ? 'All mobile targets met.' : `Mobile targets missed:\n${misses.join('\n')}`);
