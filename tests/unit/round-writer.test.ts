// @vitest-environment node
import { AIRTABLE_REQUESTS_PER_SECOND, createPacer, RATE_WINDOW_MS } from '#src/server/airtable/pacer.ts';
import { createRoundWriter } from '#src/server/desk/round-writer.ts';
import { mergeByEmail } from '#src/server/desk/submission-upsert.ts';
import { type Submission } from '#src/lib/forms/submission.ts';
import type { DeadLetterBody } from '#src/server/queues/dead-letters.ts';
import { roundItem as message, writeRound } from './support/round-item.ts';
import { timedClock } from './support/timed-clock.ts';

const ENV = {
  AIRTABLE_API_KEY: 'patServer',
  AIRTABLE_BASE_ID: 'appBase',
  AIRTABLE_ENDPOINT_URL: 'https://airtable.test',
};

function waitlist(
  email: string,
  acceptedAt: string,
  cells: Record<string, string | string[]> = {},
): Submission {
  return {
    table: 'Waitlist',
    email,
    acceptedAt,
    cells: { Email: email, Interests: ['Use Podling'], ...cells },
  };
}

interface Call {
  method: string;
  url: string;
  body: {
    records?: { id?: string; fields: Record<string, unknown> }[];
    filterByFormula?: string;
    performUpsert?: { fieldsToMergeOn: string[] };
  };
}

/** Airtable stand-in: a table of existing records, and an optional answer per call number. */
function fakeAirtable(
  existing: { id: string; email: string }[] = [],
  answers: Record<number, () => Response> = {},
) {
  const calls: Call[] = [];
  const fetchStub: typeof fetch = async (input, init) => {
    const body = JSON.parse(String(init?.body ?? '{}')) as Call['body'];
    calls.push({ method: init?.method ?? 'GET', url: String(input), body });
    const special = answers[calls.length];
    if (special) return special();
    if (String(input).endsWith('/listRecords')) {
      const records = existing
        .filter((record) => body.filterByFormula?.includes(`'${record.email}'`))
        .map((record) => ({ id: record.id, fields: { Email: record.email } }));
      return Response.json({ records });
    }
    return Response.json({
      records: (body.records ?? []).map((record, i) => ({
        id: record.id ?? `recNew${calls.length}x${i}`,
        fields: record.fields,
      })),
    });
  };
  return { calls, fetch: fetchStub };
}

const writerWith = (airtable: ReturnType<typeof fakeAirtable>, deadLetters: Submission[] = []) => ({
  writer: createRoundWriter(ENV, {
    fetch: airtable.fetch,
    pacer: createPacer({ perSecond: 1000 }),
    log: () => undefined,
  }),
  keep: (letter: DeadLetterBody) => {
    if ('submission' in letter) deadLetters.push(letter.submission);
  },
});
/** A round written by `writerWith`, its dead letters kept. */
const written = (
  { writer, keep }: ReturnType<typeof writerWith>,
  entries: readonly ReturnType<typeof message>[],
) => writeRound(writer, entries, keep);

describe('round writer', () => {
  it('merges submissions for one email: the later one wins, earlier cells it lacks are kept', () => {
    const { msg: a } = message(null);
    const { msg: b } = message(null);
    const merged = mergeByEmail([
      { submission: waitlist('p@x.co', '2026-11-23T10:00:00Z', { 'Contact Name': 'Pat' }), items: [a] },
      {
        submission: waitlist('P@x.co', '2026-11-23T10:00:01Z', { Interests: ['Invest in Podling'] }),
        items: [b],
      },
    ]);
    expect(merged).toHaveLength(1);
    expect(merged[0]?.email).toBe('p@x.co');
    expect(merged[0]?.item.submission.cells).toEqual({
      Email: 'P@x.co',
      Interests: ['Invest in Podling'],
      'Contact Name': 'Pat',
    });
    expect(merged[0]?.item.items).toEqual([a, b]);
  });

  it('merges away an earlier Other text when a later choice of use cases has no Other item', () => {
    const { msg: a } = message(null);
    const { msg: b } = message(null);
    const quote = (acceptedAt: string, cells: Record<string, string | string[]>): Submission => ({
      table: 'School Quotes',
      email: 'q@school.test',
      acceptedAt,
      cells: { Email: 'q@school.test', ...cells },
    });
    const other = quote('2026-11-23T10:00:00Z', { 'Use Cases': ['Other: Choir'], 'Other Use Case': 'Choir' });
    const merge = (later: Submission) =>
      mergeByEmail([
        { submission: other, items: [a] },
        { submission: later, items: [b] },
      ])[0]?.item.submission.cells;
    expect(merge(quote('2026-11-23T10:00:01Z', { 'Use Cases': ['Support Learners'] }))).toEqual({
      Email: 'q@school.test',
      'Use Cases': ['Support Learners'],
    });
    expect(merge(quote('2026-11-23T10:00:01Z', { 'Contact Name': 'Ada' }))).toMatchObject({
      'Other Use Case': 'Choir',
    });
  });

  it('merges in the order submissions were accepted, not the order the queue delivers them', async () => {
    const airtable = fakeAirtable();
    const later = message(waitlist('p@x.co', '2026-11-23T10:00:01Z', { Interests: ['Invest in Podling'] }));
    const earlier = message(waitlist('p@x.co', '2026-11-23T10:00:00Z', { Interests: ['Use Podling'] }));
    const report = await written(writerWith(airtable), [later, earlier]);
    expect(report).toMatchObject({ stored: 1, created: 1 });
    expect(airtable.calls).toHaveLength(2);
    expect(airtable.calls[1]?.body.records?.[0]?.fields.Interests).toEqual(['Invest in Podling']);
    expect(later.state.acked && earlier.state.acked).toBe(true);
  });

  it('an empty selection never undoes a chosen one: a default interest is merged only where none was chosen', () => {
    const { msg: a } = message(null);
    const { msg: b } = message(null);
    const chosen = waitlist('p@x.co', '2026-11-23T10:00:00Z', { Interests: ['Invest in Podling'] });
    const none: Submission = {
      table: 'Waitlist',
      email: 'p@x.co',
      acceptedAt: '2026-11-23T10:00:01Z',
      cells: { Email: 'p@x.co' },
      defaults: { Interests: ['General Waitlist'] },
    };
    const [merged] = mergeByEmail([
      { submission: chosen, items: [a] },
      { submission: none, items: [b] },
    ]);
    expect(merged?.item.submission.cells.Interests).toEqual(['Invest in Podling']);
    expect(merged?.item.submission.defaults).toBeUndefined();
    const [onlyDefaults] = mergeByEmail([{ submission: none, items: [b] }]);
    expect(onlyDefaults?.item.submission.defaults).toEqual({ Interests: ['General Waitlist'] });
  });

  it('writes a default interest on a new record only: a stored record keeps its interests', async () => {
    const airtable = fakeAirtable([{ id: 'recOld', email: 'old@x.co' }]);
    const none = (email: string): Submission => ({
      table: 'Waitlist',
      email,
      acceptedAt: '2026-11-23T10:00:00Z',
      cells: { Email: email, 'Page Source': 'home' },
      defaults: { Interests: ['General Waitlist'] },
    });
    const entries = [message(none('old@x.co')), message(none('new@x.co'))];
    await written(writerWith(airtable), entries);
    // A create is Airtable's upsert on the Email Key; an update names the record.
    const created = airtable.calls.find((call) => call.method === 'PATCH' && call.body.performUpsert);
    const updated = airtable.calls.find((call) => call.method === 'PATCH' && !call.body.performUpsert);
    expect(created?.body.records?.[0]?.fields.Interests).toEqual(['General Waitlist']);
    expect(updated?.body.records?.[0]?.fields).not.toHaveProperty('Interests');
    expect(entries.every((entry) => entry.state.acked)).toBe(true);
  });

  it('looks a batch up with one formula and writes 10 records per request', async () => {
    const airtable = fakeAirtable([{ id: 'recOld', email: 'old@x.co' }]);
    const entries = Array.from({ length: 24 }, (_, i) =>
      message(waitlist(`n${i}@x.co`, `2026-11-23T10:00:${String(i).padStart(2, '0')}Z`)),
    );
    const repeat = message(waitlist('old@x.co', '2026-11-23T10:01:00Z'));
    const report = await written(writerWith(airtable), [...entries, repeat]);

    expect(airtable.calls.map((call) => `${call.method} ${call.url.split('/').pop()}`)).toEqual([
      'POST listRecords',
      'PATCH Waitlist',
      'PATCH Waitlist',
      'PATCH Waitlist',
      'PATCH Waitlist',
    ]);
    expect(airtable.calls.slice(1, 4).map((call) => call.body.performUpsert)).toEqual(
      Array(3).fill({ fieldsToMergeOn: ['Email Key'] }),
    );
    expect(airtable.calls[4]?.body.performUpsert).toBeUndefined();
    expect(airtable.calls[0]?.body.filterByFormula).toMatch(/^SWITCH\(/);
    expect(airtable.calls.slice(1, 4).map((call) => call.body.records?.length)).toEqual([10, 10, 4]);
    const created = airtable.calls[1]?.body.records?.[0]?.fields;
    expect(created?.['Created At']).toBe(created?.['Last Updated']);
    const updated = airtable.calls[4]?.body.records?.[0];
    expect(updated?.id).toBe('recOld');
    expect(updated?.fields['Created At']).toBeUndefined();
    expect(report).toMatchObject({ stored: 25, created: 24, updated: 1, retried: 0 });
    expect([...entries, repeat].every((entry) => entry.state.acked)).toBe(true);
  });

  it('paces its own requests through the pacer: never more than 5 start in one second, each 200 ms apart or more', async () => {
    // A virtual clock: the pacer's waits move it, so the request starts are the writer's own doing.
    const clock = timedClock();
    const starts: number[] = [];
    const airtable = fakeAirtable();
    const writer = createRoundWriter(ENV, {
      fetch: (input, init) => {
        starts.push(clock.now());
        return airtable.fetch(input, init);
      },
      pacer: createPacer({ now: clock.now, sleep: clock.sleep }),
      log: () => undefined,
    });
    const entries = Array.from({ length: 100 }, (_, i) =>
      message(waitlist(`pace${i}@x.co`, '2026-11-23T10:00:00Z')),
    );
    const round = writeRound(writer, entries, () => undefined);
    await clock.runUntil(60_000);
    const report = await round;

    expect(report).toMatchObject({ stored: 100, created: 100 });
    expect(starts).toHaveLength(11); // one lookup, ten writes of ten
    const busiest = Math.max(
      ...starts.map((start) => starts.filter((t) => t >= start && t < start + RATE_WINDOW_MS).length),
    );
    expect(busiest).toBe(AIRTABLE_REQUESTS_PER_SECOND);
    for (let i = 1; i < starts.length; i += 1)
      expect((starts[i] ?? 0) - (starts[i - 1] ?? 0)).toBeGreaterThanOrEqual(200);
    // No write waits for another's answer: the ten go one gap apart, 2.1 s in all.
    expect((starts.at(-1) ?? 0) - (starts[1] ?? 0)).toBeLessThan(9 * 250);
  });

  it('retries on a dropped connection; the retry’s lookup then finds the record, so it updates', async () => {
    const airtable = fakeAirtable([], {
      2: () => {
        throw new TypeError('socket hang up');
      },
    });
    const first = message(waitlist('drop@x.co', '2026-11-23T10:00:00Z'));
    const report = await written(writerWith(airtable), [first]);
    expect(report.retried).toBe(1);
    expect(first.state.acked).toBe(false);
    expect(first.state.retried?.delaySeconds).toBeGreaterThan(0);
  });

  it('backs off 30 s on a 429', async () => {
    const airtable = fakeAirtable([], { 1: () => Response.json({ errors: [] }, { status: 429 }) });
    const entry = message(waitlist('busy@x.co', '2026-11-23T10:00:00Z'));
    await written(writerWith(airtable), [entry]);
    expect(entry.state.retried).toEqual({ delaySeconds: 30 });
  });

  it('a failed lookup writes nothing (a create could double a stored record) and retries every email', async () => {
    const airtable = fakeAirtable([], { 1: () => Response.json({ errors: [] }, { status: 429 }) });
    const entries = ['a@x.co', 'b@x.co'].map((email) => message(waitlist(email, '2026-11-23T10:00:00Z')));
    const report = await written(writerWith(airtable), entries);
    expect(report).toMatchObject({ stored: 0, retried: 2 });
    expect(entries.map((entry) => entry.state.retried)).toEqual([{ delaySeconds: 30 }, { delaySeconds: 30 }]);
    expect(airtable.calls.map((call) => call.url.split('/').pop())).toEqual(['listRecords']);
  });

  it('finds the one bad record of a failing write and dead-letters only it', async () => {
    const airtable = fakeAirtable();
    const inner = airtable.fetch;
    airtable.fetch = async (input, init) => {
      const body = String(init?.body ?? '');
      if (init?.method === 'PATCH' && body.includes('performUpsert') && body.includes('bad@x.co'))
        return Response.json(
          { error: { type: 'UNKNOWN_FIELD_NAME', message: 'Unknown field name: "Notes"' } },
          { status: 422 },
        );
      return inner(input, init);
    };
    const deadLetters: Submission[] = [];
    const good = message(waitlist('good@x.co', '2026-11-23T10:00:00Z'));
    const bad = message(waitlist('bad@x.co', '2026-11-23T10:00:01Z'));
    const report = await written(writerWith(airtable, deadLetters), [good, bad]);
    expect(deadLetters.map((letter) => letter.email)).toEqual(['bad@x.co']);
    expect(good.state.acked && bad.state.acked).toBe(true);
    expect(report).toMatchObject({ stored: 1, deadLettered: 1 });
  });

  it('dead-letters (and logs) a message that is not a submission rather than retrying it forever', async () => {
    const airtable = fakeAirtable();
    const letters: DeadLetterBody[] = [];
    const logs: string[] = [];
    const junk = message({ hello: 'world' });
    const report = await writeRound(
      createRoundWriter(ENV, {
        fetch: airtable.fetch,
        pacer: createPacer({ perSecond: 1000 }),
        log: (line) => logs.push(line),
      }),
      [junk],
      (letter) => void letters.push(letter),
    );
    expect(junk.state.acked).toBe(true);
    expect(letters).toEqual([{ unreadable: { hello: 'world' } }]);
    expect(logs).toEqual([expect.stringMatching(/not a submission; sent to dead letters$/)]);
    expect(report.deadLettered).toBe(1);
    expect(airtable.calls).toHaveLength(0);
  });

  it('dead-letters (and logs) a submission for a table no form stores, never acknowledging it unwritten', async () => {
    const airtable = fakeAirtable();
    const letters: DeadLetterBody[] = [];
    const logs: string[] = [];
    const stray = { ...waitlist('stray@x.co', '2026-11-23T10:00:00Z'), table: 'Not A Form' };
    const known = message(waitlist('known@x.co', '2026-11-23T10:00:01Z'));
    const unknown = message(stray);
    const report = await writeRound(
      createRoundWriter(ENV, {
        fetch: airtable.fetch,
        pacer: createPacer({ perSecond: 1000 }),
        log: (line) => logs.push(line),
      }),
      [unknown, known],
      (letter) => void letters.push(letter),
    );
    expect(letters).toEqual([{ submission: stray }]);
    expect(logs).toEqual([
      "Airtable writer: a submission for table 'Not A Form', which no form of this Worker stores; sent to dead letters",
    ]);
    expect(unknown.state.acked && known.state.acked).toBe(true);
    expect(report).toMatchObject({ stored: 1, deadLettered: 1 });
    expect(airtable.calls.some((call) => call.url.includes(encodeURIComponent('Not A Form')))).toBe(false);
  });

  it('without a dead-letter store, retries a message no form knows, so the queue moves it to its dead-letter queue', async () => {
    const unknown = message({ ...waitlist('stray@x.co', '2026-11-23T10:00:00Z'), table: 'Not A Form' });
    await writeRound(
      createRoundWriter(ENV, {
        fetch: fakeAirtable().fetch,
        pacer: createPacer({ perSecond: 1000 }),
        log: () => undefined,
      }),
      [unknown],
    );
    expect(unknown.state.acked).toBe(false);
    expect(unknown.state.retried?.delaySeconds).toBeGreaterThan(0);
  });
});
