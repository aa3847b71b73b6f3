// @vitest-environment node
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  EMULATOR_API_KEY,
  EMULATOR_BASE_ID,
  startEmulator,
  type RunningEmulator,
} from '#scripts/airtable-emulator/emulator.ts';

const READ_ONLY_SCHEMA = 'patSchemaReader.test';
const RECORDS_ONLY = 'patRecordsOnly.test';

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({
    port: 0,
    rateLimitPerSecond: 0,
    schema: 'empty',
    tokens: [
      { token: READ_ONLY_SCHEMA, scopes: ['schema.bases:read'] },
      { token: RECORDS_ONLY, scopes: ['data.records:read', 'data.records:write'] },
    ],
  });
});
afterAll(() => emulator.close());
beforeEach(() => emulator.reset());

async function call(path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  const response = await fetch(`${emulator.url}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${init.token ?? EMULATOR_API_KEY}`,
      'content-type': 'application/json',
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const TABLES = `/v0/meta/bases/${EMULATOR_BASE_ID}/tables`;
const EMAIL_TABLE = { name: 'People', fields: [{ name: 'Email', type: 'email' }] };

describe('Metadata API', () => {
  it('lists no tables on an empty base, then the created table with ids, primary field and a view', async () => {
    expect(await call(TABLES)).toEqual({ status: 200, body: { tables: [] } });
    const created = await call(TABLES, { method: 'POST', body: EMAIL_TABLE });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^tbl/),
      name: 'People',
      primaryFieldId: expect.stringMatching(/^fld/),
      fields: [{ id: expect.stringMatching(/^fld/), name: 'Email', type: 'email' }],
      views: [{ id: expect.stringMatching(/^viw/), name: 'Grid view', type: 'grid' }],
    });
    expect((await call(TABLES)).body).toEqual({ tables: [created.body] });
  });

  it('creates a field by table name or id, and the records API accepts it at once', async () => {
    const table = (await call(TABLES, { method: 'POST', body: EMAIL_TABLE })).body;
    const field = await call(`${TABLES}/${String(table.id)}/fields`, {
      method: 'POST',
      body: { name: 'Tags', type: 'multipleSelects', options: { choices: [{ name: 'a' }] } },
    });
    expect(field).toMatchObject({
      status: 200,
      body: { id: expect.stringMatching(/^fld/), name: 'Tags', options: { choices: [{ name: 'a' }] } },
    });
    await call(`${TABLES}/People/fields`, { method: 'POST', body: { name: 'Note', type: 'multilineText' } });
    const record = await call(`/v0/${EMULATOR_BASE_ID}/People`, {
      method: 'POST',
      body: { fields: { Email: 'a@b.co', Tags: ['a'], Note: 'hi' } },
    });
    expect(record).toMatchObject({
      status: 200,
      body: { fields: { Email: 'a@b.co', Tags: ['a'], Note: 'hi' } },
    });
  });

  it("answers Airtable's 422 error shapes for a duplicate table or field and bad options", async () => {
    await call(TABLES, { method: 'POST', body: EMAIL_TABLE });
    expect(await call(TABLES, { method: 'POST', body: EMAIL_TABLE })).toMatchObject({
      status: 422,
      body: { error: { type: 'DUPLICATE_TABLE_NAME' } },
    });
    expect(
      await call(`${TABLES}/People/fields`, { method: 'POST', body: { name: 'EMAIL', type: 'email' } }),
    ).toMatchObject({
      status: 422,
      body: { error: { type: 'DUPLICATE_OR_EMPTY_FIELD_NAME', message: expect.any(String) } },
    });
    expect(
      await call(`${TABLES}/People/fields`, {
        method: 'POST',
        body: { name: 'At', type: 'dateTime', options: {} },
      }),
    ).toMatchObject({ status: 422, body: { error: { type: 'INVALID_FIELD_TYPE_OPTIONS_FOR_CREATE' } } });
  });

  it('answers 403 for another base or an unknown table, 404 for an unknown route', async () => {
    expect(await call('/v0/meta/bases/appOther/tables')).toMatchObject({
      status: 403,
      body: { error: { type: 'INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND' } },
    });
    expect(
      await call(`${TABLES}/Nope/fields`, { method: 'POST', body: { name: 'X', type: 'email' } }),
    ).toMatchObject({ status: 403 });
    expect(await call(`${TABLES}/x/views`)).toMatchObject({ status: 404 });
  });

  it('checks token scopes: 401 for an unknown token, 403 for a missing scope', async () => {
    expect(await call(TABLES, { token: 'patNope' })).toMatchObject({
      status: 401,
      body: { error: { type: 'AUTHENTICATION_REQUIRED' } },
    });
    expect(await call(TABLES, { token: READ_ONLY_SCHEMA })).toMatchObject({ status: 200 });
    expect(await call(TABLES, { token: READ_ONLY_SCHEMA, method: 'POST', body: EMAIL_TABLE })).toMatchObject({
      status: 403,
      body: { error: { type: 'INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND' } },
    });
    expect(await call(TABLES, { token: RECORDS_ONLY })).toMatchObject({ status: 403 });
    await call(TABLES, { method: 'POST', body: EMAIL_TABLE });
    expect(await call(`/v0/${EMULATOR_BASE_ID}/People`, { token: READ_ONLY_SCHEMA })).toMatchObject({
      status: 403,
    });
    expect(await call(`/v0/${EMULATOR_BASE_ID}/People`, { token: RECORDS_ONLY })).toMatchObject({
      status: 200,
    });
  });

  it('reset restores the initial (here empty) schema', async () => {
    await call(TABLES, { method: 'POST', body: EMAIL_TABLE });
    emulator.reset();
    expect((await call(TABLES)).body).toEqual({ tables: [] });
  });
});
