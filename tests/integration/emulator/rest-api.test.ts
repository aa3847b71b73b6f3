// @vitest-environment node
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import Airtable from 'airtable';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  EMULATOR_ADMIN_PREFIX,
  EMULATOR_API_KEY,
  EMULATOR_BASE_ID,
  startEmulator,
} from '#scripts/airtable-emulator/emulator.ts';

type Emulator = Awaited<ReturnType<typeof startEmulator>>;

let emulator: Emulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, rateLimitPerSecond: 0 });
});

afterAll(async () => {
  await emulator.close();
});

beforeEach(() => {
  emulator.reset();
});

function table(name = 'School Quotes', apiKey = EMULATOR_API_KEY, baseId = EMULATOR_BASE_ID) {
  return new Airtable({ apiKey, endpointUrl: emulator.url, noRetryIfRateLimited: true })
    .base(baseId)
    .table(name);
}

/** Resolves with the airtable.js error a call rejects with. */
async function failure(
  call: Promise<unknown>,
): Promise<{ statusCode?: number; error?: string; message?: string }> {
  return call.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error as { statusCode?: number; error?: string; message?: string },
  );
}

async function admin(route: string, init?: { method?: string; body?: unknown }): Promise<unknown> {
  const response = await fetch(`${emulator.url}${EMULATOR_ADMIN_PREFIX}${route}`, {
    method: init?.method ?? 'GET',
    headers: { 'content-type': 'application/json' },
    body: init?.body === undefined ? undefined : JSON.stringify(init.body),
  });
  expect(response.ok).toBe(true);
  return response.json();
}

describe('Airtable REST behaviour', () => {
  it('lists with paging, maxRecords and fields as airtable.js asks', async () => {
    const quotes = table();
    for (let i = 0; i < 5; i += 1) {
      await quotes.create({ Email: `p${i}@x.co`, 'School Name': `S${4 - i}` });
    }
    expect(await quotes.select({ pageSize: 2 }).all()).toHaveLength(5);
    expect(await quotes.select({ maxRecords: 3, pageSize: 2 }).all()).toHaveLength(3);
    const onlyEmail = await quotes.select({ fields: ['Email'] }).all();
    expect(onlyEmail.map((r) => r.fields)).toEqual([0, 1, 2, 3, 4].map((i) => ({ Email: `p${i}@x.co` })));
    const viaPost = await quotes
      .select({ filterByFormula: "{Email} = 'p2@x.co'", method: 'post' })
      .firstPage();
    expect(viaPost.map((r) => r.fields.Email)).toEqual(['p2@x.co']);
    expect(emulator.requests().some((r) => r.method === 'POST' && r.path.endsWith('/listRecords'))).toBe(
      true,
    );
  });

  it('evaluates AND/OR/NOT, & and IF in formulas', async () => {
    const quotes = table();
    await quotes.create({ Email: 'a@x.co', Role: 'Head' });
    await quotes.create({ Email: 'b@x.co', Role: 'Teacher' });
    const select = async (filterByFormula: string) =>
      (await quotes.select({ filterByFormula }).all()).map((r) => r.fields.Email).sort();
    expect(await select("AND({Role} = 'Head', NOT({Email} = 'b@x.co'))")).toEqual(['a@x.co']);
    expect(await select("OR({Role} = 'Head', {Role} & '!' = 'Teacher!')")).toEqual(['a@x.co', 'b@x.co']);
    expect(await select("IF({Role} = 'Head', 1, 0)")).toEqual(['a@x.co']);
    expect(await select('{Role} = "Te\\"acher"')).toEqual([]);
  });

  it('rejects a broken formula and unknown fields in it with 422 INVALID_FILTER_BY_FORMULA', async () => {
    const quotes = table();
    for (const formula of ["{Email} = 'unclosed", 'NOPE(1)', "{Nope} = 'x'", '{Email} ='])
      expect(await failure(quotes.select({ filterByFormula: formula }).firstPage())).toMatchObject({
        statusCode: 422,
        error: 'INVALID_FILTER_BY_FORMULA',
      });
  });

  it('updates by id and by records array, PATCH merging', async () => {
    const quotes = table();
    const record = await quotes.create({ Email: 'a@x.co', Role: 'Head' });
    await quotes.update(record.id, { 'School Name': 'St Mary' });
    expect(emulator.records('School Quotes')[0]?.fields).toEqual({
      Email: 'a@x.co',
      Role: 'Head',
      'School Name': 'St Mary',
    });
    await quotes.update([{ id: record.id, fields: { Role: '' } }]);
    expect(emulator.records('School Quotes')[0]?.fields).toEqual({
      Email: 'a@x.co',
      'School Name': 'St Mary',
    });
    expect(await failure(quotes.update('recMissing000000', { Role: 'x' }))).toMatchObject({
      statusCode: 404,
    });
  });

  it('upserts on a text merge field (performUpsert): creates, then updates the same record; refuses the email type and two matches', async () => {
    const upsert = (body: unknown) =>
      fetch(`${emulator.url}/v0/${EMULATOR_BASE_ID}/Waitlist`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${EMULATOR_API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const record = (fields: Record<string, unknown>) => ({
      performUpsert: { fieldsToMergeOn: ['Email Key'] },
      records: [{ fields }],
    });
    const first = await upsert(record({ Email: 'a@x.co', 'Email Key': 'a@x.co', 'Page Source': 'home' }));
    expect(await first.json()).toMatchObject({ createdRecords: [expect.any(String)], updatedRecords: [] });
    const second = await upsert(record({ Email: 'a@x.co', 'Email Key': 'a@x.co', Consent: 'Pending' }));
    expect(await second.json()).toMatchObject({ createdRecords: [], updatedRecords: [expect.any(String)] });
    expect(emulator.records('Waitlist').map((stored) => stored.fields)).toEqual([
      { Email: 'a@x.co', 'Email Key': 'a@x.co', 'Page Source': 'home', Consent: 'Pending' },
    ]);
    const onEmail = await upsert({
      performUpsert: { fieldsToMergeOn: ['Email'] },
      records: [{ fields: { Email: 'b@x.co' } }],
    });
    expect(onEmail.status).toBe(422);
    emulator.seed('Waitlist', { Email: 'a@x.co', 'Email Key': 'a@x.co' });
    expect((await upsert(record({ Email: 'a@x.co', 'Email Key': 'a@x.co' }))).status).toBe(422);
  });

  it('rejects unknown fields and new select options unless typecast, which adds the option', async () => {
    const waitlist = table('Waitlist');
    expect(await failure(waitlist.create({ Nickname: 'x' }))).toMatchObject({
      statusCode: 422,
      error: 'UNKNOWN_FIELD_NAME',
      message: 'Unknown field name: "Nickname"',
    });
    expect(await failure(waitlist.create({ Email: 'a@x.co', Interests: ['Newsletter Only'] }))).toMatchObject(
      {
        statusCode: 422,
        error: 'INVALID_MULTIPLE_CHOICE_OPTIONS',
      },
    );
    expect(emulator.records('Waitlist')).toHaveLength(0);
    await waitlist.create({ Email: 'a@x.co', Interests: ['Newsletter Only'] }, { typecast: true });
    // Once added, the option is known even without typecast.
    await waitlist.create({ Email: 'b@x.co', Interests: ['Newsletter Only'] });
    expect(emulator.records('Waitlist')).toHaveLength(2);
    expect(await failure(waitlist.create({ Email: 'c@x.co', 'Created At': 'not a date' }))).toMatchObject({
      statusCode: 422,
      error: 'INVALID_VALUE_FOR_COLUMN',
    });
  });

  it('answers 401 for a wrong key, 403 for another base and 404 for an unknown table', async () => {
    expect(await failure(table('Waitlist', 'patWrong').select().firstPage())).toMatchObject({
      statusCode: 401,
    });
    expect(await failure(table('Waitlist', EMULATOR_API_KEY, 'appOther').select().firstPage())).toMatchObject(
      {
        statusCode: 403,
      },
    );
    expect(await failure(table('Nope').select().firstPage())).toMatchObject({ statusCode: 404 });
  });

  it('rate limits per base at the configured rate, with Airtable’s 429 body', async () => {
    emulator.setConfig({ rateLimitPerSecond: 2 });
    const statuses = await Promise.all(
      Array.from({ length: 4 }, () =>
        fetch(`${emulator.url}/v0/${EMULATOR_BASE_ID}/Waitlist`, {
          headers: { authorization: `Bearer ${EMULATOR_API_KEY}` },
        }).then(async (response) => ({ status: response.status, body: (await response.json()) as unknown })),
      ),
    );
    expect(statuses.filter((s) => s.status === 200)).toHaveLength(2);
    expect(statuses.find((s) => s.status === 429)?.body).toEqual({
      errors: [{ error: 'RATE_LIMIT_REACHED', message: 'Rate limit exceeded. Please try again later' }],
    });
  });
});

describe('the browser build of airtable.js against the emulator', () => {
  it('sends only headers the CORS preflight allows, and works end to end', async () => {
    const sent: string[][] = [];
    const spyFetch: typeof fetch = (input, init) => {
      sent.push(Object.keys((init?.headers ?? {}) as Record<string, string>).map((h) => h.toLowerCase()));
      return fetch(input, init);
    };
    const scope = globalThis as { window?: unknown };
    // The UMD bundle takes window.fetch and the browser header names when `window` exists, both
    // when it loads and on each request.
    scope.window = { fetch: spyFetch, AbortController };
    try {
      const BrowserAirtable = createRequire(import.meta.url)(
        'airtable/lib/airtable.umd.js',
      ) as typeof Airtable;
      const quotes = new BrowserAirtable({
        apiKey: EMULATOR_API_KEY,
        endpointUrl: emulator.url,
        noRetryIfRateLimited: true,
      })
        .base(EMULATOR_BASE_ID)
        .table('School Quotes');
      await quotes.create({ Email: 'a@x.co', 'Use Cases': ['Other: radio'] }, { typecast: true });
      const found = await quotes.select({ filterByFormula: "{Email} = 'a@x.co'", maxRecords: 1 }).firstPage();
      expect(found).toHaveLength(1);
    } finally {
      delete scope.window;
    }

    const requested = [...new Set(sent.flat())].filter((h) => h !== 'accept' && h !== 'content-language');
    expect(requested).toContain('x-airtable-user-agent');
    const preflight = await fetch(`${emulator.url}/v0/${EMULATOR_BASE_ID}/School%20Quotes`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://127.0.0.1:4173',
        'access-control-request-method': 'PATCH',
        'access-control-request-headers': requested.join(','),
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:4173');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('PATCH');
    const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').split(/,\s*/);
    for (const header of [...requested, 'x-api-version', 'x-airtable-application-id'])
      expect(allowed).toContain(header);
  });
});

describe('fault injection', () => {
  it('answers the next N matching requests with the given status, then recovers', async () => {
    emulator.addFaults({ status: 503, count: 2, method: 'GET' });
    const quotes = table();
    expect(await failure(quotes.select().firstPage())).toMatchObject({ statusCode: 503 });
    await quotes.create({ Email: 'a@x.co' }); // a POST does not match the GET fault
    expect(await failure(quotes.select().firstPage())).toMatchObject({ statusCode: 503 });
    expect(await quotes.select().firstPage()).toHaveLength(1);
  });

  it('with match, meets only requests whose formula or body names that text, in any case', async () => {
    emulator.addFaults({ status: 500, count: 1, match: 'Mine@Example.org' });
    const quotes = table();
    await quotes.create({ Email: 'someone.else@example.org' });
    await quotes.select({ filterByFormula: `{Email} = 'someone.else@example.org'` }).firstPage();
    expect(await admin('/faults')).toEqual({
      faults: [{ status: 500, count: 1, match: 'Mine@Example.org' }],
    });
    expect(
      await failure(quotes.select({ filterByFormula: `LOWER({Email}) = 'mine@example.org'` }).firstPage()),
    ).toMatchObject({ statusCode: 500 });
    emulator.addFaults({ status: 500, count: 1, match: 'mine@example.org' });
    expect(await failure(quotes.create({ Email: 'MINE@example.org' }))).toMatchObject({ statusCode: 500 });
    await quotes.create({ Email: 'mine@example.org' });
    expect(await admin('/faults')).toEqual({ faults: [] });
  });

  it('drops the connection', async () => {
    emulator.addFaults({ kind: 'drop' });
    const error = await failure(table().select().firstPage());
    expect(error.statusCode).toBeUndefined();
    expect(String(error.message)).toMatch(/socket hang up|ECONNRESET|fetch failed/);
  });
});

describe('admin HTTP API', () => {
  it('seeds, lists, injects faults, configures and resets', async () => {
    const seeded = (await admin('/records/Waitlist', {
      method: 'POST',
      body: { fields: { Email: 'a@x.co' } },
    })) as {
      id: string;
    };
    expect(seeded.id).toMatch(/^rec/);
    expect(await admin('/records/Waitlist')).toMatchObject({
      records: [{ id: seeded.id, fields: { Email: 'a@x.co' } }],
    });
    expect(await admin('/records')).toMatchObject({
      tables: { Waitlist: [{ id: seeded.id }], 'School Quotes': [] },
    });

    expect(await admin('/faults', { method: 'POST', body: { status: 500, count: 3 } })).toEqual({
      faults: [{ status: 500, count: 3 }],
    });
    expect(await admin('/faults', { method: 'DELETE' })).toEqual({ faults: [] });
    expect(
      await admin('/config', { method: 'POST', body: { rateLimitPerSecond: 9, latencyMs: 'x' } }),
    ).toEqual({
      rateLimitPerSecond: 9,
      rateLimitPenaltyMs: 0,
      latencyMs: 0,
    });

    await table('Waitlist').select().firstPage();
    expect(await admin('/requests')).toMatchObject({
      requests: [{ method: 'GET', table: 'Waitlist', status: 200 }],
    });

    const page = await fetch(`${emulator.url}${EMULATOR_ADMIN_PREFIX}/`);
    expect(await page.text()).toContain('a@x.co');

    expect(await admin('/reset', { method: 'POST' })).toEqual({ ok: true });
    expect(await admin('/records/Waitlist')).toEqual({ records: [] });
    expect(await admin('/config')).toMatchObject({ rateLimitPerSecond: 0 });
  });
});

describe('persistence and CLI', () => {
  it('keeps records in the data file across restarts', async () => {
    const dataFile = path.join(
      fs.mkdtempSync(path.join(os.tmpdir(), 'airtable-emulator-')),
      'nested',
      'data.json',
    );
    const first = await startEmulator({ port: 0, dataFile });
    await new Airtable({ apiKey: EMULATOR_API_KEY, endpointUrl: first.url })
      .base(EMULATOR_BASE_ID)
      .table('Waitlist')
      .create({ Email: 'kept@x.co', Interests: ['General Waitlist'] }, { typecast: true });
    await first.close();
    const second = await startEmulator({ port: 0, dataFile });
    try {
      expect(second.records('Waitlist').map((r) => r.fields)).toEqual([
        { Email: 'kept@x.co', Interests: ['General Waitlist'] },
      ]);
    } finally {
      await second.close();
    }
  });

  it('runs as a command and prints one line with its address', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'scripts/airtable-emulator/cli.ts', '--port', '0', '--no-data'],
      {
        cwd: path.resolve(import.meta.dirname, '../../..'),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      const line = await new Promise<string>((resolve, reject) => {
        child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString()));
        child.once('exit', (code) => reject(new Error(`exited with ${code}`)));
      });
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(line)?.[0];
      expect(url).toBeDefined();
      const health = (await (await fetch(`${url}${EMULATOR_ADMIN_PREFIX}/health`)).json()) as { ok: boolean };
      expect(health.ok).toBe(true);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
