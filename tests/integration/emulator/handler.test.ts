// @vitest-environment node
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Airtable from 'airtable';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, EMULATOR_ADMIN_PREFIX } from '#scripts/airtable-emulator/emulator.ts';

// createEmulator() is mounted on a server that also serves other paths, as Vite's dev and
// preview servers will: the emulator answers its own paths and leaves the rest alone.
const emulator = createEmulator({ rateLimitPerSecond: 0 });
const server = http.createServer((req, res) => {
  const { pathname } = new URL(req.url ?? '/', 'http://site.invalid');
  if (emulator.handles(pathname)) return emulator.handle(req, res);
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end('the site');
});
let origin = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await emulator.close();
  await new Promise((resolve) => server.close(resolve));
});

describe('createEmulator as middleware on the site origin', () => {
  it('claims /v0/ and /__emulator paths only', () => {
    expect(
      [
        '/v0/app/Waitlist',
        '/v0/meta/bases/app/tables',
        EMULATOR_ADMIN_PREFIX,
        `${EMULATOR_ADMIN_PREFIX}/records`,
      ].every(emulator.handles),
    ).toBe(true);
    expect(['/', '/schools', '/v0', '/__emulatorx', '/api/airtable'].some(emulator.handles)).toBe(false);
  });

  it('serves airtable.js and the admin API next to the site', async () => {
    const table = new Airtable({ apiKey: emulator.apiKey, endpointUrl: origin })
      .base(emulator.baseId)
      .table('Waitlist');
    await table.create({ Email: 'mounted@x.co' });
    expect(emulator.records('Waitlist').map((record) => record.fields.Email)).toEqual(['mounted@x.co']);
    const admin = (await (await fetch(`${origin}${EMULATOR_ADMIN_PREFIX}/records/Waitlist`)).json()) as {
      records: unknown[];
    };
    expect(admin.records).toHaveLength(1);
    expect(await (await fetch(`${origin}/schools`)).text()).toBe('the site');
  });
});

describe('the API’s CORS, mounted on the site’s server (apiOrigins: own) and standalone (any)', () => {
  const own = createEmulator({ rateLimitPerSecond: 0, apiOrigins: 'own' });
  const ownServer = http.createServer((req, res) => own.handle(req, res));
  let ownOrigin = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => ownServer.listen(0, '127.0.0.1', resolve));
    ownOrigin = `http://127.0.0.1:${(ownServer.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await own.close();
    await new Promise((resolve) => ownServer.close(resolve));
  });
  const list = (base: string, baseId: string, apiKey: string, headers: Record<string, string>) =>
    fetch(`${base}/v0/${baseId}/Waitlist`, { headers: { authorization: `Bearer ${apiKey}`, ...headers } });

  it('refuses a page on another localhost origin, preflight and read, with no CORS grant', async () => {
    own.seed('Waitlist', { Email: 'private@x.co' });
    for (const foreign of ['http://localhost:3000', 'http://127.0.0.1:1', 'null']) {
      const read = await list(ownOrigin, own.baseId, own.apiKey, { origin: foreign });
      expect(read.status, foreign).toBe(403);
      expect(read.headers.get('access-control-allow-origin')).toBeNull();
      expect(await read.text()).not.toContain('private@x.co');
      const preflight = await fetch(`${ownOrigin}/v0/${own.baseId}/Waitlist`, {
        method: 'OPTIONS',
        headers: { origin: foreign, 'access-control-request-headers': 'authorization' },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    }
    const crossSite = await list(ownOrigin, own.baseId, own.apiKey, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
  });

  it('still serves its own origin and requests without Origin (the relay)', async () => {
    const same = await list(ownOrigin, own.baseId, own.apiKey, { origin: ownOrigin });
    expect(same.status).toBe(200);
    expect(same.headers.get('access-control-allow-origin')).toBe(ownOrigin);
    expect((await list(ownOrigin, own.baseId, own.apiKey, {})).status).toBe(200);
  });

  it('standalone, answers any origin as Airtable does (direct mode calls it from the site)', async () => {
    const answer = await list(origin, emulator.baseId, emulator.apiKey, { origin: 'http://localhost:5173' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
  });
});
