import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A server on a free loopback port, for the dev server's stand-ins (vite-plugins/worker-server.ts)
 * and the load test's forwarder and chaos proxy. Closing it ends its connections and destroys `agents`.
 */
export async function onLoopback(
  handle: http.RequestListener,
  agents: () => Iterable<http.Agent> = () => [],
) {
  const server = http.createServer(handle);
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
