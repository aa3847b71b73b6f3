// @vitest-environment node
import { vi } from 'vitest';
import { type AirtableClient, AirtableError, type StoredRecord } from '#src/server/airtable/client.ts';
import { type Cells } from '#src/lib/forms/submission.ts';
import { mergeByEmail, type Queued, QUEUED_UPSERT } from '#src/server/desk/submission-upsert.ts';
import {
  upsertByEmail,
  type UpsertHow,
  type UpsertOptions,
  type UpsertResult,
} from '#src/server/airtable/upsert.ts';

/** What the upsert asked of the client. */
type Request =
  | { kind: 'find'; emails: readonly string[] }
  | { kind: 'create'; records: readonly Cells[] }
  | { kind: 'update'; records: readonly { id: string; fields: Cells }[] };

/** A client over an in-memory table; `fail` refuses the request it names (by its number). */
function fakeClient(
  stored: { id: string; email: string; keyed?: boolean }[] = [],
  fail: Record<number, AirtableError> = {},
) {
  const requests: Request[] = [];
  const refuse = () => {
    const error = fail[requests.length];
    if (error) throw error;
  };
  const client: Pick<AirtableClient, 'findByEmails' | 'upsert' | 'update'> = {
    async findByEmails(_table, emails) {
      requests.push({ kind: 'find', emails });
      refuse();
      const found = stored.filter((record) => emails.includes(record.email.trim().toLowerCase()));
      return new Map(
        found.map((record): [string, StoredRecord] => [
          record.email.trim().toLowerCase(),
          // A record the server wrote carries its Email Key; one typed in by hand may not.
          {
            id: record.id,
            fields: { Email: record.email, ...(record.keyed ? { 'Email Key': record.email } : {}) },
          },
        ]),
      );
    },
    // A create is Airtable's upsert on the Email Key (one record per address, late writes too).
    async upsert(_table, records, mergeOn) {
      expect(mergeOn).toBe('Email Key');
      requests.push({ kind: 'create', records });
      refuse();
      return records.map((fields, i) => ({ id: `recNew${requests.length}x${i}`, fields }));
    },
    async update(_table, records) {
      requests.push({ kind: 'update', records });
      refuse();
      return records.map(({ id, fields }) => ({ id, fields }));
    },
  };
  return { requests, client: client as AirtableClient };
}

/** Items that are just cells, one per email (`byEmail`: the caller merged them). */
const CELLS: UpsertHow<Cells> = {
  cells: (cells, at) => ({
    create: { ...cells, 'Created At': at.toISOString() },
    update: { ...cells, 'Last Updated': at.toISOString() },
  }),
};
const byEmail = (items: readonly Cells[]) => items.map((item) => ({ email: String(item.Email), item }));
/**
 * The upsert after its caller's lookup of the items' emails (the round writer's), as one call:
 * every result it told, in order (`now`: the client's clock, the records' timestamps).
 */
async function upsert<T>(
  client: AirtableClient,
  entries: readonly { email: string; item: T }[],
  how: UpsertHow<T>,
  options: Partial<UpsertOptions<T>> & { now?: () => number } = {},
) {
  const emails = entries.map(({ email }) => email);
  const stored = await client.findByEmails('Waitlist', emails, how.lookupFields?.('Waitlist'));
  const results: UpsertResult<T>[] = [];
  const onWritten = (part: UpsertResult<T>[]) => {
    results.push(...part);
    return options.onWritten?.(part);
  };
  const clocked = { ...client, now: options.now ?? Date.now };
  await upsertByEmail(clocked, 'Waitlist', entries, how, { stored, onWritten });
  return results;
}
const AT = Date.parse('2026-11-24T06:00:00Z');

describe('the one upsert by email', () => {
  it('merges one email’s submissions (mergeByEmail) into one record, the later over the earlier', async () => {
    const { requests, client } = fakeClient();
    const submitted = (cells: Cells): Queued => ({
      submission: {
        table: 'Waitlist',
        email: String(cells.Email),
        acceptedAt: '2026-11-24T05:59:00Z',
        cells,
      },
      items: [],
    });
    const items = [
      submitted({ Email: 'Pat@X.co', 'Contact Name': 'Pat' }),
      submitted({ Email: 'other@x.co' }),
      submitted({ Email: ' pat@x.co', Interests: ['Use Podling'] }),
    ];
    const results = await upsert(client, mergeByEmail(items), QUEUED_UPSERT, { now: () => AT });
    const made = (key: string) => ({
      'Email Key': key,
      'Page Source': 'home',
      'Created At': '2026-11-24T06:00:00.000Z',
      'Last Updated': '2026-11-24T06:00:00.000Z',
    });
    expect(results.map(({ email, outcome }) => `${email} ${outcome}`)).toEqual([
      'pat@x.co created',
      'other@x.co created',
    ]);
    expect(requests).toEqual([
      { kind: 'find', emails: ['pat@x.co', 'other@x.co'] },
      {
        kind: 'create',
        records: [
          {
            Email: ' pat@x.co',
            'Contact Name': 'Pat',
            Interests: ['Use Podling'],
            ...made('pat@x.co'),
          },
          { Email: 'other@x.co', ...made('other@x.co') },
        ],
      },
    ]);
  });

  it('updates the stored record of an email (matched trimmed, in any case) with the update cells', async () => {
    const { requests, client } = fakeClient([{ id: 'recOld', email: ' Old@X.co ' }]);
    const [result] = await upsert(client, byEmail([{ Email: 'old@x.co' }]), CELLS, {
      now: () => AT,
    });
    expect(result).toMatchObject({ outcome: 'updated', id: 'recOld' });
    expect(requests[1]).toEqual({
      kind: 'update',
      records: [{ id: 'recOld', fields: { Email: 'old@x.co', 'Last Updated': '2026-11-24T06:00:00.000Z' } }],
    });
  });

  it('looks up every email at once (the client makes the formulas) and writes 10 records a request, creates before updates', async () => {
    const stored = Array.from({ length: 12 }, (_, i) => ({ id: `rec${i}`, email: `n${i}@x.co` }));
    const { requests, client } = fakeClient(stored);
    const items = Array.from({ length: 130 }, (_, i) => ({ Email: `n${i}@x.co` }));
    const results = await upsert(client, byEmail(items), CELLS);
    expect(
      requests.map(
        (request) =>
          `${request.kind} ${'emails' in request ? request.emails.length : request.records.length}`,
      ),
    ).toEqual([
      'find 130',
      ...Array.from({ length: 11 }, () => 'create 10'),
      'create 8',
      'update 10',
      'update 2',
    ]);
    expect(results.filter((result) => result.outcome === 'created')).toHaveLength(118);
    expect(results.filter((result) => result.outcome === 'updated')).toHaveLength(12);
  });

  it('a failed write fails only the records it carried', async () => {
    const refused = new AirtableError(422, 'UNKNOWN_FIELD_NAME', 'Unknown field name: "Notes"');
    const { client } = fakeClient([{ id: 'recOld', email: 'old@x.co' }], { 2: refused });
    const items = [...Array.from({ length: 11 }, (_, i) => ({ Email: `n${i}@x.co` })), { Email: 'old@x.co' }];
    const results = await upsert(client, byEmail(items), CELLS);
    expect(results.filter((result) => result.outcome === 'failed').map((result) => result.email)).toEqual(
      Array.from({ length: 10 }, (_, i) => `n${i}@x.co`),
    );
    expect(results.filter((result) => result.outcome !== 'failed').map((result) => result.email)).toEqual([
      'n10@x.co',
      'old@x.co',
    ]);
  });

  it('for submissions: the spec’s default interest on a create only, Created At kept on an update', async () => {
    const signUp = (email: string): Queued => ({
      submission: {
        table: 'Waitlist',
        email,
        acceptedAt: '2026-11-24T05:59:00Z',
        cells: { Email: email, 'Page Source': 'home' },
        defaults: { Interests: ['General Waitlist'] },
      },
      items: [],
    });
    const { requests, client } = fakeClient([{ id: 'recOld', email: 'old@x.co' }]);
    await upsert(client, mergeByEmail([signUp('old@x.co'), signUp('new@x.co')]), QUEUED_UPSERT, {
      now: () => AT,
    });
    const [, create, update] = requests;
    expect(create?.kind === 'create' && create.records[0]).toMatchObject({
      Interests: ['General Waitlist'],
      'Created At': '2026-11-24T06:00:00.000Z',
      'Last Updated': '2026-11-24T06:00:00.000Z',
      'Email Key': 'new@x.co',
    });
    const fields = update?.kind === 'update' ? update.records[0]?.fields : undefined;
    expect(fields).toEqual({
      Email: 'old@x.co',
      'Email Key': 'old@x.co',
      'Page Source': 'home',
      'Last Updated': '2026-11-24T06:00:00.000Z',
    });
  });

  it('writes creates and updates of records stored with their key together, 10 a request', async () => {
    const signUp = (email: string): Queued => ({
      submission: { table: 'Waitlist', email, acceptedAt: '2026-11-24T05:59:00Z', cells: { Email: email } },
      items: [],
    });
    const stored = Array.from({ length: 5 }, (_, i) => ({ id: `rec${i}`, email: `s${i}@x.co`, keyed: true }));
    const { requests, client } = fakeClient(stored);
    const items = [
      ...Array.from({ length: 15 }, (_, i) => `n${i}@x.co`),
      ...stored.map(({ email }) => email),
    ];
    const results = await upsert(client, mergeByEmail(items.map(signUp)), QUEUED_UPSERT, {
      now: () => AT,
    });
    // One lookup and two writes on the Email Key for 20 records, not three (10 + 5 creates, 5 updates).
    expect(
      requests.map(
        (request) =>
          `${request.kind} ${'emails' in request ? request.emails.length : request.records.length}`,
      ),
    ).toEqual(['find 20', 'create 10', 'create 10']);
    expect(results.flatMap((result) => (result.outcome === 'updated' ? [result.id] : []))).toEqual(
      stored.map(({ id }) => id),
    );
  });

  it('sends every write at once, and tells each write’s results as it answers, in the items’ order', async () => {
    const sent: number[] = [];
    const answers: (() => void)[] = [];
    const client = {
      findByEmails: async () => new Map(),
      upsert: (_table: string, records: readonly Cells[]) => {
        sent.push(records.length);
        return new Promise<StoredRecord[]>((resolve) => {
          answers.push(() => resolve(records.map((fields, i) => ({ id: `rec${sent.length}x${i}`, fields }))));
        });
      },
    } as unknown as AirtableClient;
    const told: string[][] = [];
    const items = Array.from({ length: 25 }, (_, i) => ({ Email: `n${i}@x.co` }));
    const upserted = upsert(client, byEmail(items), CELLS, {
      onWritten: (results) => void told.push(results.map((result) => result.email)),
    });
    // All three writes are out before any has answered.
    await vi.waitFor(() => expect(sent).toEqual([10, 10, 5]));
    answers[1]?.();
    answers[2]?.();
    await Promise.resolve();
    expect(told.flat()).toEqual([]); // the first write's records come first
    answers[0]?.();
    await upserted;
    expect(told.map((part) => part.length)).toEqual([0, 10, 10, 5]); // the held ones (none), then each write
    expect(told.flat()).toEqual(items.map((item) => item.Email));
  });
});
