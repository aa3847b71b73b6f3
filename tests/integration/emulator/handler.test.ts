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
