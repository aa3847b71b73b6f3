// @vitest-environment node
/**
 * What the emulator learned for the privacy commands and issue 21's "the emulator tells the
 * truth": deletes of at most 10 ids, listing page by page with offset, options added by several
 * records of one typecast batch all kept, a seeded record's own creation time, and an admin API
 * that answers its own origin only.
 */
import { describe, expect, it } from 'vitest';
import { adminRequestProblem, ownOrigin } from '#scripts/airtable-emulator/admin.ts';
import { compileFormula, evaluate, parseFormula } from '#scripts/airtable-emulator/formula.ts';
import { BaseStore } from '#scripts/airtable-emulator/store.ts';

const BASE = 'appTest';
const ids = (store: BaseStore, table: string) => store.records(table).map((record) => record.id);

describe('BaseStore deletes', () => {
  it('deletes up to 10 records by id in one request, as Airtable allows', () => {
    const store = new BaseStore({ baseId: BASE });
    for (let i = 0; i < 12; i += 1) store.seed('Waitlist', { Email: `p${i}@x.co` });
    const all = ids(store, 'Waitlist');
    expect(store.deleteRecords('Waitlist', all.slice(0, 10))).toEqual(
      all.slice(0, 10).map((id) => ({ id, deleted: true })),
    );
    expect(ids(store, 'Waitlist')).toEqual(all.slice(10));
  });

  it('refuses 11 ids, or none, with 422 and deletes nothing', () => {
    const store = new BaseStore({ baseId: BASE });
    for (let i = 0; i < 11; i += 1) store.seed('Waitlist', { Email: `p${i}@x.co` });
    for (const request of [ids(store, 'Waitlist'), []])
      expect(() => store.deleteRecords('Waitlist', request)).toThrow(
        expect.objectContaining({ status: 422, type: 'INVALID_RECORDS' }),
      );
    expect(store.records('Waitlist')).toHaveLength(11);
  });

  it('answers 404 and deletes nothing when one id of the batch is unknown', () => {
    const store = new BaseStore({ baseId: BASE });
    const kept = store.seed('Waitlist', { Email: 'a@x.co' });
    expect(() => store.deleteRecords('Waitlist', [kept.id, 'recNope'])).toThrow(
      expect.objectContaining({ status: 404 }),
    );
    expect(ids(store, 'Waitlist')).toEqual([kept.id]);
  });
});

describe('BaseStore listing', () => {
  it('pages with offset through every matching record, a formula and fields applied to each page', () => {
    const store = new BaseStore({ baseId: BASE });
    for (let i = 0; i < 250; i += 1)
      store.seed('Waitlist', { Email: `p${i}@x.co`, 'Page Source': i % 2 ? 'a' : 'b' });
    const seen: string[] = [];
    let offset: string | undefined;
    let pages = 0;
    do {
      const page = store.listRecords('Waitlist', {
        filterByFormula: "{Page Source} = 'a'",
        fields: ['Email'],
        ...(offset ? { offset } : {}),
      });
      pages += 1;
      expect(page.records.length).toBeLessThanOrEqual(100);
      for (const record of page.records) {
        expect(Object.keys(record.fields)).toEqual(['Email']);
        seen.push(record.fields.Email as string);
      }
      offset = page.offset;
    } while (offset);
    expect(pages).toBe(2);
    expect(seen).toHaveLength(125);
    expect(new Set(seen).size).toBe(125);
  });

  it('refuses an offset it never gave', () => {
    const store = new BaseStore({ baseId: BASE });
    expect(() => store.listRecords('Waitlist', { offset: 'garbage' })).toThrow(
      expect.objectContaining({ status: 422, type: 'LIST_RECORDS_ITERATOR_NOT_AVAILABLE' }),
    );
  });

  it('keeps a seeded record’s given creation time, which CREATED_TIME() reads', () => {
    const store = new BaseStore({ baseId: BASE });
    const old = store.seed('Waitlist', { Email: 'old@x.co' }, '2001-02-03T04:05:06.000Z');
    store.seed('Waitlist', { Email: 'new@x.co' });
    expect(old.createdTime).toBe('2001-02-03T04:05:06.000Z');
    const found = store.listRecords('Waitlist', {
      filterByFormula: "IS_BEFORE(CREATED_TIME(), DATETIME_PARSE('2002-01-01T00:00:00.000Z'))",
    });
    expect(found.records.map((record) => record.fields.Email)).toEqual(['old@x.co']);
    expect(() => store.seed('Waitlist', { Email: 'x@x.co' }, 'not a date')).toThrow(
      expect.objectContaining({ status: 422 }),
    );
  });
});

describe('select options added by a typecast batch', () => {
  it('keeps every new option of a batch create, not only the last record’s', () => {
    const store = new BaseStore({ baseId: BASE });
    store.writeRecords('School Quotes', 'POST', undefined, {
      typecast: true,
      records: [
        { fields: { Email: 'a@x.co', 'Use Cases': ['Other: radio'] } },
        { fields: { Email: 'b@x.co', 'Use Cases': ['Other: drama'] } },
        { fields: { Email: 'c@x.co', 'Use Cases': ['Other: radio', 'Other: choir'] } },
      ],
    });
    const choices = store
      .describeTables()
      .find((table) => table.name === 'School Quotes')
      ?.fields.find((field) => field.name === 'Use Cases')
      ?.options?.choices?.map((choice) => choice.name);
    expect(choices).toEqual([
      'Support Learners',
      'Practice Speaking',
      'Showcase Creativity',
      'Other: radio',
      'Other: drama',
      'Other: choir',
    ]);
  });

  it('keeps every new option of a batch update too, and none of a refused batch', () => {
    const store = new BaseStore({ baseId: BASE });
    const a = store.seed('Waitlist', { Email: 'a@x.co' });
    const b = store.seed('Waitlist', { Email: 'b@x.co' });
    store.writeRecords('Waitlist', 'PATCH', undefined, {
      typecast: true,
      records: [
        { id: a.id, fields: { Interests: ['First new'] } },
        { id: b.id, fields: { Interests: ['Second new'] } },
      ],
    });
    expect(() =>
      store.writeRecords('Waitlist', 'PATCH', undefined, {
        typecast: true,
        records: [
          { id: a.id, fields: { Interests: ['Third new'] } },
          { id: 'recNope', fields: { Interests: ['Fourth new'] } },
        ],
      }),
    ).toThrow();
    const interests = store
      .describeTables()
      .find((table) => table.name === 'Waitlist')
      ?.fields.find((field) => field.name === 'Interests')
      ?.options?.choices?.map((choice) => choice.name);
    expect(interests).toContain('First new');
    expect(interests).toContain('Second new');
    expect(interests).not.toContain('Third new');
    expect(interests).not.toContain('Fourth new');
  });
});

describe('admin API origin checks', () => {
  const socket = { remoteAddress: '127.0.0.1' };
  const request = (method: string, headers: Record<string, string>) => ({
    method,
    headers: { host: '127.0.0.1:8787', ...headers },
    socket,
  });

  it('takes any request from tools that send no Origin, and its own origin’s', () => {
    expect(adminRequestProblem(request('POST', {}))).toBeNull();
    expect(adminRequestProblem(request('POST', { origin: 'http://127.0.0.1:8787' }))).toBeNull();
    expect(adminRequestProblem(request('DELETE', { origin: 'http://127.0.0.1:8787' }))).toBeNull();
    expect(ownOrigin(request('GET', {}))).toBe('http://127.0.0.1:8787');
  });

  it('refuses changes (and their preflight) from a foreign origin or a cross-site request', () => {
    for (const method of ['POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS'])
      expect(adminRequestProblem(request(method, { origin: 'https://evil.example' })), method).toMatch(
        /own origin/,
      );
    expect(adminRequestProblem(request('POST', { origin: 'http://127.0.0.1:5173' }))).toMatch(/own origin/);
    expect(adminRequestProblem(request('POST', { 'sec-fetch-site': 'cross-site' }))).toMatch(/own origin/);
  });

  it('lets a foreign page send a read (answered without any CORS grant, see the integration test)', () => {
    expect(adminRequestProblem(request('GET', { origin: 'https://evil.example' }))).toBeNull();
  });

  it('answers loopback host names only, or the ones it was told (no DNS rebinding)', () => {
    for (const host of ['localhost:5173', '127.0.0.1', '127.1.2.3:80', '[::1]:8787', 'site.localhost:5173'])
      expect(adminRequestProblem({ method: 'GET', headers: { host }, socket }), host).toBeNull();
    expect(adminRequestProblem({ method: 'GET', headers: { host: 'evil.example:8787' }, socket })).toMatch(
      /loopback/,
    );
    expect(adminRequestProblem({ method: 'GET', headers: {}, socket })).toMatch(/loopback/);
    expect(
      adminRequestProblem({ method: 'GET', headers: { host: 'dev-box.lan:8787' }, socket }, ['dev-box.lan']),
    ).toBeNull();
  });

  it('answers only a client whose socket is loopback, whatever Host it sends', () => {
    for (const remoteAddress of ['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1'])
      expect(
        adminRequestProblem({ ...request('POST', {}), socket: { remoteAddress } }),
        remoteAddress,
      ).toBeNull();
    for (const remoteAddress of ['192.0.2.7', '::ffff:192.0.2.7', 'fd00::2', '0.0.0.0', '', undefined])
      expect(
        adminRequestProblem({ ...request('GET', {}), socket: { remoteAddress } }, ['dev-box.lan']),
        String(remoteAddress),
      ).toMatch(/own clients only/);
    expect(adminRequestProblem({ method: 'GET', headers: { host: '127.0.0.1' } })).toMatch(/own clients/);
  });
});

describe('BLANK() and DATETIME_PARSE, as Airtable documents them', () => {
  const run = (formula: string, fields: Record<string, string> = {}) =>
    evaluate(parseFormula(formula), fields);

  it('BLANK() equals an empty cell and nothing else; an empty cell is false in IF', () => {
    const blank = compileFormula('{Last Updated} = BLANK()', ['Last Updated']);
    expect(blank({ fields: {} })).toBe(true);
    expect(blank({ fields: { 'Last Updated': '2024-01-01T00:00:00.000Z' } })).toBe(false);
    expect(run("IF({Note}, 'set', 'empty')")).toBe('empty');
    expect(run("IF({Note}, 'set', 'empty')", { Note: 'x' })).toBe('set');
    expect(run('BLANK()')).toBeNull();
  });

  it('DATETIME_PARSE reads ISO text; an unreadable date is blank', () => {
    expect(run("DATETIME_PARSE('2024-11-23T09:30:00.000Z')")).toBe('2024-11-23T09:30:00.000Z');
    expect(run("DATETIME_PARSE('2024-11-23')")).toBe('2024-11-23T00:00:00.000Z');
    expect(run("DATETIME_PARSE('not a date')")).toBeNull();
  });
});
