// @vitest-environment node
/**
 * The privacy policy's promises against the emulator, through the owner's commands
 * (`npm run privacy:retention | privacy:erase | privacy:export`, scripts/launch-kit/privacy.ts)
 * and the shared module (src/server/privacy/policy.ts) over the server's one Airtable client.
 *
 * The policy clock is pinned (`now`) and every record is seeded relative to it; the formula
 * sent to Airtable carries the cutoff as a literal, so the emulator's own clock never enters.
 * Requests are bounded on the client's clock, so the pinned date never meets the real one.
 */
import { describe, expect, it } from 'vitest';
import { AIRTABLE_SCHEMA } from '#src/lib/airtable/schema.ts';
import { createAirtableClient } from '#src/server/airtable/client.ts';
import { createPacer } from '#src/server/airtable/pacer.ts';
import { main as privacy } from '#scripts/launch-kit/privacy.ts';
import { applyRetention, eraseEmail, monthsBefore, retentionCutoffs } from '#src/server/privacy/policy.ts';
import {
  type Emulator,
  runPrivacyCommand,
  storedEmails as emails,
  useEmulator,
} from '#tests/integration/support/emulator.ts';

const WAITLIST = AIRTABLE_SCHEMA.waitlist.name;
const QUOTES = AIRTABLE_SCHEMA.quote.name;
/** Any fixed moment works: the suite never compares it with the real clock. */
const NOW = Date.UTC(2026, 10, 23, 9, 30);
const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const monthsAgo = (months: number, plusDays = 0) =>
  iso(monthsBefore(new Date(NOW), months).getTime() - plusDays * DAY_MS);

/** Runs one command with the pinned clock; resolves with its exit code and output lines. */
const run = (emulator: Emulator, ...argv: string[]) => runPrivacyCommand(emulator, NOW, ...argv);

/** The cases, relative to NOW. */
function seedRetentionCases(emulator: Emulator) {
  const quote = { 'Contact Name': 'Sam', 'School Name': 'Hill School', 'Use Cases': ['Support Learners'] };
  emulator.seed(WAITLIST, { Email: 'm25@x.co', 'Last Updated': monthsAgo(25), 'Created At': monthsAgo(30) });
  emulator.seed(WAITLIST, {
    Email: 'm24d2@x.co',
    'Last Updated': monthsAgo(24, 2),
    'Created At': monthsAgo(26),
  });
  emulator.seed(WAITLIST, { Email: 'm23@x.co', 'Last Updated': monthsAgo(23), 'Created At': monthsAgo(40) });
  emulator.seed(WAITLIST, {
    Email: 'd1@x.co',
    'Last Updated': iso(NOW - DAY_MS),
    'Created At': iso(NOW - DAY_MS),
  });
  // Exactly 24 calendar months: not more than 24 months ago, so kept.
  emulator.seed(WAITLIST, { Email: 'exact@x.co', 'Last Updated': monthsAgo(24) });
  // No Last Updated: Created At decides.
  emulator.seed(QUOTES, { ...quote, Email: 'created-old@x.co', 'Created At': monthsAgo(27) });
  emulator.seed(QUOTES, { ...quote, Email: 'created-new@x.co', 'Created At': monthsAgo(2) });
  // Neither: the record's own creation time decides.
  emulator.seed(WAITLIST, { Email: 'bare-old@x.co' }, monthsAgo(30));
  emulator.seed(WAITLIST, { Email: 'bare-new@x.co' }, monthsAgo(1));
  // A recent Last Updated keeps an old record.
  emulator.seed(QUOTES, {
    ...quote,
    Email: 'renewed@x.co',
    'Created At': monthsAgo(50),
    'Last Updated': monthsAgo(3),
  });
}

const EXPIRED = {
  [WAITLIST]: ['bare-old@x.co', 'm24d2@x.co', 'm25@x.co'],
  [QUOTES]: ['created-old@x.co'],
};
const KEPT = {
  [WAITLIST]: ['bare-new@x.co', 'd1@x.co', 'exact@x.co', 'm23@x.co'],
  [QUOTES]: ['created-new@x.co', 'renewed@x.co'],
};

describe('the retention cutoff', () => {
  it('is 24 calendar months before now, clamped to the month’s end', () => {
    expect(retentionCutoffs(new Date('2026-11-23T09:30:00.000Z')).months.toISOString()).toBe(
      '2024-11-23T09:30:00.000Z',
    );
    expect(retentionCutoffs(new Date('2028-02-29T00:00:00.000Z')).months.toISOString()).toBe(
      '2026-02-28T00:00:00.000Z',
    );
    expect(retentionCutoffs(new Date('2026-03-31T12:00:00.000Z')).months.toISOString()).toBe(
      '2024-03-31T12:00:00.000Z',
    );
    expect(monthsBefore(new Date('2026-03-31T00:00:00.000Z'), 1).toISOString()).toBe(
      '2026-02-28T00:00:00.000Z',
    );
  });
});

describe('npm run privacy:retention', () => {
  const emulator = useEmulator();

  it('--dry-run lists exactly the expired records (table, email, last activity) and deletes nothing', async () => {
    seedRetentionCases(emulator());
    const before = emulator().records(WAITLIST).length + emulator().records(QUOTES).length;
    const { code, out } = await run(emulator(), 'retention', '--dry-run');
    expect(code).toBe(0);
    expect(out[0]).toMatch(/^TABLE\s+EMAIL\s+LAST ACTIVITY\s+RULE$/);
    const rows = out.slice(1, -2).map((line) => line.split(/\s{2,}/));
    expect(rows.map(([table, email]) => `${table}:${email}`).sort()).toEqual(
      [
        ...EXPIRED[WAITLIST].map((e) => `${WAITLIST}:${e}`),
        ...EXPIRED[QUOTES].map((e) => `${QUOTES}:${e}`),
      ].sort(),
    );
    expect(rows.find(([, email]) => email === 'm24d2@x.co')?.[2]).toBe(monthsAgo(24, 2));
    expect(rows.find(([, email]) => email === 'bare-old@x.co')?.[2]).toBe(monthsAgo(30));
    expect(new Set(rows.map((row) => row[3]))).toEqual(new Set(['24 months']));
    expect(out.at(-2)).toMatch(
      /^Retention \(24 months, last activity before 2024-11-23T09:30:00\.000Z; unconfirmed sign-ups 30 days, before 2026-10-24T09:30:00\.000Z\): would delete 3 in Waitlist, 1 in School Quotes \(2 requests to Airtable\)$/,
    );
    expect(out.at(-1)).toBe('Dry run: nothing was deleted.');
    expect(emulator().records(WAITLIST).length + emulator().records(QUOTES).length).toBe(before);
    expect(
      emulator()
        .requests()
        .filter((request) => request.method === 'DELETE'),
    ).toEqual([]);
  });

  it('deletes exactly the expired records, prints how many per table, and a second run deletes nothing', async () => {
    seedRetentionCases(emulator());
    const first = await run(emulator(), 'retention');
    expect(first.code).toBe(0);
    expect(first.out).toEqual([
      expect.stringMatching(/: deleted 3 in Waitlist, 1 in School Quotes \(4 requests to Airtable\)$/),
    ]);
    expect(emails(emulator(), WAITLIST)).toEqual(KEPT[WAITLIST]);
    expect(emails(emulator(), QUOTES)).toEqual(KEPT[QUOTES]);
    // The output never carries an email.
    expect(first.out.join('\n')).not.toContain('@');

    const second = await run(emulator(), 'retention');
    expect(second.out).toEqual([
      expect.stringMatching(/: deleted 0 in Waitlist, 0 in School Quotes \(2 requests to Airtable\)$/),
    ]);
    expect(emails(emulator(), WAITLIST)).toEqual(KEPT[WAITLIST]);
  });

  it('pages through more than 100 expired records and deletes them all, 10 per request, without a 429', async () => {
    emulator().setConfig({ rateLimitPerSecond: 5, rateLimitPenaltyMs: 30_000 });
    for (let i = 0; i < 130; i += 1)
      emulator().seed(i % 3 ? WAITLIST : QUOTES, { Email: `old${i}@x.co`, 'Last Updated': monthsAgo(25) });
    for (let i = 0; i < 5; i += 1)
      emulator().seed(WAITLIST, { Email: `new${i}@x.co`, 'Last Updated': monthsAgo(1) });
    const { code, out } = await run(emulator(), 'retention');
    expect(code).toBe(0);
    expect(out[0]).toMatch(/deleted 86 in Waitlist, 44 in School Quotes/);
    expect(emulator().records(QUOTES)).toHaveLength(0);
    expect(emails(emulator(), WAITLIST)).toEqual([
      'new0@x.co',
      'new1@x.co',
      'new2@x.co',
      'new3@x.co',
      'new4@x.co',
    ]);
    const requests = emulator().requests();
    expect(requests.filter((request) => request.status === 429)).toEqual([]);
    // Waitlist: 1 page (86 ≤ 100) + 9 deletes; quotes: 1 page + 5 deletes.
    expect(requests.filter((request) => request.method === 'DELETE')).toHaveLength(14);
    expect(requests.filter((request) => request.method === 'POST')).toHaveLength(2);
  }, 30_000);

  it('retries a transient failure, and deletes one by one when a batch names a record already gone', async () => {
    for (let i = 0; i < 12; i += 1)
      emulator().seed(WAITLIST, { Email: `old${i}@x.co`, 'Last Updated': monthsAgo(25) });
    emulator().addFaults(
      { method: 'DELETE', status: 503, count: 1 },
      { method: 'DELETE', status: 404, type: 'NOT_FOUND', count: 1 },
    );
    const client = createAirtableClient(
      { token: emulator().apiKey, baseId: emulator().baseId, endpointUrl: emulator().url },
      { pacer: createPacer({ perSecond: 50 }), sleep: async () => undefined },
    );
    const report = await applyRetention({ client, now: () => NOW });
    expect(report.deleted).toEqual({ [WAITLIST]: 12, [QUOTES]: 0 });
    expect(emulator().records(WAITLIST)).toHaveLength(0);
  });

  it('stops at its time budget and leaves the rest for the next run', async () => {
    for (let i = 0; i < 30; i += 1)
      emulator().seed(WAITLIST, { Email: `old${i}@x.co`, 'Last Updated': monthsAgo(25) });
    const client = createAirtableClient(
      { token: emulator().apiKey, baseId: emulator().baseId, endpointUrl: emulator().url },
      { pacer: createPacer({ perSecond: 50 }) },
    );
    const report = await applyRetention({ client, now: () => NOW, budgetMs: 0 });
    expect(report.deleted[WAITLIST]).toBe(0);
    expect(report.remaining[WAITLIST]).toBe(30);
    expect(emulator().records(WAITLIST)).toHaveLength(30);
  });
});

describe('npm run privacy:erase', () => {
  const emulator = useEmulator();

  it('deletes every record of the email in both tables, matched trimmed and in any case; others untouched', async () => {
    const quote = { 'Contact Name': 'Jane', 'School Name': 'Hill School' };
    const waitlist = emulator().seed(WAITLIST, { Email: 'jane.doe@school.example' });
    // A row someone typed into Airtable by hand, with capitals and spaces.
    const typed = emulator().seed(QUOTES, { ...quote, Email: ' Jane.Doe@School.example ' });
    emulator().seed(WAITLIST, { Email: 'jane.doe@school.example.org' });
    emulator().seed(WAITLIST, { Email: 'xjane.doe@school.example' });
    emulator().seed(QUOTES, { ...quote, Email: 'john@school.example' });

    const first = await run(emulator(), 'erase', '  JANE.Doe@School.EXAMPLE ');
    expect(first.code).toBe(0);
    expect(first.out).toEqual([
      `Deleted Waitlist record ${waitlist.id} (created ${waitlist.createdTime})`,
      `Deleted School Quotes record ${typed.id} (created ${typed.createdTime})`,
      expect.stringMatching(
        /^Erased jane\.doe@school\.example: 1 in Waitlist, 1 in School Quotes \(4 requests to Airtable\)\.$/,
      ),
      expect.stringContaining('SITE_URL and ADMIN_TOKEN'),
    ]);
    expect(emails(emulator(), WAITLIST)).toEqual(['jane.doe@school.example.org', 'xjane.doe@school.example']);
    expect(emails(emulator(), QUOTES)).toEqual(['john@school.example']);

    const second = await run(emulator(), 'erase', 'jane.doe@school.example');
    expect(second.code).toBe(0);
    expect(second.out[0]).toBe('Nothing found for jane.doe@school.example in Waitlist or School Quotes.');
  });

  it('erases more than one page and more than ten records of one email', async () => {
    for (let i = 0; i < 105; i += 1)
      emulator().seed(WAITLIST, { Email: 'many@x.co', 'Page Source': String(i) });
    emulator().seed(WAITLIST, { Email: 'other@x.co' });
    const client = createAirtableClient(
      { token: emulator().apiKey, baseId: emulator().baseId, endpointUrl: emulator().url },
      { pacer: createPacer({ perSecond: 50 }) },
    );
    expect(await eraseEmail(client, 'Many@X.co')).toHaveLength(105);
    expect(emails(emulator(), WAITLIST)).toEqual(['other@x.co']);
  });
});

describe('npm run privacy:export', () => {
  const emulator = useEmulator();

  it('prints every stored record of the email as JSON, with fields and times, and nothing of others', async () => {
    const signUp = emulator().seed(WAITLIST, {
      Email: 'parent@x.co',
      Interests: ['General Interest'],
      'Page Source': 'home',
      'Created At': monthsAgo(3),
      'Last Updated': monthsAgo(1),
    });
    const quote = emulator().seed(QUOTES, {
      Email: 'PARENT@x.co',
      'Contact Name': 'Pat',
      'School Name': 'Hill School',
      Role: 'Head',
      'Use Cases': ['Support Learners'],
      Status: 'New',
    });
    emulator().seed(WAITLIST, { Email: 'someone.else@x.co' });

    const { code, out, err } = await run(emulator(), 'export', ' Parent@X.co');
    expect(code).toBe(0);
    expect(JSON.parse(out.join('\n'))).toEqual({
      email: 'parent@x.co',
      exportedAt: iso(NOW),
      records: {
        [WAITLIST]: [{ id: signUp.id, createdTime: signUp.createdTime, fields: signUp.fields }],
        [QUOTES]: [{ id: quote.id, createdTime: quote.createdTime, fields: quote.fields }],
      },
    });
    expect(err).toEqual([expect.stringMatching(/^Exported 2 records of parent@x\.co/)]);
  });

  it('answers usage errors and missing settings with exit code 2, an Airtable refusal with 1', async () => {
    expect((await run(emulator(), 'export')).code).toBe(2);
    expect((await run(emulator(), 'erase', 'a@x.co', 'b@x.co')).code).toBe(2);
    expect((await run(emulator(), 'export', 'a@x.co', '--dry-run')).code).toBe(2);
    expect((await run(emulator(), 'nope')).code).toBe(2);
    const missing = await privacy(['retention'], {}, { out: () => undefined, err: () => undefined });
    expect(missing).toBe(2);
    const refused = await run(emulator(), 'retention', '--site-token', 'wrong');
    expect(refused.code).toBe(1);
    expect(refused.err[0]).toMatch(/^Airtable answered 401 AUTHENTICATION_REQUIRED/);
  });
});
