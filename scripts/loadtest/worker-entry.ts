/**
 * The Worker's own workerd entry under a `wrangler dev`, for the rush's visitors. wrangler puts a
 * proxy of its own in front of the Worker: a second workerd whose every request passes one Durable
 * Object and is logged through wrangler's Node process. Production has no such hop, and on this
 * 2-core machine it took about half a core during the burst, beside the Worker's own (docs/rush.md,
 * "The visitors straight to the Worker"). wrangler does not say where the Worker itself listens (a
 * port of the runtime's choosing), so this reads it from Linux's /proc: the workerd under `pid`
 * started with a debug port (the Worker's; the proxy's has none), its listening sockets, and of
 * those the one that answers a page. Elsewhere it finds none, and the visitors go through the proxy.
 */
import { readdir, readFile, readlink } from 'node:fs/promises';

const text = (file: string) => readFile(file, 'utf8').catch(() => '');

/** `pid` and every process under it. */
async function processTree(pid: number): Promise<number[]> {
  const children = (await text(`/proc/${pid}/task/${pid}/children`)).split(/\s+/).filter(Boolean);
  const below = await Promise.all(children.map((child) => processTree(Number(child))));
  return [pid, ...below.flat()];
}

/** The loopback ports `pid` listens on (/proc/net/tcp: state 0A, matched by the socket's inode). */
async function listeningPorts(pid: number): Promise<number[]> {
  const fds = await readdir(`/proc/${pid}/fd`).catch(() => []);
  const links = await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')));
  const inodes = new Set(links.map((link) => /^socket:\[(\d+)\]$/.exec(link)?.[1]).filter(Boolean));
  return (await text('/proc/net/tcp'))
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((columns) => columns[3] === '0A' && inodes.has(columns[9]))
    .map((columns) => parseInt(columns[1]?.split(':')[1] ?? '', 16));
}

/** The URL the Worker under `wrangler dev`'s process `pid` answers at itself, if this system shows it. */
export async function workerEntry(pid: number): Promise<string | undefined> {
  for (const each of await processTree(pid)) {
    if (!(await text(`/proc/${each}/cmdline`)).includes('--debug-port')) continue;
    for (const port of await listeningPorts(each)) {
      const url = `http://127.0.0.1:${port}`;
      const page = await fetch(`${url}/`, { signal: AbortSignal.timeout(2_000) }).catch(() => null);
      await page?.body?.cancel();
      if (page?.ok && page.headers.get('content-type')?.startsWith('text/html')) return url;
    }
  }
  return undefined;
}
