/**
 * Many visitors from many addresses, on one machine: a loopback forwarder that takes
 * `${url}/c/<visitor>/…` to the target from that visitor's own 127.x.y.z source address (all of
 * 127.0.0.0/8 is this machine's on Linux), so the site's per-client limit sees one address per
 * person, as in production. Also the forwarding chaos-proxy.ts shares.
 */
import http from 'node:http';
import { onLoopback } from '#scripts/loopback.ts';

/** The loopback address of visitor `n` (n ≥ 0): distinct for the first 15 million visitors. */
function visitorAddress(n: number): string {
  const a = 1 + (n % 250);
  const b = Math.floor(n / 250) % 250;
  const c = 10 + Math.floor(n / 62_500);
  return `127.${c}.${b}.${a}`;
}

/** Sends `req` on to `target` through `agent`; the answer goes back as it came unless `answered` takes it. */
export function forward(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  target: URL,
  agent: http.Agent,
  answered?: (answer: http.IncomingMessage) => boolean,
): void {
  const headers = { ...req.headers, host: target.host };
  const request = http.request(target, { method: req.method, headers, agent }, (answer) => {
    if (answered?.(answer)) return;
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  request.on('error', () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  req.pipe(request);
}

const IDLE_MS = 5_000;

export async function startClientSpread(target: string) {
  const agents = new Map<string, http.Agent>();
  // A visitor's idle connection closes after IDLE_MS: kept to the run's end, the 11,500 visitors'
  // connections ran workerd out of file descriptors (`accept(): Too many open files`); on
  // Cloudflare the edge, not the Worker, holds a browser's connection.
  const agentFor = (address: string) => {
    const agent =
      agents.get(address) ??
      new http.Agent({ keepAlive: true, localAddress: address, maxSockets: 4, timeout: IDLE_MS });
    agents.set(address, agent);
    return agent;
  };
  const server = await onLoopback(
    (req, res) => {
      const match = /^\/c\/(\d+)(\/.*)$/.exec(req.url ?? '');
      if (!match) res.writeHead(404).end();
      else forward(req, res, new URL(match[2] ?? '/', target), agentFor(visitorAddress(Number(match[1]))));
    },
    () => agents.values(),
  );
  return {
    ...server,
    /** The base URL visitor `n` uses for `path` on the target. */
    urlFor: (n: number, path: string) => `${server.url}/c/${n}${path}`,
  };
}
