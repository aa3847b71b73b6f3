/**
 * The local tools' servers (docs/security-and-privacy.md, "Local servers"): a server on a free
 * loopback port, and the rules every server of the project's own code keeps on this machine.
 */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import ipaddr from 'ipaddr.js';
import { SECURITY_HEADERS } from '#src/config/constants.ts';

/** A loopback host name or address as a Host header names it, without its port. */
const LOOPBACK_HOST = /^(localhost|[^.]+\.localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1)$/i;

/** True for a loopback address in any spelling (127.0.0.0/8, ::1, ::ffff:127.0.0.1). */
export const isLoopbackAddress = (address = '') =>
  ipaddr.isValid(address) && ipaddr.process(address).range() === 'loopback';

/** A Host header's name without its port (an IPv6 literal keeps its brackets), lower-cased. */
export function hostNameOf(host = ''): string {
  return (
    host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : (host.split(':')[0] ?? '')
  ).toLowerCase();
}

/** True when `host` (a Host header) names this machine's loopback, or one of `allowed`. */
export function isLoopbackHost(host: string | undefined, allowed: readonly string[] = []): boolean {
  const name = hostNameOf(host);
  return LOOPBACK_HOST.test(name) || allowed.some((other) => other.toLowerCase() === name);
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * Why a loopback-only port refuses a request, or null: a Host that is neither a loopback name or
 * address nor one of `allowedHosts` (DNS rebinding: another site's name pointed here), or a change
 * (preflights too) from a page of another site: an Origin whose host is not loopback, or with none,
 * Sec-Fetch-Site. The Worker's requests and tools' (curl) carry neither.
 */
function localRequestProblem(
  req: Pick<http.IncomingMessage, 'headers' | 'method'>,
  allowedHosts: readonly string[] = [],
): string | null {
  const { host, origin } = req.headers;
  if (!isLoopbackHost(host, allowedHosts))
    return `This port answers on loopback addresses only, not ${hostNameOf(host) || 'an unnamed host'}`;
  if (SAFE_METHODS.has((req.method ?? 'GET').toUpperCase())) return null;
  const crossSite =
    origin === undefined
      ? req.headers['sec-fetch-site'] === 'cross-site'
      : !isLoopbackHost(URL.canParse(origin) ? new URL(origin).host : '', allowedHosts);
  return crossSite ? 'This port takes changes only from pages on this machine' : null;
}

/** Node's own answers to a request it cannot parse, by its error's code (otherwise 400). */
const CLIENT_ERRORS: Readonly<Record<string, string>> = {
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: '413 Payload Too Large',
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
};

/**
 * Gives every answer of `server` the site's security headers (SECURITY_HEADERS: no framing, no
 * sniffing; not the pages' CSP), also the one Node writes itself for a request it cannot parse.
 */
export function withSecurityHeaders<S extends NodeJS.EventEmitter>(server: S): S {
  server.prependListener('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
  });
  // As Node's default (a status line when nothing of an answer is written yet), with the headers;
  // first, so Vite's own (the same without them) finds the socket ended.
  server.prependListener(
    'clientError',
    (error: NodeJS.ErrnoException, socket: Socket & { _httpMessage?: http.ServerResponse }) => {
      if (!socket.writable || socket._httpMessage?.headersSent) return void socket.destroy(error);
      const headers = Object.entries(SECURITY_HEADERS).map(([name, value]) => `${name}: ${value}\r\n`);
      const status = CLIENT_ERRORS[error.code ?? ''] ?? '400 Bad Request';
      socket.write(`HTTP/1.1 ${status}\r\n${headers.join('')}Content-Length: 0\r\nConnection: close\r\n\r\n`);
      socket.destroySoon();
    },
  );
  return server;
}

/**
 * A server of this machine's tools: `handle` behind localRequestProblem (a refused request gets
 * 403 and its reason), every answer with the security headers.
 */
export function localServer(handle: http.RequestListener, allowedHosts: readonly string[] = []) {
  return withSecurityHeaders(
    http.createServer((req, res) => {
      const problem = localRequestProblem(req, allowedHosts);
      if (!problem) return void handle(req, res);
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`${problem}\n`);
    }),
  );
}

/**
 * A server on a free loopback port, for the dev server's stand-ins (vite-plugins/worker-server.ts)
 * and the load test's forwarder and chaos proxy, kept as localServer keeps it.
 * Closing it ends its connections and destroys `agents`.
 */
export async function onLoopback(
  handle: http.RequestListener,
  agents: () => Iterable<http.Agent> = () => [],
) {
  const server = localServer(handle);
  await once(server.listen(0, '127.0.0.1'), 'listening');
  // The dev server may outlive a test that ends it abruptly: never keep the process alive.
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const agent of agents()) agent.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
