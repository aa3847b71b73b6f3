/**
 * The first middleware of `vite` and `vite preview`, before anything reaches workerd (on Cloudflare
 * the edge does this; README.md lists what). Why: Cloudflare's plugin builds a `Request` from the
 * target, and its rejection of one (`//a@b/`, credentials, `*`, bad percent-encoding) ended `vite`;
 * workerd keeps a connection whose upload was left unread for the next request, which then fails
 * (workerd issue 1741): any later request, on any connection, became a 500. So a Content-Length over
 * BODY_READ_TO_END_BYTES is answered 413 unread and a chunked body cut at it; a middleware's
 * rejection goes to the server's error handler, never ending the process. Miniflare's triggers
 * (`/cdn-cgi/…`: the Cron Triggers' retention job and digest) answer this machine's tools only.
 */
import type http from 'node:http';
import type { Connect } from 'vite';
import { BODY_READ_TO_END_BYTES } from '#src/server/doors/body.ts';
import { SECURITY_HEADERS } from '#src/config/constants.ts';
import { isLoopbackAddress } from '#scripts/loopback.ts';

/** Miniflare's own endpoints on the site's port: the Cron and email triggers, its explorer, its media. */
const TOOL_PATH = /^\/(?:cdn-cgi|__cf_local)(?:\/|$)/i;

/**
 * True for this machine's own tool (curl, a typed address): a loopback socket, whatever Host it
 * names, and no page behind it that a browser marks as another's (Sec-Fetch-Site, a foreign
 * Origin): an `<img>` on any page the developer visits fires nothing.
 */
function fromThisMachine({ socket, headers }: http.IncomingMessage): boolean {
  const site = headers['sec-fetch-site'] ?? 'none';
  const { origin } = headers;
  return (
    isLoopbackAddress(socket.remoteAddress) &&
    (site === 'none' || site === 'same-origin') &&
    (origin === undefined || (URL.canParse(origin) && new URL(origin).host === headers.host))
  );
}

/** True when a Request can be made from the target: origin-form, decodable, no credentials. */
function usableTarget(target = ''): boolean {
  if (!target.startsWith('/')) return false;
  try {
    decodeURI(target.split('?')[0] ?? '');
    return new Request(new URL(target, 'http://localhost')).url !== '';
  } catch {
    return false;
  }
}

function refuse(res: http.ServerResponse, status: number, text: string) {
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
    'Content-Type': 'text/plain; charset=utf-8',
    Connection: 'close',
  });
  res.end(text);
}

const guarded = new WeakSet<object>();

/** A middleware whose rejected promise goes to `next(error)`, or to the log once it has answered. */
function guard(handle: Connect.NextHandleFunction, log: (message: string) => void) {
  const safe: Connect.NextHandleFunction = (req, res, next) => {
    let passed = false;
    const onward = (error?: unknown) => {
      passed = true;
      next(error);
    };
    const result: unknown = handle(req, res, onward);
    if (result instanceof Promise)
      result.catch((error: unknown) =>
        passed || res.headersSent
          ? log(error instanceof Error ? (error.stack ?? error.message) : String(error))
          : onward(error),
      );
  };
  guarded.add(safe);
  return Object.defineProperty(safe, 'name', { value: handle.name });
}

/** The front door for one server: `stack` is its connect app's, `log` its logger's error. */
export function frontDoor(
  stack: readonly Connect.ServerStackItem[],
  log: (message: string) => void,
): Connect.NextHandleFunction {
  return function frontDoor(req, res, next) {
    // Every middleware, Vite's and the plugins', also those added since the last request.
    for (const layer of stack)
      if (typeof layer.handle === 'function' && layer.handle.length < 4 && !guarded.has(layer.handle))
        layer.handle = guard(layer.handle as Connect.NextHandleFunction, log);
    if (!usableTarget(req.url)) return refuse(res, 400, 'Bad request target\n');
    const { pathname } = new URL(req.url ?? '/', 'http://localhost');
    if (TOOL_PATH.test(decodeURI(pathname)) && !fromThisMachine(req))
      return refuse(res, 403, "The Worker's triggers answer this machine's own tools only\n");
    if (Number(req.headers['content-length'] ?? 0) > BODY_READ_TO_END_BYTES)
      return refuse(res, 413, 'Request body too large\n');
    if (req.headers['transfer-encoding']) {
      let seen = 0;
      const push = req.push.bind(req);
      req.push = (chunk: Buffer | null, encoding?: BufferEncoding) => {
        seen += chunk?.length ?? 0;
        if (seen <= BODY_READ_TO_END_BYTES) return push(chunk, encoding);
        req.socket.destroy();
        return false;
      };
    }
    next();
  };
}
