// @vitest-environment node
/**
 * The site's Vite plugins, driven through Vite's own APIs exactly as `vite build`, `vite preview`
 * and `vite` run them: the whole site is built, served like the host, and stored to locally.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBuilder, createServer, preview, type PreviewServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMULATOR_API_KEY, EMULATOR_BASE_ID } from '#scripts/airtable-emulator/emulator.ts';
// The servers take a fixed port: the address their emailed links lead to (SITE_URL).
import { freePort } from '#scripts/loadtest/worker-process.ts';
import { FORMS } from '#src/lib/forms/forms.ts';
import { enhancedPost } from './support/door.ts';

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
});
