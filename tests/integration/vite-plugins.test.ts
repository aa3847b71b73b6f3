// @vitest-environment node
/**
 * The site's Vite plugins, driven through Vite's own APIs exactly as `vite build`, `vite preview`
 * and `vite` run them: the whole site is built, served like the host, and stored to locally.
 */
import { once } from 'node:events';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { Agent, get, request, type Server } from 'node:http';
import { type AddressInfo, connect, createServer as createNetServer } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBuilder, createServer, preview, type PreviewServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMULATOR_API_KEY, EMULATOR_BASE_ID } from '#scripts/airtable-emulator/emulator.ts';
// The servers take a fixed port: the address their emailed links lead to (SITE_URL).
import { freePort } from '#scripts/loadtest/worker-process.ts';
import { FORMS } from '#src/lib/forms/forms.ts';
import { enhancedPost } from './support/door.ts';
import {
  expectSitePortClosed,
  expectToolPortsClosed,
  lanAddress as thisMachineOnTheNetwork,
  startVite,
} from './support/local-ports.ts';

const ROUTE_HEADINGS: Record<string, RegExp> = {
  'index.html': /<h1/,
  'schools/index.html': /<h1/,
  'about/index.html': /<h1/,
  'guidelines/index.html': /<h1/,
  'privacy/index.html': /<h1/,
  'terms/index.html': /<h1/,
  '404.html': /This page is on mute/,
};

/** Runs `work` with extra environment variables, as a shell prefix would set them. */
async function withEnv<T>(vars: Record<string, string>, work: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((name) => [name, process.env[name]]));
  Object.assign(process.env, vars);
  try {
    return await work();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** A local run's own files: the emulator's data, the outbox, the Worker's state. */
const localRun = (dir: string) => ({
  AIRTABLE_EMULATOR_DATA: join(dir, 'airtable.json'),
  MAIL_OUTBOX_DIR: join(dir, 'outbox'),
  WORKER_STATE_DIR: join(dir, 'state'),
});

async function storedEmails(base: string): Promise<unknown[]> {
  const admin = (await (await fetch(`${base}/__emulator/records/Waitlist`)).json()) as {
    records: { fields: Record<string, unknown> }[];
  };
  return admin.records.map((record) => record.fields.Email);
}

async function outbox(base: string) {
  const answer = (await (await fetch(`${base}/__emulator/outbox`)).json()) as {
    messages: { headers: Record<string, string>; links: string[] }[];
  };
  return answer.messages;
}

const urlOf = (server: { resolvedUrls: { local: string[] } | null }) =>
  (server.resolvedUrls?.local[0] ?? '').replace(/\/$/, '');

/** One request exactly as written, on its own connection (fetch normalises a target): its status, 0 if none. */
function rawStatus(base: string, target: string): Promise<number> {
  const { hostname, port, host } = new URL(base);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    socket.setTimeout(10_000, () => socket.destroy());
    socket.on('data', (chunk) => (answer += String(chunk)));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)));
    socket.write(`GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
  });
}

/** GET `url` through `agent` (false: a fresh connection): its status. */
const statusOf = (url: string, agent: Agent | false) =>
  new Promise<number>((resolve, reject) => {
    get(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    }).on('error', reject);
  });

/**
 * A post of more than the Worker's bound to a door: declared (2 MB of Content-Length, of which
 * 64 KB is sent: it is answered on its headers) or chunked (1 MB, sent whole). Its status and
 * Connection header, or the error that cut it.
 */
function oversizedPost(base: string, chunked: boolean): Promise<string> {
  const body = Buffer.alloc(chunked ? 1024 * 1024 : 64 * 1024, 'a');
  const length = chunked ? {} : { 'content-length': String(2 * 1024 * 1024) };
  return new Promise((resolve) => {
    const post = request(
      `${base}${FORMS.waitlist.path}`,
      {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', origin: base, ...length },
      },
      (res) => {
        resolve(`${res.statusCode} ${res.headers.connection}`);
        post.destroy();
      },
    );
    post.setTimeout(10_000, () => post.destroy(new Error('no answer in 10 s')));
    post.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    // Written before end(): Node sends it chunked (end(body) alone would declare its length).
    post.write(body);
    if (chunked) post.end();
  });
}

/**
 * Rounds of oversized posts, each followed by pages on a fresh connection, a kept-alive one
 * opened before the rounds, and fetch's pool: every post's answer, and every page's status.
 */
async function oversizedRounds(base: string, chunked: boolean, rounds = 20) {
  const kept = new Agent({ keepAlive: true, maxSockets: 1 });
  const pages: number[] = [await statusOf(`${base}/about`, kept)];
  const posts = new Set<string>();
  for (let round = 0; round < rounds; round += 1) {
    posts.add(await oversizedPost(base, chunked));
    const page = await fetch(`${base}/`);
    await page.arrayBuffer();
    pages.push(page.status, await statusOf(`${base}/about`, false), await statusOf(`${base}/`, kept));
  }
  kept.destroy();
  return { posts: [...posts], failedPages: pages.filter((status) => status !== 200) };
}

/** Spellings of a request target no Request can be made from, or that are not origin-form. */
const ODD_TARGETS = ['//a@b/', '//user:pass@127.0.0.1/', 'http://evil/', 'http://a@b/', '/%E0%A4%A', '/%ZZ'];

/** Another machine's client on the network (`vite --host`): an address of this one that is not loopback. */
const lanAddress = Object.values(networkInterfaces())
  .flat()
  .find((entry) => entry && !entry.internal && entry.family === 'IPv4')?.address;

/**
 * A request to `server` over a socket whose far end is `lanAddress` (not loopback), naming the
 * loopback Host, as another machine would send it: its status and body.
 */
/**
 * A declared-length body over the bound gets 413 and `Connection: close`; a chunked one has its
 * connection cut (no status); after each, in 20 rounds, no page fails.
 */
async function expectOversizedRefusedBeforeWorkerd(base: string) {
  expect(await oversizedRounds(base, false)).toEqual({ posts: ['413 close'], failedPages: [] });
  const chunked = await oversizedRounds(base, true);
  expect(
    chunked.posts.every((answer) => !/^\d/.test(answer)),
    String(chunked.posts),
  ).toBe(true);
  expect(chunked.failedPages).toEqual([]);
}

async function fromAnotherMachine(httpServer: Server, base: string, path: string, method = 'GET') {
  const relay = createNetServer((socket) => httpServer.emit('connection', socket));
  await once(relay.listen(0, lanAddress), 'listening');
  try {
    const { port } = relay.address() as AddressInfo;
    return await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const options = { host: lanAddress, port, localAddress: lanAddress, path, method, agent: false };
      request({ ...options, headers: { host: new URL(base).host } }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += String(chunk)));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
        .on('error', reject)
        .end();
    });
  } finally {
    relay.close();
  }
}

/** The local files that hold secrets or visitors' data, by every spelling Vite might serve them. */
async function localSecretPaths(root: string, dataDir: string) {
  await mkdir(join(root, '.data'), { recursive: true });
  const probe = await mkdtemp(join(root, '.data', 'deny-probe-'));
  const name = probe.slice(join(root, '.data').length + 1);
  await mkdir(join(probe, 'outbox'));
  await writeFile(join(probe, 'airtable.json'), '{"probe":"visitor-data-marker"}');
  await writeFile(join(probe, 'outbox', 'x.eml'), 'To: visitor-data-marker@example.com\n');
  const emls = (await readdir(join(dataDir, 'outbox')).catch(() => [])).map((eml) => `outbox/${eml}`);
  const paths = [
    ...['airtable.json', 'outbox/x.eml'].flatMap((file) => [
      `/.data/${name}/${file}`,
      `/.data/${name}/${file}?raw`,
      `/.data/${name}/${file}?import`,
      `/%2Edata/${name}/${file}?raw`,
      `/%2edata/${name}/${file}`,
      `/@fs${probe}/${file}`,
    ]),
    ...['/.data/link-secret', '/.data/link-secret?raw', '/.data/link-secret?import', '/%2Edata/link-secret'],
    `/@fs${root}/.data/link-secret`,
    `/@fs${root}/.data/link-secret?raw`,
    ...['airtable.json', ...emls].flatMap((file) => [`/@fs${dataDir}/${file}`, `/@fs${dataDir}/${file}?raw`]),
  ];
  const secret = await readFile(join(root, '.data', 'link-secret'), 'utf8').catch(() => '');
  return {
    paths,
    markers: ['visitor-data-marker', '@example.com', ...(secret ? [secret.trim()] : [])],
    probe,
  };
}

/** Each path's status, where it is not 403 or 404 or its answer shows a marker. */
async function servedSecrets(base: string, paths: readonly string[], markers: readonly string[]) {
  const served: string[] = [];
  for (const path of paths) {
    const response = await fetch(`${base}${path}`);
    const text = await response.text();
    if (![403, 404].includes(response.status) || markers.some((marker) => text.includes(marker)))
      served.push(`${path}: ${response.status}`);
  }
  return served;
}

/**
 * `vite` or `vite preview` on every address (`args`), in its own process as a developer runs it:
 * the site's URL is the loopback name Vite prints, so a form posted from there is stored and its
 * email's link leads there; its start-up lines say how to give the network's address instead;
 * and every port it opens is as closed as the site's own (issue 56).
 */
async function expectWildcardServerClosed(args: readonly string[]) {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'podling-wildcard-'));
  const server = await startVite([...args, '--port', String(port)], localRun(dataDir));
  try {
    const site = `http://localhost:${port}`;
    const lan = thisMachineOnTheNetwork ?? '<this machine’s address>';
    expect.soft(server.output()).toContain(`SITE_URL=http://${lan}:${port}`);
    const email = `wildcard.${port}@example.com`;
    const posted = await enhancedPost(`${site}${FORMS.waitlist.path}`, { email }, { origin: site });
    expect.soft(posted.status).toBe(200);
    if (posted.ok)
      await expect
        .poll(async () => (await outbox(site)).find((message) => message.headers.to === email)?.links[0], {
          timeout: 30_000,
        })
        .toMatch(new RegExp(`^${site}/api/email/`));
    await expectToolPortsClosed(server.pid, port);
    await expectSitePortClosed(port);
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

describe('vite build', () => {
  let outDir = '';
  let previewServer: PreviewServer | undefined;

  beforeAll(async () => {
    outDir = await mkdtemp(join(tmpdir(), 'podling-build-'));
    const previewPort = await freePort();
    await withEnv(
      { VITE_SITE_URL: 'https://example.org', AIRTABLE_API_KEY: 'patBuildEnvSecret.42' },
      async () => {
        const builder = await createBuilder({ logLevel: 'silent', build: { outDir, emptyOutDir: true } });
        await builder.buildApp();
      },
    );
    previewServer = await withEnv(localRun(outDir), () =>
      preview({ logLevel: 'silent', build: { outDir }, preview: { port: previewPort, host: '127.0.0.1' } }),
    );
  }, 120_000);

  afterAll(async () => {
    await previewServer?.close();
    await rm(outDir, { recursive: true, force: true });
  });

  it('prerenders every route with its heading, plus 404.html, sitemap, robots and _headers', async () => {
    const client = join(outDir, 'client');
    for (const [file, heading] of Object.entries(ROUTE_HEADINGS)) {
      expect(await readFile(join(client, file), 'utf8'), file).toMatch(heading);
    }
    const sitemap = await readFile(join(client, 'sitemap.xml'), 'utf8');
    expect(sitemap).toContain('<loc>https://example.org/schools</loc>');
    expect(await readFile(join(client, 'robots.txt'), 'utf8')).toContain(
      'Sitemap: https://example.org/sitemap.xml',
    );
    expect(await readFile(join(client, '_headers'), 'utf8')).toMatch(
      /Content-Security-Policy: default-src 'self'/,
    );
    // The Worker beside the pages, built once; no build manifest left among the assets.
    expect(await readFile(join(outDir, 'podling_site', 'wrangler.json'), 'utf8')).toContain('"main"');
    await expect(readFile(join(client, '.vite', 'manifest.json'), 'utf8')).rejects.toThrow();
    const home = await readFile(join(client, 'index.html'), 'utf8');
    expect(home).toMatch(/<style>/);
    expect(home).toMatch(/<script type="application\/json" id="boot-modules">\["\/assets\//);
  });

  it('keeps the server token out of every file it writes (relay mode)', async () => {
    const { readdir } = await import('node:fs/promises');
    const files = (await readdir(outDir, { recursive: true, withFileTypes: true })).filter((entry) =>
      entry.isFile(),
    );
    for (const entry of files) {
      const text = await readFile(join(entry.parentPath, entry.name), 'utf8').catch(() => '');
      expect(text, entry.name).not.toContain('patBuildEnvSecret');
    }
  });

  it('vite preview answers an unknown path with 404.html and status 404', async () => {
    const response = await fetch(`${urlOf(previewServer!)}/no-such-page`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('This page is on mute');
  });

  it('vite preview serves clean URLs with the headers from _headers, and caches /assets/ for good', async () => {
    const page = await fetch(`${urlOf(previewServer!)}/about`);
    expect(page.status).toBe(200);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const asset = /"\/(assets\/[^"]+\.js)"/.exec(await page.text())?.[1];
    const cached = await fetch(`${urlOf(previewServer!)}/${asset}`);
    expect(cached.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('vite preview runs the Worker: a sign-up is queued, written by the paced writer and emailed', async () => {
    const base = urlOf(previewServer!);
    const response = await enhancedPost(`${base}${FORMS.waitlist.path}`, { email: 'preview@example.com' });
    expect(response.status).toBe(200);
    await expect.poll(() => storedEmails(base), { timeout: 20_000 }).toEqual(['preview@example.com']);
    await expect
      .poll(async () => (await outbox(base)).map((message) => message.headers.to), { timeout: 20_000 })
      .toEqual(['preview@example.com']);
  });

  it('vite preview: a refused post whose body the Worker did not need never fails the next request (workerd issue 1741)', async () => {
    const base = urlOf(previewServer!);
    const door = `${base}${FORMS.waitlist.path}`;
    const form = { origin: base, 'content-type': 'application/x-www-form-urlencoded' };
    const refusals: [string, RequestInit, number][] = [
      ['PUT', { method: 'PUT', headers: form, body: 'email=a%40example.com' }, 405],
      ['JSON', { method: 'POST', headers: { ...form, 'content-type': 'application/json' }, body: '{}' }, 415],
      ['no such path', { method: 'POST', headers: form, body: 'email=a%40example.com' }, 404],
    ];
    const statuses: string[] = [];
    for (let round = 0; round < 150; round += 1) {
      for (const [name, init, status] of refusals) {
        const response = await fetch(name === 'no such path' ? `${base}/api/nothing` : door, init);
        await response.arrayBuffer();
        if (response.status !== status) statuses.push(`${name}: ${response.status}`);
        const next = await fetch(`${base}/about`);
        await next.arrayBuffer();
        if (next.status !== 200) statuses.push(`the page after ${name}: ${next.status}`);
      }
    }
    expect(statuses).toEqual([]);
  }, 60_000);

  it('vite preview answers every request target with a status, and keeps serving', async () => {
    const base = urlOf(previewServer!);
    for (const target of ODD_TARGETS) expect(await rawStatus(base, target), target).toBe(400);
    expect((await fetch(`${base}/`)).status).toBe(200);
  });

  it('vite preview refuses a body over the Worker’s bound before workerd sees it: no later request fails', async () => {
    await expectOversizedRefusedBeforeWorkerd(urlOf(previewServer!));
  }, 60_000);

  it.skipIf(!lanAddress)(
    'vite preview opens the emulator’s admin to this machine only, whatever Host',
    async () => {
      const base = urlOf(previewServer!);
      for (const [path, method] of [
        ['/__emulator/records'],
        ['/__emulator/'],
        ['/__emulator/reset', 'POST'],
      ]) {
        const answer = await fromAnotherMachine(previewServer!.httpServer as Server, base, path!, method);
        expect(answer.status, path).toBe(403);
        expect(answer.body).not.toContain('preview@example.com');
      }
      expect(await storedEmails(base)).toEqual(['preview@example.com']);
    },
  );

  it('vite preview --host ::: every port as closed as the site’s own, forms and links on the loopback name (issue 56)', async () => {
    await expectWildcardServerClosed(['preview', '--outDir', outDir, '--host', '::']);
  }, 120_000);

  it('vite preview serves none of the local secrets or visitors’ data', async () => {
    const { paths, markers, probe } = await localSecretPaths(process.cwd(), outDir);
    try {
      expect(await servedSecrets(urlOf(previewServer!), paths, markers)).toEqual([]);
    } finally {
      await rm(probe, { recursive: true, force: true });
    }
  });

  it('no page reads submissions through the site: the emulator’s API is not on its origin', async () => {
    const response = await fetch(`${urlOf(previewServer!)}/v0/${EMULATOR_BASE_ID}/Waitlist?maxRecords=1`, {
      headers: { authorization: `Bearer ${EMULATOR_API_KEY}`, origin: 'http://localhost:3000' },
    });
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('preview@example.com');
  });

  it('vite preview never serves the answer templates, however the path spells them', async () => {
    expect(await readFile(join(outDir, 'client/__forms/quote.html'), 'utf8')).toContain('%%form-answer');
    for (const path of [
      '/__forms/waitlist.html',
      '/__forms/quote',
      '/%5f%5fforms/waitlist.html',
      '/%5F%5Fforms/quote.html',
      '/_%5fforms/waitlist',
      '/assets/..%2f__forms/quote.html',
      '/assets/..%2F__forms/quote',
      '/assets/%2e%2e%2f__forms/quote.html',
      '/assets/..%5c__forms/quote.html',
      '//__forms/waitlist.html',
      '/./__forms/quote.html',
      '/%255f%255fforms/quote.html',
    ]) {
      // The assets server may first redirect a spelling to its clean URL: where it ends counts.
      const response = await fetch(`${urlOf(previewServer!)}${path}`);
      const text = await response.text();
      expect(response.status, path).toBe(404);
      expect(text, path).not.toContain('%%form-answer');
      expect(text, path).toContain('This page is on mute');
    }
  });
});

describe('bad settings', () => {
  it('stop vite build with a message naming the variable and what it accepts', async () => {
    await withEnv({ VITE_FEATURE_SCHOOLS_PAGE: 'maybe' }, async () => {
      await expect(createBuilder({ logLevel: 'silent' })).rejects.toThrow(
        /VITE_FEATURE_SCHOOLS_PAGE="maybe": expected 'true' or 'false'/,
      );
    });
  });

  it('stop vite dev too', async () => {
    await withEnv({ VITE_SITE_URL: 'not a url' }, async () => {
      await expect(createServer({ logLevel: 'silent' })).rejects.toThrow(/VITE_SITE_URL="not a url"/);
    });
  });
});

describe('vite dev', () => {
  let server: ViteDevServer | undefined;
  let dataDir = '';

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'podling-dev-'));
    server = await withEnv(localRun(dataDir), async () => {
      const dev = await createServer({
        logLevel: 'silent',
        server: { port: await freePort(), host: '127.0.0.1' },
      });
      return dev.listen();
    });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('runs the Worker with no keys set: a sign-up is queued, stored in the emulator and emailed to the outbox', async () => {
    const base = urlOf(server!);
    const response = await enhancedPost(`${base}${FORMS.waitlist.path}`, { email: 'dev@example.com' });
    expect(response.status).toBe(200);
    await expect.poll(() => storedEmails(base), { timeout: 20_000 }).toEqual(['dev@example.com']);
    await expect
      .poll(async () => (await outbox(base)).map((message) => message.headers.to), { timeout: 20_000 })
      .toEqual(['dev@example.com']);
    const [email] = await outbox(base);
    expect(email?.links.some((link) => link.startsWith(`${base}/api/email/confirm?token=`))).toBe(true);
  });

  it('grants no other localhost page a read of the emulator’s records or API', async () => {
    const base = urlOf(server!);
    const admin = await fetch(`${base}/__emulator/records`, { headers: { origin: 'http://localhost:3000' } });
    expect(admin.headers.get('access-control-allow-origin')).toBeNull();
    const page = await fetch(`${base}/`, { headers: { origin: 'http://localhost:3000' } });
    expect(page.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('takes the client’s address from the socket, not from a CF-Connecting-IP it sends', async () => {
    const base = urlOf(server!);
    const statuses: number[] = [];
    for (let i = 0; i < 22; i += 1) {
      const response = await fetch(`${base}${FORMS.waitlist.path}`, {
        method: 'POST',
        headers: {
          accept: 'application/json',
          'content-type': 'application/x-www-form-urlencoded',
          origin: base,
          'cf-connecting-ip': `203.0.113.${i + 1}`,
        },
        body: `email=flood${i}%40example.com`,
      });
      statuses.push(response.status);
    }
    // One client, whatever it claims: the per-client limit (10 a minute) holds. The local
    // binding counts in windows on the clock's minute, so 23 posts (with the sign-up above)
    // meet at most two windows' 20.
    expect(statuses.filter((status) => status === 429).length, String(statuses)).toBeGreaterThanOrEqual(2);
  });

  it('answers every request target with a status, and keeps serving (`//a@b/` ended vite)', async () => {
    const base = urlOf(server!);
    for (const target of ODD_TARGETS) expect(await rawStatus(base, target), target).toBe(400);
    expect((await fetch(`${base}/`)).status).toBe(200);
  });

  it('passes a middleware’s rejected promise to the error handler (500) instead of ending the process', async () => {
    const { stack } = server!.middlewares;
    const door = stack.findIndex((layer) => (layer.handle as { name?: string }).name === 'frontDoor');
    expect(door).toBeGreaterThanOrEqual(0);
    stack.splice(door + 1, 0, {
      route: '/boom',
      handle: () => Promise.reject(new Error('a middleware failed')),
    });
    try {
      expect((await fetch(`${urlOf(server!)}/boom`)).status).toBe(500);
      expect((await fetch(`${urlOf(server!)}/`)).status).toBe(200);
    } finally {
      stack.splice(door + 1, 1);
    }
  });

  it('refuses a body over the Worker’s bound before workerd sees it: no later request fails', async () => {
    await expectOversizedRefusedBeforeWorkerd(urlOf(server!));
  }, 60_000);

  // With `vite --host`, another machine reaches the site and may send any Host: the admin
  // answers by the socket's address. (No address but loopback here: admin.test.ts's fake sockets.)
  it.skipIf(!lanAddress)(
    'opens the emulator’s admin to this machine only, whatever Host is sent',
    async () => {
      const base = urlOf(server!);
      for (const [path, method] of [
        ['/__emulator/records'],
        ['/__emulator/outbox'],
        ['/__emulator/'],
        ['/__emulator/reset', 'POST'],
        ['/__emulator/faults', 'POST'],
      ]) {
        const answer = await fromAnotherMachine(server!.httpServer as Server, base, path!, method);
        expect(answer.status, path).toBe(403);
        expect(answer.body).not.toContain('dev@example.com');
      }
      expect(await storedEmails(base)).toContain('dev@example.com');
    },
  );

  it('vite --host: every port as closed as the site’s own, forms and links on the loopback name (issue 56)', async () => {
    await expectWildcardServerClosed(['--host']);
  }, 120_000);

  it('serves none of the local secrets or visitors’ data (.data/, the emulator’s file, the outbox)', async () => {
    const { paths, markers, probe } = await localSecretPaths(server!.config.root, dataDir);
    try {
      expect(await servedSecrets(urlOf(server!), paths, markers)).toEqual([]);
    } finally {
      await rm(probe, { recursive: true, force: true });
    }
  });
});
