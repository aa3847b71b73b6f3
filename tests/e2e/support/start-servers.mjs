#!/usr/bin/env node
// @ts-check
/**
 * `node --import tsx tests/e2e/support/start-servers.mjs <server>…`: starts the named e2e servers
 * (servers.mjs) at once, as Playwright's one `webServer`. The sites are built first (each once,
 * one after another), and the servers that serve them start once they are built; the emulators and
 * the dev server start at once. When every server answers, it answers on LAUNCHER_URL, which
 * Playwright waits for. Playwright ends the run by killing this process's group, servers and all.
 * A server that is already running (a leftover from an earlier run), fails to start or exits
 * ends the launch with its name.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { E2E_PORTS } from './config.mjs';
import { BUILD_SITE_COMMAND, E2E_SERVERS } from './servers.mjs';

const names = process.argv.slice(2);
const started = Date.now();
const seconds = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
const servers = names.map((name) => {
  const entry = E2E_SERVERS.find((candidate) => candidate.name === name);
  if (!entry) throw new Error(`No e2e server named ${name}: ${E2E_SERVERS.map((e) => e.name).join(', ')}`);
  return entry;
});

let stopping = false;

/**
 * Ends this process and every server with it. The servers share its process group (Playwright
 * starts it as a group's leader and ends a run by killing that group), and so do their own
 * children (wrangler's workerd, a shell's command), which killing the servers one by one would
 * leave behind.
 */
function stop() {
  stopping = true;
  process.kill(0, 'SIGKILL');
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

/** @param {string} message */
function fail(message) {
  console.error(`e2e servers: ${message}`);
  stop();
}

/** Runs `command` in a shell, its output prefixed with `[label]`. @param {string} label @param {string} command @param {Record<string, string>} [env] */
function run(label, command, env = {}) {
  const child = spawn(command, {
    shell: true,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream?.on('data', (chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) console.log(`[${label}] ${line}`);
    });
  }
  return child;
}

/** Whether `url` answers as Playwright counts it (a status from 200 to 403). @param {string} url */
function answers(url) {
  return new Promise((resolve) => {
    const request = http.get(url, (response) => {
      response.resume();
      const status = response.statusCode ?? 0;
      resolve(status >= 200 && status < 404);
    });
    request.on('error', () => resolve(false));
    request.setTimeout(2_000, () => request.destroy());
  });
}

/** Waits until `url` answers, or fails after `timeout` ms. @param {string} name @param {string} url @param {number} timeout */
async function waitFor(name, url, timeout) {
  const deadline = Date.now() + timeout;
  for (let pause = 50; !(await answers(url)); pause = Math.min(pause * 2, 500)) {
    if (Date.now() > deadline) fail(`${name} did not answer at ${url} within ${timeout / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/** The servers that start one at a time (`oneAtATime`): each waits for the one before to answer. */
let oneAtATime = Promise.resolve();

/** Starts one server and waits until it answers. @param {(typeof servers)[number]} entry */
async function start(entry) {
  const server = entry.server();
  if (server.oneAtATime) {
    const before = oneAtATime;
    let done = () => {};
    oneAtATime = new Promise((resolve) => (done = () => resolve(undefined)));
    await before;
    try {
      await startNow(entry, server);
    } finally {
      done();
    }
    return;
  }
  await startNow(entry, server);
}

/** @param {(typeof servers)[number]} entry @param {ReturnType<(typeof servers)[number]['server']>} server */
async function startNow(entry, server) {
  const child = run(entry.name, server.command, server.env);
  child.on('exit', (code, signal) => {
    if (!stopping) fail(`${entry.name} exited (${signal ?? code}): ${server.command}`);
  });
  await waitFor(entry.name, server.url, server.timeout);
  console.log(`e2e servers: ${entry.name} answers (${seconds()})`);
}

/**
 * Builds the e2e sites one after another in one process (build-site.mjs), which reads and hashes
 * the sources once for all of them; each build keeps both cores busy, so side by side they were
 * no quicker.
 * @param {string[]} sites
 */
function build(sites) {
  return new Promise((resolve) => {
    run('build', `${BUILD_SITE_COMMAND} ${sites.join(' ')}`).on('exit', (code) => {
      if (code !== 0) fail(`building the ${sites.join(', ')} sites failed (${code})`);
      console.log(`e2e servers: the ${sites.join(', ')} sites are built (${seconds()})`);
      resolve(undefined);
    });
  });
}

// Nothing may answer yet: a leftover server from another run would serve stale code.
for (const entry of servers) {
  const { url } = entry.server();
  if (await answers(url))
    fail(`${url} already answers (${entry.name}): is an earlier run's server still up?`);
}

const sites = [...new Set(servers.flatMap((entry) => (entry.site ? [entry.site] : [])))];
const built = sites.length > 0 ? build(sites) : Promise.resolve();

await Promise.all(
  servers.map(async (entry) => {
    if (entry.site) await built;
    await start(entry);
  }),
);

http
  .createServer((_, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('ready\n'))
  .listen(E2E_PORTS.launcher, '127.0.0.1', () =>
    console.log(`e2e servers: all ${names.length} answer (${seconds()})`),
  );
