/**
 * Many visitors from many addresses, on one machine: a loopback forwarder that connects to the
 * site from a different 127.x.y.z source address per visitor. A visitor's storage layer is
 * pointed at `${url}/c/<visitor>/…`; the forwarder strips the prefix and opens its connection to
 * the target from that visitor's own address, so the site's per-client limit sees what it would
 * in production: one address per person (all of 127.0.0.0/8 is this machine's on Linux).
 */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The loopback address of visitor `n` (n ≥ 0): distinct for the first 15 million visitors. */
export function visitorAddress(n: number): string {
  const a = 1 + (n % 250);
  const b = Math.floor(n / 250) % 250;
  const c = 10 + Math.floor(n / 62_500);
  return `127.${c}.${b}.${a}`;
}

export async function startClientSpread(target: string) {
  const upstream = new URL(target);
  const agents = new Map<string, http.Agent>();
  const agentFor = (address: string) => {
    const agent =
      agents.get(address) ?? new http.Agent({ keepAlive: true, localAddress: address, maxSockets: 4 });
    agents.set(address, agent);
    return agent;
  };
  const server = http.createServer((req, res) => {
    const match = /^\/c\/(\d+)(\/.*)$/.exec(req.url ?? '');
    if (!match) {
      res.writeHead(404).end();
      return;
    }
    const address = visitorAddress(Number(match[1]));
    const forward = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: match[2],
        headers: { ...req.headers, host: upstream.host },
        agent: agentFor(address),
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(forward);
  });
  await once(server.listen(0, '127.0.0.1'), 'listening');
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    /** The base URL visitor `n` uses for `path` on the target. */
    urlFor: (n: number, path: string) => `${url}/c/${n}${path}`,
    close: async () => {
      for (const agent of agents.values()) agent.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
