/**
 * Serves a built site the way the production host does (Cloudflare Workers static assets,
 * Netlify): clean URLs (/about → /about/index.html), unknown paths answered with 404.html and
 * status 404, the headers from dist/_headers, immutable caching of hashed /assets/, and
 * brotli or gzip for text. `vite preview` mounts it in front of Vite's own static handler.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

const TYPES: Readonly<Record<string, string>> = {
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
};

const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg', '.json', '.webmanifest', '.txt', '.xml']);

/** Hashed build output: safe to cache for a year. */
export const IMMUTABLE_PREFIX = '/assets/';
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

export interface HeaderRule {
  pattern: string;
  headers: [string, string][];
}

/** Parses a Netlify/Cloudflare-style _headers file: a path pattern line, then indented headers. */
export function parseHeadersFile(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
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

/** The headers _headers gives `path` (a `*` at the end of a pattern matches any rest). */
export function headersFor(rules: readonly HeaderRule[], path: string): [string, string][] {
  return rules
    .filter(({ pattern }) =>
      pattern.endsWith('*') ? path.startsWith(pattern.slice(0, -1)) : pattern === path,
    )
    .flatMap((rule) => rule.headers);
}

async function isFile(candidate: string): Promise<boolean> {
  try {
    return (await stat(candidate)).isFile();
  } catch {
    return false;
  }
}

/** The file a clean URL maps to, never outside `root`; null when there is none. */
export async function resolveSiteFile(root: string, urlPath: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  const safe = normalize(decoded);
  const candidates = safe.endsWith('/')
    ? [join(root, safe, 'index.html')]
    : [join(root, safe), join(root, safe, 'index.html'), join(root, `${safe}.html`)];
  const rootPrefix = resolve(root) + sep;
  for (const candidate of candidates) {
    if (!resolve(candidate).startsWith(rootPrefix)) continue;
    if (await isFile(candidate)) return candidate;
  }
  return null;
}

type Encoding = 'br' | 'gzip';

/**
 * Compressed copies, made once per file version as a CDN would keep them: compressing on every
 * request (brotli at its best level costs tens of milliseconds a file) would make the local
 * server, not the page, the slow part of every test and benchmark.
 */
const compressed = new Map<string, Promise<Buffer>>();

async function compressedCopy(file: string, encoding: Encoding): Promise<Buffer> {
  const { mtimeMs, size } = await stat(file);
  const key = `${encoding}:${file}:${mtimeMs}:${size}`;
  let copy = compressed.get(key);
  if (!copy) {
    copy = readFile(file).then((bytes) =>
      encoding === 'br'
        ? brotli(bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } })
        : gzipAsync(bytes, { level: 9 }),
    );
    compressed.set(key, copy);
  }
  return copy;
}

/** Serves a file with the host's status, headers, caching and compression. */
async function send(
  req: IncomingMessage,
  res: ServerResponse,
  file: string,
  status: number,
  headers: [string, string][],
): Promise<void> {
  const ext = extname(file);
  const url = new URL(req.url ?? '/', 'http://host');
  for (const [name, value] of headers) res.setHeader(name, value);
  res.setHeader('content-type', TYPES[ext] ?? 'application/octet-stream');
  if (!res.hasHeader('cache-control')) {
    res.setHeader(
      'cache-control',
      url.pathname.startsWith(IMMUTABLE_PREFIX)
        ? IMMUTABLE_CACHE_CONTROL
        : 'public, max-age=0, must-revalidate',
    );
  }
  const accepted = String(req.headers['accept-encoding'] ?? '');
  const encoding: Encoding | null = !COMPRESSIBLE.has(ext)
    ? null
    : /\bbr\b/.test(accepted)
      ? 'br'
      : /\bgzip\b/.test(accepted)
        ? 'gzip'
        : null;
  if (COMPRESSIBLE.has(ext)) res.setHeader('vary', 'accept-encoding');
  if (encoding) {
    const body = await compressedCopy(file, encoding);
    res.setHeader('content-encoding', encoding);
    res.setHeader('content-length', String(body.length));
    res.writeHead(status);
    res.end(req.method === 'HEAD' ? undefined : body);
    return;
  }
  res.setHeader('content-length', String((await stat(file)).size));
  res.writeHead(status);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file).pipe(res);
}

export type Middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * A Connect middleware that serves `root` like the host. Requests other than GET and HEAD go to
 * `next` (the relay and anything else mounted after it); a path `hidden` names gets the
 * not-found page.
 */
export function staticHost(
  root: string,
  { hidden = () => false }: { hidden?: (path: string) => boolean } = {},
): Middleware {
  let rules: Promise<HeaderRule[]> | undefined;
  const headerRules = () =>
    (rules ??= readFile(join(root, '_headers'), 'utf8').then(parseHeadersFile, () => []));
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      next();
      return;
    }
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://host').pathname;
      // `hidden` decides on the path as it came (it decodes and normalises it itself).
      const found = hidden(path) ? null : await resolveSiteFile(root, path);
      const file = found ?? (await resolveSiteFile(root, '/404.html'));
      if (!file) {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
        return;
      }
      await send(req, res, file, found ? 200 : 404, headersFor(await headerRules(), path));
    })().catch(next);
  };
}
