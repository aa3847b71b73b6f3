// @ts-check
/**
 * A static file server that behaves like the production host (see public/_headers and the
 * README): clean URLs (/about → /about/index.html), real 404s with 404.html, immutable caching
 * for hashed assets, and the security headers from public/_headers. Used by end-to-end tests,
 * the benchmark and `npm run preview:static`.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { createGzip } from 'node:zlib';

const TYPES = /** @type {Record<string, string>} */ ({
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.woff2': 'font/woff2',
});

const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg', '.json', '.webmanifest', '.txt', '.xml']);

/**
 * Parses a Netlify/Cloudflare-style _headers file: a path pattern line, then indented headers.
 * @param {string} text
 * @returns {{ pattern: string, headers: [string, string][] }[]}
 */
export function parseHeadersFile(text) {
  /** @type {{ pattern: string, headers: [string, string][] }[]} */
  const rules = [];
  for (const line of text.split('\n')) {
    if (!line.trim() || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      rules.push({ pattern: line.trim(), headers: [] });
      continue;
    }
    const rule = rules.at(-1);
    const colon = line.indexOf(':');
    if (rule && colon > 0) rule.headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return rules;
}

/**
 * @param {string} pattern
 * @param {string} path
 */
function matches(pattern, path) {
  if (pattern.endsWith('*')) return path.startsWith(pattern.slice(0, -1));
  return pattern === path;
}

/**
 * @param {string} root
 * @param {string} urlPath
 * @returns {Promise<string | null>}
 */
async function resolveFile(root, urlPath) {
  const safe = normalize(decodeURIComponent(urlPath)).replace(/^(\.\.[/\\])+/, '');
  const candidates = [join(root, safe)];
  if (safe.endsWith('/')) candidates.unshift(join(root, safe, 'index.html'));
  else candidates.push(join(root, safe, 'index.html'), join(root, `${safe}.html`));
  for (const candidate of candidates) {
    if (!resolve(candidate).startsWith(resolve(root))) continue;
    try {
      if ((await stat(candidate)).isFile()) return candidate;
    } catch {
      // try the next candidate
    }
  }
  return null;
}

/**
 * Serves `root` on 127.0.0.1:`port` until closed.
 * @param {{ root: string, port: number, spaFallback?: boolean }} options
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export async function startStaticServer({ root, port, spaFallback = false }) {
  let headerRules = /** @type {{ pattern: string, headers: [string, string][] }[]} */ ([]);
  try {
    headerRules = parseHeadersFile(await readFile(join(root, '_headers'), 'utf8'));
  } catch {
    // No headers file: serve without extra headers.
  }
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let file = await resolveFile(root, url.pathname);
    let status = 200;
    if (!file) {
      file = spaFallback ? join(root, 'index.html') : await resolveFile(root, '/404.html');
      status = spaFallback ? 200 : 404;
    }
    for (const rule of headerRules) {
      if (matches(rule.pattern, url.pathname))
        for (const [name, value] of rule.headers) res.setHeader(name, value);
    }
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    const ext = extname(file);
    res.setHeader('content-type', TYPES[ext] ?? 'application/octet-stream');
    if (url.pathname.startsWith('/assets/'))
      res.setHeader('cache-control', 'public, max-age=31536000, immutable');
    else res.setHeader('cache-control', 'no-cache');
    const acceptsGzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    if (acceptsGzip && COMPRESSIBLE.has(ext)) {
      res.setHeader('content-encoding', 'gzip');
      res.setHeader('vary', 'accept-encoding');
      res.writeHead(status);
      if (req.method === 'HEAD') return void res.end();
      createReadStream(file).pipe(createGzip()).pipe(res);
      return;
    }
    res.writeHead(status);
    if (req.method === 'HEAD') return void res.end();
    createReadStream(file).pipe(res);
  });
  await new Promise((resolveListen) => server.listen(port, '127.0.0.1', () => resolveListen(undefined)));
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = process.argv[2] ?? 'dist';
  const port = Number(process.argv[3] ?? 4173);
  const { url } = await startStaticServer({ root, port });
  console.log(`Serving ${root} like the production host at ${url}`);
}
