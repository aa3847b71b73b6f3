/** The Airtable desk's test fixtures: submissions, a Durable Object's storage in memory, Airtable's stand-in. */
import type { DeskState } from '#src/server/desk/backlog.ts';
import type { Submission } from '#src/lib/forms/submission.ts';
import type { DeadLetter } from '#src/server/queues/dead-letters.ts';

export const ENV = {
  AIRTABLE_API_KEY: 'patServer',
  AIRTABLE_BASE_ID: 'appBase',
  AIRTABLE_ENDPOINT_URL: 'https://airtable.test',
};

export const signUp = (email: string, name = 'A'): Submission => ({
  table: 'Waitlist',
  email,
  acceptedAt: new Date(0).toISOString(),
  cells: { Email: email, 'Parent Name': name, Interests: ['Use Podling'] },
});
export const quote = (email: string): Submission => ({
  table: 'School Quotes',
  email,
  acceptedAt: new Date(0).toISOString(),
  cells: { 'Contact Email': email, 'School Name': 'Oak School', 'Contact Name': 'Ms Oak' },
});

/** A Durable Object's storage in memory, and the alarm it was asked for. */
export function memoryState() {
  const data = new Map<string, unknown>();
  let alarm: number | null = null;
  const state: DeskState = {
    storage: {
      get: async <T>(key: string) => data.get(key) as T | undefined,
      put: async (entries) => {
        for (const [key, value] of Object.entries(entries)) data.set(key, structuredClone(value));
      },
      delete: async (keys) => keys.filter((key) => data.delete(key)).length,
      list: async <T>({ prefix }: { prefix: string }) =>
        new Map([...data].filter(([key]) => key.startsWith(prefix)).sort() as [string, T][]),
      setAlarm: async (at) => void (alarm = at),
    },
    blockConcurrencyWhile: (callback) => callback(),
  };
  return {
    state,
    data,
    alarm: () => alarm,
    items: () => [...data.keys()].filter((key) => key.startsWith('q:')),
  };
}

interface Call {
  kind: 'lookup' | 'write';
  table: string;
  records: number;
}

/** Airtable: every address new; `failWrites` answers that many writes 503, a write holding `refused` 422. */
export function airtable(failWrites = 0, refused?: string) {
  const calls: Call[] = [];
  const stored = new Map<string, number>();
  let failures = failWrites;
  const fetchStub: typeof fetch = async (input, init) => {
    const table = decodeURIComponent(String(input).split('/')[5] ?? '');
    const body = JSON.parse(String(init?.body ?? '{}')) as {
      records?: { fields: Record<string, unknown> }[];
    };
    if (String(input).endsWith('/listRecords')) {
      calls.push({ kind: 'lookup', table, records: 0 });
      return Response.json({ records: [] });
    }
    calls.push({ kind: 'write', table, records: body.records?.length ?? 0 });
    if (failures > 0) {
      failures -= 1;
      return Response.json({ error: 'SERVER_ERROR' }, { status: 503 });
    }
    if (refused && body.records?.some((record) => record.fields['Email Key'] === refused))
      return Response.json({ error: { type: 'UNKNOWN_FIELD_NAME', message: 'x' } }, { status: 422 });
    for (const record of body.records ?? []) {
      const key = `${table}:${String(record.fields['Email Key'])}`;
      stored.set(key, (stored.get(key) ?? 0) + 1);
    }
    return Response.json({
      records: (body.records ?? []).map((record, i) => ({ id: `rec${i}`, fields: record.fields })),
    });
  };
  return { calls, stored, fetch: fetchStub };
}

/** A dead-letter store keeping what is put into `letters`. */
export const letterStore = (letters: DeadLetter[]) => ({
  put: async (_key: string, value: string) => void letters.push(JSON.parse(value) as DeadLetter),
  get: async () => null,
  delete: async () => undefined,
  list: async () => ({ keys: [], list_complete: true }),
});

export const accepted = (bodies: unknown[]) => bodies.map((body, i) => ({ id: `id${i}`, body }));
