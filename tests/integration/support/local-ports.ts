/**
 * Every port a local server opens, probed as an attacker would (issue 56): `vite` or `vite preview`
 * run as a developer runs them, in a process of their own; the TCP ports that process and its Node
 * children listen on, read from /proc (so a port added later is probed too); workerd's own
 * processes left out, never sent HTTP (that breaks the runtime).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { basename } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import ipaddr from 'ipaddr.js';
import { expect } from 'vitest';
import { EMULATOR_API_KEY, EMULATOR_BASE_ID } from '#scripts/airtable-emulator/emulator.ts';
import { SECURITY_HEADERS } from '#src/config/constants.ts';

/** Another machine on the network, played by this one's own address that is not loopback. */
export const lanAddress = Object.values(networkInterfaces())
  .flat()
  .find((entry) => entry && !entry.internal && entry.family === 'IPv4')?.address;

/** `vite …` (dev or preview) in a process of its own, as a developer starts it, until `stop()`. */
export async function startVite(args: readonly string[], env: Record<string, string>) {
  // Not Vitest's own settings: the server runs as from a shell.
  const shell = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(VITEST|NODE_ENV$|TEST$)/.test(name)),
  );
  const child = spawn(process.execPath, ['node_modules/vite/bin/vite.js', ...args], {
    env: { ...shell, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      // Without colours: picocolors adds them wherever CI is set, even to a pipe.
      output += stripVTControlCharacters(String(chunk));
      if (/Local:\s+http/.test(output)) resolve();
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => reject(new Error(`vite ended (${code}) before it served:\n${output}`)));
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const ended = once(child, 'exit');
    child.kill('SIGINT'); // Ctrl+C, as a developer ends it.
    await ended;
  };
  await ready.catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { pid: child.pid ?? 0, output: () => output, stop };
}

/** The Node processes among `pid` and its descendants (workerd's are left out). */
function nodeProcesses(pid: number): number[] {
  const isNode = basename(readlinkSync(`/proc/${pid}/exe`)).startsWith('node');
  if (!isNode) return [];
  const children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number),
  );
  return [pid, ...children.flatMap(nodeProcesses)];
}

/** An address from /proc/net/tcp{,6}: hex, each 32-bit word in the host's (little-endian) order. */
function addressOf(hex: string): string {
  const bytes = (hex.match(/../g) ?? []).map((pair) => parseInt(pair, 16));
  const ordered = bytes.flatMap((_, i) => (i % 4 === 0 ? bytes.slice(i, i + 4).reverse() : []));
  return ipaddr.fromByteArray(ordered).toString();
}

type ListeningPort = { address: string; port: number; range: string };

/** The TCP ports the Node processes of `pid` listen on, with their addresses. */
function listeningPorts(pid: number): ListeningPort[] {
  const inodes = new Set(
    nodeProcesses(pid).flatMap((node) =>
      readdirSync(`/proc/${node}/fd`).flatMap((fd) => {
        try {
          return /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${node}/fd/${fd}`))?.[1] ?? [];
        } catch {
          return []; // Closed since it was listed.
        }
      }),
    ),
  );
  return ['tcp', 'tcp6'].flatMap((table) =>
    readFileSync(`/proc/net/${table}`, 'utf8')
      .split('\n')
      .slice(1)
      .flatMap((line) => {
        const [, local = '', , state, , , , , , inode = ''] = line.trim().split(/\s+/);
        // 0A: listening.
        if (state !== '0A' || !inodes.has(inode)) return [];
        const [hex = '', port = ''] = local.split(':');
        const address = addressOf(hex);
        return [{ address, port: parseInt(port, 16), range: ipaddr.process(address).range() }];
      }),
  );
}

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/**
 * One request to `port` at `address` (from `from`, a source address of this machine), with the
 * Host and headers given: its answer, or the error's code (ECONNREFUSED: nothing listens there).
 */
function probe(
  address: string,
  port: number,
  path: string,
  { method = 'GET', headers = {}, body, from }: ProbeOptions = {},
): Promise<Answer | string> {
  return new Promise((resolve) => {
    const req = request(
      { host: address, port, path, method, headers, localAddress: from, agent: false },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += String(chunk)));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.setTimeout(15_000, () => req.destroy(new Error('no answer in 15 s')));
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    req.end(body);
  });
}
type ProbeOptions = { method?: string; headers?: Record<string, string>; body?: string; from?: string };

/** A request line Node's parser refuses (a header without a colon): Node answers it itself. */
function malformedRequest(address: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, address);
    let answer = '';
    socket.setTimeout(15_000, () => socket.destroy());
    socket.on('data', (chunk) => (answer += String(chunk)));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(answer));
    socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n');
  });
}

/** The security headers an answer lacks: its headers, or the raw text of one Node wrote itself. */
function missingHeaders(answer: Answer | string): string[] {
  return Object.entries(SECURITY_HEADERS)
    .filter(([name, value]) =>
      typeof answer === 'string'
        ? !answer.toLowerCase().includes(`\r\n${name}: ${value}\r\n`.toLowerCase())
        : answer.headers[name.toLowerCase()] !== value,
    )
    .map(([name]) => name);
}

/** The emulator's API as a page or a rebinding name would call it: a read, and a write of `email`. */
const emulatorApi = {
  path: `/v0/${EMULATOR_BASE_ID}/Waitlist`,
  headers: { authorization: `Bearer ${EMULATOR_API_KEY}`, 'content-type': 'application/json' },
  write: (email: string) => JSON.stringify({ records: [{ fields: { Email: email } }] }),
};

const statusOf = (answer: Answer | string) => (typeof answer === 'string' ? answer : answer.status);
const REBOUND = 'rebound@evil.example';

/**
 * Issue 56's rows 1 and 6 on every port but the site's of the server `pid`: each is on loopback
 * only (another machine meets a closed port), refuses a Host that is not a loopback name or
 * address and a write from another site, and carries the security headers on every answer,
 * Node's own 400 included; one of them is the stand-ins' (the Airtable emulator and the outbox),
 * which serves a loopback client. Miniflare's own loopback server (workerd calls back into Node
 * there) answers nothing without its per-run secret, not even with headers of ours: it is found
 * by that, and held to it.
 */
export async function expectToolPortsClosed(pid: number, sitePort: number) {
  const ports = listeningPorts(pid);
  expect
    .soft(ports.filter((listening) => listening.port === sitePort).map(({ range }) => range))
    .toEqual(['unspecified']);
  const others = ports.filter((listening) => listening.port !== sitePort);
  expect.soft(others.filter(({ range }) => range !== 'loopback')).toEqual([]);
  const problems: string[] = [];
  const served: number[] = [];
  for (const { address, port } of others) {
    const own = `${address.includes(':') ? `[${address}]` : address}:${port}`;
    const evil = `evil.example:${port}`;
    const api = (host: string, extra: ProbeOptions = {}) =>
      probe(address, port, emulatorApi.path, {
        ...extra,
        headers: { ...emulatorApi.headers, host, ...extra.headers },
      });
    const write = { method: 'POST', body: emulatorApi.write(REBOUND), headers: { origin: `http://${evil}` } };
    const refused = {
      'a rebinding name': await api(evil),
      'a rebinding name’s write': await api(evil, write),
      'another site’s write': await api(own, write),
      'another site’s preflight': await api(own, { ...write, method: 'OPTIONS', body: undefined }),
    };
    const health = await probe(address, port, '/__emulator/health', { headers: { host: own } });
    const read = await api(own);
    const answers = [...Object.values(refused), health, read];
    const malformed = await malformedRequest(address, port);
    for (const [what, answer] of Object.entries(refused))
      if (statusOf(answer) !== 403) problems.push(`${port}, ${what}: ${statusOf(answer)}`);
    const miniflare = answers.every(
      (answer) => typeof answer !== 'string' && answer.status === 403 && answer.body === 'Forbidden',
    );
    if (!miniflare) {
      for (const answer of answers)
        if (missingHeaders(answer).length > 0)
          problems.push(`${port}: ${statusOf(answer)} lacks ${missingHeaders(answer)}`);
      if (!/^HTTP\/1\.1 400 /.test(malformed) || missingHeaders(malformed).length > 0)
        problems.push(`${port}, a malformed request: ${JSON.stringify(malformed)}`);
    }
    if (statusOf(health) === 200) {
      served.push(port);
      expect.soft(statusOf(read)).toBe(200);
      expect.soft(typeof read === 'string' ? read : read.body).not.toContain(REBOUND);
    }
    if (lanAddress)
      expect.soft(await probe(lanAddress, port, '/', { from: lanAddress })).toBe('ECONNREFUSED');
  }
  expect.soft(problems).toEqual([]);
  expect.soft(served).toHaveLength(1);
}

/**
 * Issue 56's rows 2 and 6 on the site's port: Miniflare's Cron Triggers answer this machine's own
 * tools only, not another machine nor a page a browser marks as another's (an `<img>` anywhere);
 * every answer carries the security headers, Node's own 400 too.
 */
export async function expectSitePortClosed(sitePort: number) {
  const trigger = (path = '/cdn-cgi/handler/scheduled') => `${path}?cron=${encodeURIComponent('5 * * * *')}`;
  const local = (path: string, headers: Record<string, string> = {}) =>
    probe('127.0.0.1', sitePort, path, { headers });
  const lan = lanAddress;
  const remote = (path: string) =>
    lan
      ? probe(lan, sitePort, path, { from: lan, headers: { host: `${lan}:${sitePort}` } })
      : Promise.resolve('skipped');
  if (!lan)
    console.warn('No address but loopback on this machine: the probes from another machine are skipped');
  const answers = {
    'the trigger, from curl here': await local(trigger()),
    'an <img> on another site': await local(trigger(), {
      'sec-fetch-site': 'cross-site',
      'sec-fetch-dest': 'image',
    }),
    'an <img> on another port here': await local(trigger(), { 'sec-fetch-site': 'same-site' }),
    'a fetch from another origin': await local(trigger(), { origin: 'http://evil.example' }),
    'the page': await local('/'),
    'the emulator’s page': await local('/__emulator/'),
    'the trigger, from another machine': await remote(trigger()),
    'its older path, from another machine': await remote(trigger('/cdn-cgi/mf/scheduled')),
    'Miniflare’s own path, from another machine': await remote(trigger('/cdn-cgi/local/scheduled')),
    'the page, from another machine': await remote('/'),
  };
  const remoteStatus = (status: number) => (lan ? status : 'skipped');
  expect
    .soft(Object.fromEntries(Object.entries(answers).map(([what, answer]) => [what, statusOf(answer)])))
    .toEqual({
      'the trigger, from curl here': 200,
      'an <img> on another site': 403,
      'an <img> on another port here': 403,
      'a fetch from another origin': 403,
      'the page': 200,
      'the emulator’s page': 200,
      'the trigger, from another machine': remoteStatus(403),
      'its older path, from another machine': remoteStatus(403),
      'Miniflare’s own path, from another machine': remoteStatus(403),
      'the page, from another machine': remoteStatus(200),
    });
  const lacking = Object.entries(answers).flatMap(([what, answer]) =>
    typeof answer === 'string' ? [] : missingHeaders(answer).map((name) => `${what}: ${name}`),
  );
  expect.soft(lacking).toEqual([]);
  const malformed = await malformedRequest('127.0.0.1', sitePort);
  expect.soft(malformed).toMatch(/^HTTP\/1\.1 400 /);
  expect.soft(missingHeaders(malformed)).toEqual([]);
}
