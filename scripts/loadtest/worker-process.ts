/**
 * The reference deploy run locally: `wrangler dev` (workerd) with wrangler.jsonc — static
 * assets, the relay, the SUBMISSIONS queue and its consumer, dead letters in local KV — its
 * AIRTABLE_* variables pointing at a loopback stand-in. Used by the load test and npm test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WRANGLER = path.join(ROOT, 'node_modules/wrangler/bin/wrangler.js');

export interface WorkerOptions {
  /** The built site (dist/) the Worker serves. */
  assetsDir: string;
  vars: Record<string, string>;
  /** Called with each line the Worker logs (the queue writer's batch reports, say). */
  onLog?: (line: string) => void;
  /** More `wrangler dev` flags (`--test-scheduled`, say). */
  extraArgs?: readonly string[];
}

export interface RunningWorker {
  url: string;
  close: () => Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitUntilServing(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited (${child.exitCode}):\n${output()}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(2_000) });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`wrangler dev did not answer at ${url} within 90 s:\n${output()}`);
}

/**
 * The environment without libfaketime's preload (`npm run test:clock` moves the tests' clock with
 * it): workerd hangs at start under it, even for `--version`. The Worker then runs on the real
 * clock while the tests run on the moved one, which is itself a check that no test compares its
 * own clock with the server's.
 */
export function withoutMovedClock(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const rest = { ...env };
  const { LD_PRELOAD } = rest;
  delete rest.LD_PRELOAD;
  delete rest.FAKETIME;
  const kept = (LD_PRELOAD ?? '').split(/[\s:]+/).filter((lib) => lib && !lib.includes('faketime'));
  return kept.length > 0 ? { ...rest, LD_PRELOAD: kept.join(':') } : rest;
}

export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  const port = await freePort();
  const state = await mkdtemp(path.join(tmpdir(), 'podling-wrangler-'));
  const args = [
    WRANGLER,
    'dev',
    '--config',
    path.join(ROOT, 'wrangler.jsonc'),
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    // Its own devtools port too: wrangler's default (9229) is one per machine, and two Workers
    // starting at once (the integration tests' forks, the two moved clocks) raced for it.
    '--inspector-port',
    String(await freePort()),
    '--assets',
    options.assetsDir,
    '--persist-to',
    state,
    '--show-interactive-dev-session=false',
    ...(options.extraArgs ?? []),
    ...Object.entries(options.vars).flatMap(([name, value]) => ['--var', `${name}:${value}`]),
  ];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...withoutMovedClock(process.env), WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let partial = '';
  const take = (chunk: Buffer) => {
    const text = chunk.toString();
    output = (output + text).slice(-20_000);
    partial += text;
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) options.onLog?.(line);
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  const url = `http://127.0.0.1:${port}`;
  const close = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(state, { recursive: true, force: true });
  };
  try {
    await waitUntilServing(`${url}/`, child, () => output);
  } catch (error) {
    await close();
    throw error;
  }
  return { url, close };
}
