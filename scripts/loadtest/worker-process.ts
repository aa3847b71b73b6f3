/**
 * The reference deploy locally: `wrangler dev` (workerd) with wrangler.jsonc, AIRTABLE_* pointing
 * at a loopback stand-in. Its simulated `send_email` binding sends nothing, logs each email and
 * keeps its parts in files: `sentEmails()` reads them back, what went through the real binding.
 */
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { readWranglerConfig } from '#scripts/launch-kit/privacy-trigger.ts';
import { WRANGLER_LOCAL_ENV } from '#scripts/wrangler-env.mjs';
import { workerEntry } from './worker-entry.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WRANGLER = path.join(ROOT, 'node_modules/wrangler/bin/wrangler.js');

export interface WorkerOptions {
  /** The built site (dist/) the Worker serves; without it, a two-page stand-in (its doors render their own pages). */
  assetsDir?: string;
  vars: Record<string, string>;
  onLog?: (line: string) => void;
  /** More `wrangler dev` flags (`--test-scheduled`, say). */
  extraArgs?: readonly string[];
  /** Changes wrangler.jsonc for this run only (a test's fewer retries, a refused recipient). */
  editConfig?: (config: WranglerConfig) => void;
  /**
   * The desk (the Durable Object) and the mail in a `wrangler dev` of their own, as on Cloudflare,
   * where no visitor's request runs in the Durable Object's isolate: locally one workerd runs every
   * isolate of a Worker on one thread, and the load test's visitors then delay the desk's timers.
   */
  deskApart?: boolean;
  /** The project the Worker is built from (the proof's patched copy, say); this checkout by default. */
  root?: string;
}

/** wrangler.jsonc as JSON, for `editConfig`. */
export type WranglerConfig = Record<string, unknown> & {
  queues?: { consumers?: Record<string, unknown>[] };
  send_email?: Record<string, unknown>[];
};

const SENT_MARKER = 'send_email binding called with MessageBuilder:';

/** The emails in the log (marker, then From/To/Subject/Text), `at` when the marker arrived: when it left. */
function sentEmailLog() {
  const sent: (Record<'From' | 'To' | 'Subject' | 'Text', string> & { at: number })[] = [];
  let current: (typeof sent)[number] | undefined;
  return {
    take(line: string) {
      if (line.includes(SENT_MARKER)) {
        current = { From: '', To: '', Subject: '', Text: '', at: Date.now() };
        sent.push(current);
        return;
      }
      const [, name, value = ''] = /^(From|To|Subject|Text|HTML): (.*)$/.exec(line.trim()) ?? [];
      if (!current || !name) return;
      if (name === 'HTML') current = undefined;
      else current[name as 'From' | 'To' | 'Subject' | 'Text'] = value;
    },
    emails() {
      return sent.map(({ From: from, To: to, Subject: subject, Text: textFile, at }) => {
        const text = () => (textFile ? readFile(textFile, 'utf8') : Promise.resolve(''));
        const links = async () => (await text()).match(/https?:\/\/[^\s<>"]+/g) ?? [];
        return { from, to, subject, text, links, at };
      });
    },
  };
}

/** wrangler.jsonc edited for one run, written beside the run's state (paths made absolute). */
async function editedConfig(dir: string, root: string, edit: (config: WranglerConfig) => void) {
  const config = readWranglerConfig(path.join(root, 'wrangler.jsonc')) as WranglerConfig;
  delete config.$schema;
  config.main = path.join(root, String(config.main));
  edit(config);
  const file = path.join(dir, 'wrangler.json');
  await writeFile(file, JSON.stringify(config, null, 2));
  return file;
}

/** A loopback port free at this moment (a server started on it may still lose it to another). */
export async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * The environment without libfaketime's preload (`npm run test:clock`): workerd hangs at start
 * under it, even for `--version`. The Worker then runs on the real clock while the tests run on the
 * moved one, itself a check that no test compares its own clock with the server's.
 */
function withoutMovedClock(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const kept = (env.LD_PRELOAD ?? '').split(/[\s:]+/).filter((lib) => lib && !lib.includes('faketime'));
  // spawn() leaves out the variables set to undefined.
  return { ...env, FAKETIME: undefined, LD_PRELOAD: kept.length > 0 ? kept.join(':') : undefined };
}

const PORT_TAKEN = /Address already in use|EADDRINUSE/;
const START_ATTEMPTS = 3;

/** A port found free can be taken before wrangler binds it (the two moved clocks' Workers did): retried. */
export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startWorkerOnce(options);
    } catch (error) {
      if (attempt >= START_ATTEMPTS || !PORT_TAKEN.test(String(error))) throw error;
    }
  }
}

export type RunningWorker = Awaited<ReturnType<typeof startWorkerOnce>>;

async function startWorkerOnce(options: WorkerOptions) {
  const state = await mkdtemp(path.join(tmpdir(), 'podling-wrangler-'));
  let assetsDir = options.assetsDir;
  if (!assetsDir) {
    assetsDir = path.join(state, 'site');
    await mkdir(assetsDir);
    const page = (title: string) => `<!doctype html><title>${title}</title><h1>${title}</h1>`;
    await writeFile(path.join(assetsDir, 'index.html'), page('Podling'));
    await writeFile(path.join(assetsDir, '404.html'), page('Not found'));
  }
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // A link secret of this run's own: nothing in the repository signs a link.
  const vars = { LINK_SECRET: randomBytes(32).toString('hex'), SITE_URL: url, ...options.vars };
  const emails = sentEmailLog();
  const started: Awaited<ReturnType<typeof startWrangler>>[] = [];
  const close = async () => {
    for (const wrangler of started.reverse()) await wrangler.close();
    await rm(state, { recursive: true, force: true });
  };
  const common = { state, assetsDir, vars, options, emails };
  let entryUrl = url;
  try {
    if (options.deskApart) {
      // The desk's own workerd first (a process, so a thread, of its own), found by the doors'
      // through a dev registry of this run's own.
      const env = { WRANGLER_REGISTRY_PATH: path.join(state, 'registry') };
      const desk = { name: DESK_APART_NAME, port: await freePort(), env };
      started.push(await startWrangler({ ...common, ...desk, edit: deskApart.desk }));
      started.push(await startWrangler({ ...common, name: 'doors', port, env, edit: deskApart.doors }));
    } else started.push(await startWrangler({ ...common, name: 'worker', port, env: {} }));
    const doors = started.at(-1)?.pid;
    entryUrl = (doors && (await workerEntry(doors))) || url;
  } catch (error) {
    await close();
    throw error;
  }
  // processes: how many `wrangler dev` it took (2 with the desk apart); entryUrl: the Worker's own
  // entry, past wrangler's proxy (worker-entry.ts), where the system shows it, else `url`.
  return { url, entryUrl, close, sentEmails: () => emails.emails(), processes: started.length };
}

/** The Worker's name in the desk's own process (`deskApart`), which the doors' desk binding names. */
const DESK_APART_NAME = 'podling-desk';

/**
 * The two configs of a run with the desk apart: the doors' (the submissions' queue and its
 * consumer, the desk reached in the other process) and the desk's (the Durable Object, the mail
 * queue and its consumer). Same script, same bindings otherwise.
 */
const deskApart = {
  doors(config: WranglerConfig) {
    const objects = config.durable_objects as { bindings: Record<string, unknown>[] };
    for (const binding of objects.bindings) binding.script_name = DESK_APART_NAME;
    delete config.migrations;
    config.queues = {
      ...config.queues,
      consumers: config.queues?.consumers?.filter((each) =>
        String(each.queue).startsWith('podling-submissions'),
      ),
    };
  },
  desk(config: WranglerConfig) {
    config.name = DESK_APART_NAME;
    config.queues = {
      ...config.queues,
      consumers: config.queues?.consumers?.filter(
        (each) => !String(each.queue).startsWith('podling-submissions'),
      ),
    };
  },
};

/** One `wrangler dev`, answering at `port`; its log lines go to `onLog` and the email log. */
async function startWrangler({
  state,
  assetsDir,
  vars,
  options,
  emails,
  name,
  port,
  env,
  edit,
}: {
  state: string;
  assetsDir: string;
  vars: Record<string, string>;
  options: WorkerOptions;
  emails: ReturnType<typeof sentEmailLog>;
  name: string;
  port: number;
  env: Record<string, string>;
  edit?: (config: WranglerConfig) => void;
}) {
  const url = `http://127.0.0.1:${port}`;
  const own = path.join(state, name);
  await mkdir(own);
  const { editConfig, root = ROOT } = options;
  const flags = {
    '--config':
      editConfig || edit
        ? await editedConfig(own, root, (config) => {
            editConfig?.(config);
            edit?.(config);
          })
        : path.join(root, 'wrangler.jsonc'),
    '--ip': '127.0.0.1',
    '--port': String(port),
    // Its own devtools port too: wrangler's default (9229) is one per machine, and two Workers
    // starting at once (the integration tests' forks, the two moved clocks) raced for it.
    '--inspector-port': String(await freePort()),
    '--assets': assetsDir,
    '--persist-to': path.join(own, 'persist'),
  };
  const args = [
    WRANGLER,
    'dev',
    ...Object.entries(flags).flat(),
    '--show-interactive-dev-session=false',
    ...(options.extraArgs ?? []),
    ...Object.entries(vars).flatMap(([key, value]) => ['--var', `${key}:${value}`]),
  ];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...withoutMovedClock(process.env), ...WRANGLER_LOCAL_ENV, ...env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) {
    stream.on('data', (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
    });
    createInterface({ input: stream }).on('line', (line) => {
      emails.take(line);
      options.onLog?.(line);
    });
  }
  const close = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
  };
  // Until it answers: a start that ends or loses its port fails at once (startWorker retries the latter).
  try {
    for (const deadline = Date.now() + 90_000; ; await sleep(250)) {
      if (child.exitCode !== null) throw new Error(`wrangler dev exited (${child.exitCode}):\n${output}`);
      if (PORT_TAKEN.test(output)) throw new Error(`wrangler dev found a port taken:\n${output}`);
      if (Date.now() > deadline)
        throw new Error(`wrangler dev did not answer at ${url} within 90 s:\n${output}`);
      if (await fetch(`${url}/`, { signal: AbortSignal.timeout(2_000) }).catch(() => null)) break;
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { close, pid: child.pid };
}
