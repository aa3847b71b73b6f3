// @vitest-environment node
import { type AirtableClient, AirtableError, createAirtableClient } from '#src/server/airtable/client.ts';
import { explain, fieldForCreate } from '#scripts/launch-kit/airtable.ts';
import { createPacer } from '#src/server/airtable/pacer.ts';

const ACCESS = { endpointUrl: 'https://airtable.test/', baseId: 'appBase', token: 'patServer' };
const open = () => createPacer({ perSecond: 1000 });
/** The base's tables, as the launch kit asks the Metadata API for them. */
const tables = async (client: AirtableClient, deadline?: number) =>
  (await client.api<{ tables: unknown[] }>('GET', 'meta/bases/appBase/tables', undefined, deadline)).tables;

/** A fetch that answers each call in turn, and remembers what was asked. */
function answering(...answers: (() => Response)[]) {
  const calls: { method: string; url: string; body: unknown; authorization: string | null }[] = [];
  const fetchStub: typeof fetch = async (input, init) => {
    calls.push({
      method: init?.method ?? 'GET',
      url: String(input),
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
      authorization: new Headers(init?.headers).get('authorization'),
    });
    const answer = answers[calls.length - 1] ?? (() => Response.json({ records: [] }));
    return answer();
  };
  return { calls, fetch: fetchStub };
}

async function failure(promise: Promise<unknown>): Promise<AirtableError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AirtableError) return error;
    throw error;
  }
  throw new Error('expected an AirtableError');
}

describe('the server’s one Airtable client', () => {
  it('looks up many emails with formulas under 15,000 characters, and follows each one’s pages', async () => {
    const emails = Array.from({ length: 1000 }, (_, i) => `parent.number${i}@example.co.uk`);
    const found = (from: number, to: number) =>
      emails.slice(from, to).map((email, i) => ({ id: `rec${from + i}`, fields: { Email: email } }));
    const airtable = answering(
      () => Response.json({ records: found(0, 100), offset: 'itr100/rec99' }),
      () => Response.json({ records: [] }),
      () => Response.json({ records: [] }),
      () => Response.json({ records: found(100, 101) }),
    );
    const client = createAirtableClient(ACCESS, { pacer: open(), fetch: airtable.fetch });
    expect((await client.findByEmails('Waitlist', emails)).size).toBe(101);
    const bodies = airtable.calls.map(({ body }) => body as { filterByFormula: string; offset?: string });
    expect(bodies).toHaveLength(4);
    const formulas = bodies.filter((body) => !body.offset).map((body) => body.filterByFormula);
    expect(formulas).toHaveLength(3);
    for (const formula of formulas) expect(formula.length).toBeLessThanOrEqual(15_000);
    // Every email asked for once, most in one request.
    const asked = formulas.flatMap((formula) => formula.match(/parent\.number\d+@/g) ?? []);
    expect(new Set(asked).size).toBe(1000);
    expect(asked).toHaveLength(1000);
    // One SWITCH over the stored side, each address a case: about 400 typical ones a formula.
    for (const formula of formulas) expect(formula).toMatch(/^SWITCH\(LOWER\(TRIM\(\{Email\}\)\), '/);
    expect(Math.max(...formulas.map((formula) => formula.split("', 1, ").length - 1))).toBeGreaterThan(350);
    // The first formula's second page: the same formula, from its offset.
    expect(bodies[3]).toMatchObject({ filterByFormula: formulas[0], offset: 'itr100/rec99' });
  });

  it('speaks Airtable’s REST and Metadata APIs with the token, the base and the table in the URL', async () => {
    const airtable = answering(
      () => Response.json({ records: [{ id: 'rec1', fields: { Email: 'a@x.co' } }] }),
      () => Response.json({ records: [{ id: 'recNew', fields: {} }] }),
      () => Response.json({ records: [{ id: 'rec1', fields: {} }] }),
      () => Response.json({ records: [{ id: 'rec1', deleted: true }] }),
      () => Response.json({ tables: [] }),
      () => Response.json({ id: 'tbl1', name: 'T', fields: [] }),
      () => Response.json({ id: 'fld1', name: 'Notes', type: 'multilineText' }),
    );
    const client = createAirtableClient(ACCESS, { pacer: open(), fetch: airtable.fetch });
    expect([...(await client.findByEmails('School Quotes', ['A@x.co ', 'b@x.co'])).keys()]).toEqual([
      'a@x.co',
    ]);
    await client.upsert('Waitlist', [{ Email: 'c@x.co' }], 'Email');
    await client.update('Waitlist', [{ id: 'rec1', fields: { Interests: ['General Interest'] } }]);
    expect(await client.deleteRecords('Waitlist', ['rec1'])).toEqual(['rec1']);
    await tables(client);
    // As airtable:setup adds a table and a field: the site's definition, as the Metadata API takes it.
    const notes = fieldForCreate({ name: 'Notes', type: 'multilineText', maxLength: 100 });
    await client.api('POST', 'meta/bases/appBase/tables', { name: 'T', fields: [notes] });
    await client.api('POST', 'meta/bases/appBase/tables/tbl1/fields', notes);
    expect(airtable.calls.map(({ method, url }) => `${method} ${url}`)).toEqual([
      'POST https://airtable.test/v0/appBase/School%20Quotes/listRecords',
      'PATCH https://airtable.test/v0/appBase/Waitlist',
      'PATCH https://airtable.test/v0/appBase/Waitlist',
      'DELETE https://airtable.test/v0/appBase/Waitlist?records[]=rec1',
      'GET https://airtable.test/v0/meta/bases/appBase/tables',
      'POST https://airtable.test/v0/meta/bases/appBase/tables',
      'POST https://airtable.test/v0/meta/bases/appBase/tables/tbl1/fields',
    ]);
    expect(airtable.calls.every((call) => call.authorization === 'Bearer patServer')).toBe(true);
    expect(airtable.calls[0]?.body).toEqual({
      pageSize: 100,
      filterByFormula: "SWITCH(LOWER(TRIM({Email})), 'a@x.co', 1, 'b@x.co', 1, 0)",
      fields: ['Email', 'Email Key'],
    });
    expect(airtable.calls[1]?.body).toEqual({
      performUpsert: { fieldsToMergeOn: ['Email'] },
      records: [{ fields: { Email: 'c@x.co' } }],
      typecast: true,
    });
    // The Metadata API takes a field's name, type and options, never the site's own bounds.
    expect(airtable.calls[6]?.body).toEqual({ name: 'Notes', type: 'multilineText' });
    expect(client.requestsSent()).toBe(7);
  });

  it('reads each of Airtable’s error shapes into one error type', async () => {
    const airtable = answering(
      () => Response.json({ error: { type: 'INVALID_PERMISSIONS', message: 'No' } }, { status: 403 }),
      () => Response.json({ error: 'NOT_FOUND' }, { status: 404 }),
      () => Response.json({ errors: [{ error: 'RATE_LIMITED', message: 'Slow down' }] }, { status: 429 }),
      () => new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
    );
    const client = createAirtableClient(ACCESS, { pacer: open(), fetch: airtable.fetch });
    const forbidden = await failure(tables(client));
    expect(forbidden).toMatchObject({
      status: 403,
      type: 'INVALID_PERMISSIONS',
      message: 'No',
      transient: false,
    });
    expect(explain(forbidden, 'schema.bases:read')).toBe(
      '403 INVALID_PERMISSIONS: the token lacks schema.bases:read, or cannot see this base',
    );
    expect(await failure(tables(client))).toMatchObject({ status: 404, type: 'NOT_FOUND' });
    expect(await failure(tables(client))).toMatchObject({
      status: 429,
      type: 'RATE_LIMITED',
      transient: true,
    });
    const proxy = await failure(
      tables(createAirtableClient(ACCESS, { pacer: open(), fetch: airtable.fetch })),
    );
    expect(proxy).toMatchObject({ status: 502, type: 'HTTP_502', message: 'Bad Gateway', transient: true });
  });

  it('a dropped connection and a hanging answer are transient errors without a status', async () => {
    const dropped = createAirtableClient(ACCESS, {
      pacer: open(),
      fetch: async () => {
        throw new TypeError('socket hang up');
      },
    });
    expect(await failure(tables(dropped))).toMatchObject({
      status: 0,
      type: 'CONNECTION_ERROR',
      transient: true,
    });
    const hanging = createAirtableClient(ACCESS, {
      pacer: open(),
      fetch: (_input, init) =>
        new Promise((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason as Error)),
        ),
      requestBoundMs: 20,
    });
    expect(await failure(tables(hanging))).toMatchObject({ status: 0, type: 'TIMEOUT' });
  });

  it('a 429 shuts the pacer for Airtable’s penalty: the next request is refused at once, unsent', async () => {
    let clock = 0;
    const pacer = createPacer({ now: () => clock, sleep: async (ms) => void (clock += ms) });
    const airtable = answering(() => Response.json({ errors: [] }, { status: 429 }));
    const client = createAirtableClient(ACCESS, { pacer, fetch: airtable.fetch, now: () => clock });
    await failure(tables(client));
    expect(pacer.closedFor()).toBe(30_000);
    const refused = await failure(tables(client, clock + 5_000));
    expect(refused).toMatchObject({ status: 429, type: 'TOO_MANY_REQUESTS' });
    expect(airtable.calls).toHaveLength(1);
  });

  it('retries a transient failure as its policy says, and `with` shares the pacer and the count', async () => {
    const waits: number[] = [];
    const airtable = answering(
      () => new Response('', { status: 503 }),
      () => new Response('', { status: 500 }),
      () => Response.json({ tables: [] }),
      () => Response.json({ error: 'INVALID_REQUEST' }, { status: 422 }),
    );
    const once = createAirtableClient(ACCESS, { pacer: open(), fetch: airtable.fetch });
    const retrying = once.with({
      attempts: 3,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    expect(await tables(retrying)).toEqual([]);
    expect(waits).toEqual([1_000, 2_000]);
    // A permanent refusal is never retried.
    expect(await failure(tables(retrying))).toMatchObject({ status: 422 });
    expect(once.requestsSent()).toBe(4);
  });

  it('refuses more than Airtable’s 10 records a write before sending anything', async () => {
    const airtable = answering();
    const client = createAirtableClient(ACCESS, { pacer: open(), fetch: airtable.fetch });
    const eleven = Array.from({ length: 11 }, (_, i) => ({ Email: `n${i}@x.co` }));
    expect(await failure(client.upsert('Waitlist', eleven, 'Email'))).toMatchObject({ status: 422 });
    expect(await client.upsert('Waitlist', [], 'Email')).toEqual([]);
    expect(airtable.calls).toHaveLength(0);
  });
});
