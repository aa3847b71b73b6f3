// @vitest-environment node
import { emailLookupFormula } from '#src/lib/airtable/formula.ts';
import { RELAY_BASE_ID, RELAY_PATH } from '#src/lib/airtable/relay-protocol.ts';
import { createPacer } from '#src/server/pacer.ts';
import { REQUEST_MAX_BODY_BYTES } from '#src/server/request-check.ts';
import { createRelay } from '#src/server/relay.ts';

const TOKEN = 'patServerSecret.0123456789';
const BASE = 'appRealBase12345';
const ORIGIN = 'https://podling.test';
const NOW = Date.parse('2026-11-23T10:00:00.000Z');

interface UpstreamCall {
  method: string;
  url: string;
  authorization: string | null;
  body: unknown;
}

/** A stand-in for Airtable that records every request and answers like an empty base. */
function fakeAirtable() {
  const calls: UpstreamCall[] = [];
  const fetchStub: typeof fetch = async (input, init) => {
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const headers = new Headers(init?.headers);
    calls.push({
      method: init?.method ?? 'GET',
      url: String(input),
      authorization: headers.get('authorization'),
      body,
    });
    if (String(input).endsWith('/listRecords')) return Response.json({ records: [] });
    const records = (body as { records: { fields: unknown }[] }).records;
    return Response.json({
      records: records.map((record, i) => ({ id: `recNew${i}`, createdTime: 'x', fields: record.fields })),
    });
  };
  return { calls, fetch: fetchStub };
}

function relayWithFake() {
  const airtable = fakeAirtable();
  const relay = createRelay(
    { AIRTABLE_API_KEY: TOKEN, AIRTABLE_BASE_ID: BASE, AIRTABLE_ENDPOINT_URL: 'https://airtable.test' },
    {
      fetch: airtable.fetch,
      now: () => NOW,
      pacer: createPacer({ perSecond: 1000 }),
      warn: () => undefined,
    },
  );
  return { relay, airtable };
}

const table = (name: string) => `${RELAY_PATH}/v0/${RELAY_BASE_ID}/${encodeURIComponent(name)}/`;
const lookup = (email: string, extra = '') =>
  `${table('Waitlist')}?filterByFormula=${encodeURIComponent(emailLookupFormula(email))}&maxRecords=1&pageSize=1${extra}`;
const STAMP = '2026-11-23T09:59:59.000Z';
const waitlistFields = {
  Email: 'Parent@Example.com ',
  Interests: ['Use Podling'],
  'Last Updated': STAMP,
  'Created At': STAMP,
};
const quoteFields = {
  Email: 'head@school.sch.uk',
  'Contact Name': 'Ada',
  'School Name': 'Hill School',
  'Use Cases': ['Support Learners', 'Other: Assemblies'],
  'Other Use Case': 'Assemblies',
  'Last Updated': STAMP,
  'Created At': STAMP,
  Status: 'New',
};

interface Rule {
  rule: string;
  method: string;
  path: string;
  body?: unknown;
  rawBody?: string;
  status: number;
  /** Requests the relay may make to Airtable for it. */
  upstream: number;
}

const RULES: Rule[] = [
  {
    rule: 'the page’s lookup is answered with no records, locally',
    method: 'GET',
    path: lookup('a@b.co'),
    status: 200,
    upstream: 0,
  },
  {
    rule: 'a waitlist create is validated and upserted (lookup + create)',
    method: 'POST',
    path: table('Waitlist'),
    body: { fields: waitlistFields, typecast: true },
    status: 200,
    upstream: 2,
  },
  {
    rule: 'a quote create is validated and upserted',
    method: 'POST',
    path: table('School Quotes'),
    body: { fields: quoteFields, typecast: true },
    status: 200,
    upstream: 2,
  },
  { rule: 'list everything', method: 'GET', path: table('Waitlist'), status: 403, upstream: 0 },
  {
    rule: 'a widened formula',
    method: 'GET',
    path: `${table('Waitlist')}?filterByFormula=${encodeURIComponent("OR(1, LOWER(TRIM({Email})) = 'a@b.co')")}&maxRecords=1`,
    status: 403,
    upstream: 0,
  },
  {
    rule: 'a lookup formula with an injected condition',
    method: 'GET',
    path: `${table('Waitlist')}?filterByFormula=${encodeURIComponent("LOWER(TRIM({Email})) = 'a' & '' = ''")}`,
    status: 403,
    upstream: 0,
  },
  {
    rule: 'a lookup asking for more records',
    method: 'GET',
    path: lookup('a@b.co').replace('maxRecords=1', 'maxRecords=100'),
    status: 403,
    upstream: 0,
  },
  {
    rule: 'a lookup with other parameters',
    method: 'GET',
    path: lookup('a@b.co', '&fields%5B%5D=Email'),
    status: 403,
    upstream: 0,
  },
  {
    rule: 'POST listRecords',
    method: 'POST',
    path: `${table('Waitlist')}listRecords`,
    body: { filterByFormula: 'TRUE()' },
    status: 403,
    upstream: 0,
  },
  {
    rule: 'GET one record by id',
    method: 'GET',
    path: `${table('Waitlist')}recSomeone123`,
    status: 403,
    upstream: 0,
  },
  {
    rule: 'PATCH a record',
    method: 'PATCH',
    path: `${table('Waitlist')}recSomeone123`,
    body: { fields: { Email: 'x@y.co' } },
    status: 403,
    upstream: 0,
  },
  {
    rule: 'PATCH the table (batch update)',
    method: 'PATCH',
    path: table('Waitlist'),
    body: { records: [] },
    status: 405,
    upstream: 0,
  },
  {
    rule: 'PUT the table',
    method: 'PUT',
    path: table('Waitlist'),
    body: { records: [] },
    status: 405,
    upstream: 0,
  },
  {
    rule: 'DELETE a record',
    method: 'DELETE',
    path: `${table('Waitlist')}recSomeone123`,
    status: 403,
    upstream: 0,
  },
  {
    rule: 'DELETE records by query',
    method: 'DELETE',
    path: `${table('Waitlist')}?records%5B%5D=recSomeone123`,
    status: 405,
    upstream: 0,
  },
  {
    rule: 'performUpsert',
    method: 'POST',
    path: table('Waitlist'),
    body: { performUpsert: { fieldsToMergeOn: ['Email'] }, records: [{ fields: waitlistFields }] },
    status: 422,
    upstream: 0,
  },
  {
    rule: 'a batch create',
    method: 'POST',
    path: table('Waitlist'),
    body: { records: [{ fields: waitlistFields }, { fields: waitlistFields }] },
    status: 422,
    upstream: 0,
  },
  {
    rule: 'an unknown field',
    method: 'POST',
    path: table('Waitlist'),
    body: { fields: { ...waitlistFields, Notes: 'hi' } },
    status: 422,
    upstream: 0,
  },
  {
    rule: 'an invalid email',
    method: 'POST',
    path: table('Waitlist'),
    body: { fields: { ...waitlistFields, Email: 'not-an-email' } },
    status: 422,
    upstream: 0,
  },
  {
    rule: 'a missing email',
    method: 'POST',
    path: table('Waitlist'),
    body: { fields: { Interests: ['Use Podling'] } },
    status: 422,
    upstream: 0,
  },
  {
    rule: 'an over-long name',
    method: 'POST',
    path: table('School Quotes'),
    body: { fields: { ...quoteFields, 'Contact Name': 'x'.repeat(201) } },
    status: 422,
    upstream: 0,
  },
  {
    rule: 'an interest the site does not offer',
    method: 'POST',
    path: table('Waitlist'),
    body: { fields: { ...waitlistFields, Interests: ['Free money'] } },
    status: 422,
    upstream: 0,
  },
  {
    rule: 'a forged Status',
    method: 'POST',
    path: table('School Quotes'),
    body: { fields: { ...quoteFields, Status: 'Won' } },
    status: 422,
    upstream: 0,
  },
  {
    rule: 'a quote without Status (the server sets it)',
    method: 'POST',
    path: table('School Quotes'),
    body: { fields: { ...quoteFields, Status: undefined } },
    status: 200,
    upstream: 2,
  },
  {
    rule: 'a date that is not a date',
    method: 'POST',
    path: table('Waitlist'),
    body: { fields: { ...waitlistFields, 'Created At': 'yesterday-ish' } },
    status: 422,
    upstream: 0,
  },
  {
    rule: 'another table',
    method: 'POST',
    path: table('Staff Salaries'),
    body: { fields: { Email: 'a@b.co' } },
    status: 404,
    upstream: 0,
  },
  {
    rule: 'another base',
    method: 'POST',
    path: `${RELAY_PATH}/v0/${BASE}/Waitlist/`,
    body: { fields: waitlistFields },
    status: 404,
    upstream: 0,
  },
  {
    rule: 'the metadata API',
    method: 'GET',
    path: `${RELAY_PATH}/v0/meta/bases/${RELAY_BASE_ID}/tables`,
    status: 403,
    upstream: 0,
  },
  { rule: 'whoami', method: 'GET', path: `${RELAY_PATH}/v0/meta/whoami`, status: 403, upstream: 0 },
  { rule: 'a path outside v0', method: 'GET', path: `${RELAY_PATH}/v1/anything`, status: 404, upstream: 0 },
  {
    rule: 'malformed JSON',
    method: 'POST',
    path: table('Waitlist'),
    rawBody: '{"fields": {',
    status: 400,
    upstream: 0,
  },
  {
    rule: 'a body over the limit',
    method: 'POST',
    path: table('Waitlist'),
    rawBody: `{"fields":{"Email":"${'a'.repeat(REQUEST_MAX_BODY_BYTES)}"}}`,
    status: 413,
    upstream: 0,
  },
  {
    rule: 'a JSON body that is not an object',
    method: 'POST',
    path: table('Waitlist'),
    rawBody: '[1,2]',
    status: 422,
    upstream: 0,
  },
  {
    rule: 'query parameters on a create',
    method: 'POST',
    path: `${table('Waitlist')}?typecast=true`,
    body: { fields: waitlistFields },
    status: 400,
    upstream: 0,
  },
];

/** What the page's airtable.js client sends with a create: its stand-in key, JSON, its own origin. */
const PAGE_HEADERS = {
  authorization: 'Bearer same-origin-relay',
  'content-type': 'application/json',
  origin: ORIGIN,
};
const create = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  new Request(`${ORIGIN}${path}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { ...PAGE_HEADERS, ...headers },
  });

describe('the relay’s rules', () => {
  it.each(RULES)('$rule → $status', async ({ method, path, body, rawBody, status, upstream }) => {
    const { relay, airtable } = relayWithFake();
    const text = rawBody ?? (body === undefined ? undefined : JSON.stringify(body));
    const response = await relay(
      new Request(`${ORIGIN}${path}`, {
        method,
        body: text,
        headers: PAGE_HEADERS,
      }),
    );
    expect(response.status).toBe(status);
    expect(airtable.calls).toHaveLength(upstream);
    const answer = await response.text();
    expect(answer).not.toContain(TOKEN);
    expect(answer).not.toContain(BASE);
    if (status >= 400) expect(JSON.parse(answer)).toMatchObject({ error: { type: expect.any(String) } });
  });

  it('never forwards the page’s Authorization, only the server’s token', async () => {
    const { relay, airtable } = relayWithFake();
    await relay(create(table('Waitlist'), { fields: waitlistFields, typecast: true }));
    expect(airtable.calls.map((call) => call.authorization)).toEqual([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]);
    expect(
      airtable.calls.every((call) => call.url.startsWith(`https://airtable.test/v0/${BASE}/Waitlist`)),
    ).toBe(true);
  });

  it('refuses a create that does not carry the page’s stand-in key (a token, or none)', async () => {
    const { relay, airtable } = relayWithFake();
    for (const authorization of ['Bearer patStolenFromSomeone', '']) {
      const response = await relay(create(table('Waitlist'), { fields: waitlistFields }, { authorization }));
      expect(response.status).toBe(401);
    }
    expect(airtable.calls).toHaveLength(0);
  });

  it('answers a create with a fresh receipt and the cells the page sent, nothing of the stored record', async () => {
    const { relay } = relayWithFake();
    const response = await relay(create(table('Waitlist'), { fields: waitlistFields, typecast: true }));
    const answer = (await response.json()) as { id: string };
    expect(answer).toEqual({
      id: expect.stringMatching(/^rec[0-9a-z]{14}$/),
      createdTime: new Date(NOW).toISOString(),
      fields: waitlistFields,
    });
    expect(answer.id).not.toBe('recNew0');
  });

  it('stores the normalised email with the server’s own timestamps', async () => {
    const { relay, airtable } = relayWithFake();
    await relay(create(table('Waitlist'), { fields: waitlistFields, typecast: true }));
    const created = airtable.calls[1]?.body as {
      records: { fields: Record<string, unknown> }[];
      typecast: boolean;
    };
    const stamp = new Date(NOW).toISOString();
    expect(created.typecast).toBe(true);
    expect(created.records[0]?.fields).toEqual({
      Email: 'parent@example.com',
      Interests: ['Use Podling'],
      'Created At': stamp,
      'Last Updated': stamp,
    });
  });

  it('answers 401 in Airtable’s shape when the server has no token, without calling Airtable', async () => {
    const airtable = fakeAirtable();
    const relay = createRelay({}, { fetch: airtable.fetch, warn: () => undefined });
    const response = await relay(create(table('Waitlist'), { fields: waitlistFields }));
    expect(response.status).toBe(401);
    expect(airtable.calls).toHaveLength(0);
  });
});
