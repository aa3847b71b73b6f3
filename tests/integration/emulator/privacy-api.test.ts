// @vitest-environment node
/**
 * Over HTTP: the requests the privacy commands make (batch DELETE by `records[]`, listing
 * page by page with `offset`, date formulas), and the admin API's origin rules (issue 21).
 */
import { describe, expect, it } from 'vitest';
import {
  EMULATOR_ADMIN_PREFIX,
  EMULATOR_API_KEY,
  EMULATOR_BASE_ID,
} from '#scripts/airtable-emulator/emulator.ts';
import { useEmulator } from '#tests/integration/support/emulator.ts';

const emulator = useEmulator();

const auth = { authorization: `Bearer ${EMULATOR_API_KEY}` };
const tableUrl = (table: string) => `${emulator().url}/v0/${EMULATOR_BASE_ID}/${encodeURIComponent(table)}`;

describe('records API for the privacy commands', () => {
  it('deletes a batch by records[] query parameters and answers each id as deleted', async () => {
    const seeded = Array.from({ length: 3 }, (_, i) => emulator().seed('Waitlist', { Email: `d${i}@x.co` }));
    const query = seeded
      .slice(0, 2)
      .map((record) => `records[]=${record.id}`)
      .join('&');
    const answer = await fetch(`${tableUrl('Waitlist')}?${query}`, { method: 'DELETE', headers: auth });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({
      records: seeded.slice(0, 2).map((record) => ({ id: record.id, deleted: true })),
    });
    expect(
      emulator()
        .records('Waitlist')
        .map((record) => record.id),
    ).toEqual([seeded[2]?.id]);
  });

  it('refuses a delete of 11 ids with 422 INVALID_RECORDS, deleting nothing', async () => {
    const seeded = Array.from({ length: 11 }, (_, i) => emulator().seed('Waitlist', { Email: `d${i}@x.co` }));
    const query = seeded.map((record) => `records[]=${record.id}`).join('&');
    const answer = await fetch(`${tableUrl('Waitlist')}?${query}`, { method: 'DELETE', headers: auth });
    expect(answer.status).toBe(422);
    expect(await answer.json()).toMatchObject({ error: { type: 'INVALID_RECORDS' } });
    expect(emulator().records('Waitlist')).toHaveLength(11);
  });

  it('deletes one record by id in the path', async () => {
    const record = emulator().seed('Waitlist', { Email: 'one@x.co' });
    const answer = await fetch(`${tableUrl('Waitlist')}/${record.id}`, { method: 'DELETE', headers: auth });
    expect(await answer.json()).toEqual({ id: record.id, deleted: true });
    expect(emulator().records('Waitlist')).toHaveLength(0);
  });

  it('pages POST listRecords with offset in the body, and GET with offset in the query', async () => {
    for (let i = 0; i < 230; i += 1) emulator().seed('Waitlist', { Email: `p${i}@x.co` });
    const collect = async (method: 'GET' | 'POST') => {
      const emails: string[] = [];
      let offset: string | undefined;
      let pages = 0;
      do {
        const response =
          method === 'POST'
            ? await fetch(`${tableUrl('Waitlist')}/listRecords`, {
                method: 'POST',
                headers: { ...auth, 'content-type': 'application/json' },
                body: JSON.stringify({ pageSize: 100, fields: ['Email'], ...(offset ? { offset } : {}) }),
              })
            : await fetch(
                `${tableUrl('Waitlist')}?pageSize=100&fields%5B%5D=Email${offset ? `&offset=${encodeURIComponent(offset)}` : ''}`,
                { headers: auth },
              );
        const page = (await response.json()) as { records: { fields: { Email: string } }[]; offset?: string };
        emails.push(...page.records.map((record) => record.fields.Email));
        offset = page.offset;
        pages += 1;
      } while (offset);
      return { emails, pages };
    };
    for (const method of ['GET', 'POST'] as const) {
      const { emails, pages } = await collect(method);
      expect(pages, method).toBe(3);
      expect(new Set(emails).size, method).toBe(230);
    }
  });

  it('filters with the date functions retention uses, as Airtable documents them', async () => {
    const now = Date.now();
    const day = 86_400_000;
    emulator().seed('Waitlist', {
      Email: 'old@x.co',
      'Last Updated': new Date(now - 800 * day).toISOString(),
    });
    emulator().seed('Waitlist', {
      Email: 'recent@x.co',
      'Last Updated': new Date(now - 2 * day).toISOString(),
    });
    emulator().seed('Waitlist', { Email: 'blank@x.co' });
    const select = async (formula: string) => {
      const response = await fetch(`${tableUrl('Waitlist')}/listRecords`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ filterByFormula: formula }),
      });
      expect(response.status, formula).toBe(200);
      const page = (await response.json()) as { records: { fields: { Email: string } }[] };
      return page.records.map((record) => record.fields.Email).sort();
    };
    const daysAgo = (days: number) => `DATETIME_PARSE('${new Date(now - days * day).toISOString()}')`;
    expect(await select(`IS_BEFORE({Last Updated}, ${daysAgo(730)})`)).toEqual(['old@x.co']);
    expect(await select(`IS_AFTER({Last Updated}, ${daysAgo(7)})`)).toEqual(['recent@x.co']);
    expect(await select('{Last Updated} = BLANK()')).toEqual(['blank@x.co']);
    expect(await select('IS_AFTER(NOW(), CREATED_TIME())')).toEqual([
      'blank@x.co',
      'old@x.co',
      'recent@x.co',
    ]);
  });
});

describe('admin API answers its own origin only (issue 21)', () => {
  const admin = (route: string, init: RequestInit = {}) =>
    fetch(`${emulator().url}${EMULATOR_ADMIN_PREFIX}${route}`, init);

  it('gives a foreign origin no CORS grant, and its own origin one', async () => {
    emulator().seed('Waitlist', { Email: 'private@x.co' });
    const foreign = await admin('/records', { headers: { origin: 'https://evil.example' } });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const own = await admin('/records', { headers: { origin: emulator().url } });
    expect(own.status).toBe(200);
    expect(own.headers.get('access-control-allow-origin')).toBe(emulator().url);
  });

  it('refuses a foreign origin’s reset, seed, faults and config, and their preflight', async () => {
    emulator().seed('Waitlist', { Email: 'private@x.co' });
    const origin = { origin: 'https://evil.example' };
    const attempts: [string, RequestInit][] = [
      ['/reset', { method: 'POST', headers: origin }],
      [
        '/records/Waitlist',
        { method: 'POST', headers: origin, body: JSON.stringify({ fields: { Email: 'x@y.z' } }) },
      ],
      ['/faults', { method: 'POST', headers: origin, body: JSON.stringify({ status: 500 }) }],
      ['/faults', { method: 'DELETE', headers: origin }],
      ['/config', { method: 'POST', headers: origin, body: JSON.stringify({ rateLimitPerSecond: 0 }) }],
      ['/reset', { method: 'POST', headers: { 'sec-fetch-site': 'cross-site' } }],
      ['/reset', { method: 'OPTIONS', headers: { ...origin, 'access-control-request-method': 'POST' } }],
    ];
    for (const [route, init] of attempts) {
      const answer = await admin(route, init);
      expect(answer.status, `${init.method} ${route}`).toBe(403);
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    }
    expect(
      emulator()
        .records('Waitlist')
        .map((record) => record.fields.Email),
    ).toEqual(['private@x.co']);
    expect((await (await admin('/faults')).json()) as unknown).toEqual({ faults: [] });
  });

  it('still takes changes from its own origin and from tools without Origin', async () => {
    expect((await admin('/reset', { method: 'POST', headers: { origin: emulator().url } })).status).toBe(200);
    const seeded = await admin('/records/Waitlist', {
      method: 'POST',
      body: JSON.stringify({ fields: { Email: 'old@x.co' }, createdTime: '2001-01-01T00:00:00.000Z' }),
    });
    expect(await seeded.json()).toMatchObject({ createdTime: '2001-01-01T00:00:00.000Z' });
  });

  it('refuses a Host that is not loopback (DNS rebinding)', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        `${emulator().url}${EMULATOR_ADMIN_PREFIX}/records`,
        { headers: { host: `rebound.example:${emulator().port}` } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });

  it('keeps the records API open to any origin, as Airtable’s is (direct mode)', async () => {
    const preflight = await fetch(tableUrl('Waitlist'), {
      method: 'OPTIONS',
      headers: { origin: 'http://127.0.0.1:4173', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:4173');
  });
});
