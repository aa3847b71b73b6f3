// @vitest-environment node
/// <reference types="vite/client" />
import fc from 'fast-check';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_ERRORS } from '#src/config/messages.ts';
import { addToWaitlist, submitQuoteRequest } from '#src/lib/forms/send-form.ts';
import { WAITLIST_FIELDS } from '#src/lib/airtable/schema.ts';
import { emailLookupFormula, normaliseEmail } from '#src/lib/forms/submission.ts';
import { type StorageOptions, upsertQuoteRequest, upsertWaitlistEntry } from '#src/lib/airtable/upsert.ts';
import type { QuotePosted } from '#src/lib/forms/forms.ts';
import { compileFormula } from '#scripts/airtable-emulator/formula.ts';
import { startEmulator } from '#scripts/airtable-emulator/emulator.ts';
import { type Emulator, storageOptions, useEmulator } from './support/emulator.ts';

const getEmulator = useEmulator();
let emulator: Emulator;
beforeEach(() => {
  emulator = getEmulator();
});

const storage = (overrides: StorageOptions = {}) => storageOptions(emulator, overrides);

/** A clock the test moves between writes, so Created At and Last Updated differ between them. */
function settableClock(start = Date.parse('2025-01-01T09:00:00.000Z')) {
  let at = start;
  const now = () => new Date(at);
  now.advance = (ms: number) => {
    at += ms;
  };
  return now;
}

const QUOTE: QuotePosted = {
  email: 'Head@School.org',
  contactName: 'Ada Lovelace',
  schoolName: 'St Mary Primary',
  role: 'Head teacher',
  useCases: ['support-learners', 'other'],
  otherUseCase: '   Podcasts for assemblies  ',
};

const apiRequests = () => emulator.requests().filter((request) => request.method !== 'OPTIONS');

describe('upsertQuoteRequest against the emulator', () => {
  it('creates a record with the exact fields, typecasting the Other option', async () => {
    const result = await upsertQuoteRequest(
      QUOTE,
      storage({ now: () => new Date('2025-01-01T09:00:00.000Z') }),
    );
    expect(result.created).toBe(true);
    const [record, ...others] = emulator.records('School Quotes');
    expect(others).toHaveLength(0);
    expect(record?.id).toBe(result.recordId);
    expect(record?.fields).toEqual({
      Email: 'head@school.org',
      'Contact Name': 'Ada Lovelace',
      'School Name': 'St Mary Primary',
      Role: 'Head teacher',
      'Use Cases': ['Support Learners', 'Other: Podcasts for assemblies'],
      'Other Use Case': 'Podcasts for assemblies',
      'Created At': '2025-01-01T09:00:00.000Z',
      'Last Updated': '2025-01-01T09:00:00.000Z',
      Status: 'New',
    });
    expect(apiRequests().map((r) => r.method)).toEqual(['GET', 'POST']);
  });

  it('updates by email in any case and with surrounding spaces, keeping Created At', async () => {
    const now = settableClock();
    const first = await upsertQuoteRequest(QUOTE, storage({ now }));
    now.advance(60_000);
    const second = await upsertQuoteRequest(
      {
        ...QUOTE,
        email: '  HEAD@school.ORG  ',
        role: 'Deputy head',
        useCases: ['practice-speaking'],
        otherUseCase: '',
      },
      storage({ now }),
    );
    expect(second).toEqual({ recordId: first.recordId, created: false });
    const records = emulator.records('School Quotes');
    expect(records).toHaveLength(1);
    expect(records[0]?.fields).toEqual({
      Email: 'head@school.org',
      'Contact Name': 'Ada Lovelace',
      'School Name': 'St Mary Primary',
      Role: 'Deputy head',
      'Use Cases': ['Practice Speaking'],
      'Created At': '2025-01-01T09:00:00.000Z',
      'Last Updated': '2025-01-01T09:01:00.000Z',
      Status: 'New',
    });
    expect(apiRequests().map((r) => r.method)).toEqual(['GET', 'POST', 'GET', 'PATCH']);
  });

  it('finds a hand-entered row (capitals, stray spaces) and resets its Status to New', async () => {
    const seeded = emulator.seed('School Quotes', {
      Email: ' Head@School.org ',
      Status: 'Contacted',
      'Created At': '2024-06-01T12:00:00.000Z',
    });
    const result = await upsertQuoteRequest(QUOTE, storage());
    expect(result).toEqual({ recordId: seeded.id, created: false });
    const [record] = emulator.records('School Quotes');
    expect(record?.fields).toMatchObject({
      Email: 'head@school.org',
      Status: 'New',
      'Created At': '2024-06-01T12:00:00.000Z',
    });
  });

  it('rejects an email without @ before any request', async () => {
    await expect(upsertQuoteRequest({ ...QUOTE, email: 'no-at-sign' }, storage())).rejects.toThrow(
      STORAGE_ERRORS.invalidEmailFormat,
    );
    await expect(upsertWaitlistEntry({ email: '' }, storage())).rejects.toThrow(
      STORAGE_ERRORS.invalidEmailFormat,
    );
    expect(emulator.requests()).toHaveLength(0);
  });
});

describe('upsertWaitlistEntry against the emulator', () => {
  it("stores the home form's default 'General Waitlist' on a new record, as the server does", async () => {
    await upsertWaitlistEntry({ email: 'parent@example.com' }, storage());
    const byEmail = Object.fromEntries(emulator.records('Waitlist').map((r) => [r.fields.Email, r.fields]));
    expect(byEmail['parent@example.com']?.Interests).toEqual(['General Waitlist']);
    // The default is not an option the form posts.
    await expect(
      upsertWaitlistEntry({ email: 'other@example.com', interests: ['General Waitlist'] }, storage()),
    ).rejects.toThrow(STORAGE_ERRORS.waitlistFailed);
  });

  it('updates the same entry and keeps details a later sign-up does not repeat', async () => {
    const now = settableClock();
    emulator.seed('Waitlist', {
      Email: 'teacher@school.org',
      Interests: ['Use Podling'],
      'School Name': 'St Mary',
      'Created At': '2025-01-01T09:00:00.000Z',
    });
    now.advance(60_000);
    const again = await upsertWaitlistEntry(
      { email: 'Teacher@School.org ', interests: ['partner', 'invest'] },
      storage({ now }),
    );
    expect(again.created).toBe(false);
    const records = emulator.records('Waitlist');
    expect(records).toHaveLength(1);
    expect(records[0]?.fields).toEqual({
      Email: 'teacher@school.org',
      Interests: ['Partner with Podling', 'Invest in Podling'],
      'School Name': 'St Mary',
      'Page Source': 'home',
      'Created At': '2025-01-01T09:00:00.000Z',
      'Last Updated': '2025-01-01T09:01:00.000Z',
    });
  });
});

describe('addToWaitlist and submitQuoteRequest', () => {
  it('answer success true when stored', async () => {
    await expect(addToWaitlist({ email: 'a@b.co', interests: [] }, storage())).resolves.toEqual({
      success: true,
    });
    expect(emulator.records('Waitlist')[0]?.fields).toMatchObject({
      Interests: ['General Waitlist'],
      'Page Source': 'home',
    });
    await expect(submitQuoteRequest(QUOTE, storage())).resolves.toEqual({ success: true });
  });

  it('never throw: they log and answer success false', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    emulator.addFaults({ status: 500, count: 2 });
    await expect(addToWaitlist({ email: 'a@b.co', interests: [] }, storage())).resolves.toEqual({
      success: false,
    });
    await expect(submitQuoteRequest(QUOTE, storage())).resolves.toEqual({ success: false });
    await expect(addToWaitlist({ email: 'not-an-email', interests: [] }, storage())).resolves.toEqual({
      success: false,
    });
    expect(consoleError).toHaveBeenCalledTimes(3);
  });
});

describe('error mapping over HTTP', () => {
  it.each([
    [401, STORAGE_ERRORS.invalidApiKey, STORAGE_ERRORS.invalidApiKey],
    [403, STORAGE_ERRORS.notAuthorized, STORAGE_ERRORS.notAuthorized],
    [404, STORAGE_ERRORS.quoteFailed, STORAGE_ERRORS.waitlistFailed],
    [413, STORAGE_ERRORS.quoteFailed, STORAGE_ERRORS.waitlistFailed],
    [422, STORAGE_ERRORS.quoteFailed, STORAGE_ERRORS.waitlistFailed],
    [429, STORAGE_ERRORS.quoteFailed, STORAGE_ERRORS.waitlistFailed],
    [500, STORAGE_ERRORS.quoteFailed, STORAGE_ERRORS.waitlistFailed],
    [503, STORAGE_ERRORS.quoteFailed, STORAGE_ERRORS.waitlistFailed],
  ])('maps a persistent %i to the spec message', async (status, quoteMessage, waitlistMessage) => {
    // A 429 that never stops is retried until the bound, so keep that bound short.
    const options = storage({ answerBoundMs: 400 });
    emulator.addFaults({ status, count: 1_000 });
    await expect(upsertQuoteRequest(QUOTE, options)).rejects.toThrow(quoteMessage);
    await expect(upsertWaitlistEntry({ email: 'a@b.co' }, options)).rejects.toThrow(waitlistMessage);
    expect(emulator.records('School Quotes')).toHaveLength(0);
  });

  it('maps a real authentication failure and a base the key cannot open', async () => {
    await expect(upsertQuoteRequest(QUOTE, storage({ config: { apiKey: 'patWrong' } }))).rejects.toThrow(
      STORAGE_ERRORS.invalidApiKey,
    );
    await expect(
      upsertWaitlistEntry({ email: 'a@b.co' }, storage({ config: { baseId: 'appSomeoneElse' } })),
    ).rejects.toThrow(STORAGE_ERRORS.notAuthorized);
  });

  it('maps a missing key to the configuration message without a request', async () => {
    await expect(upsertQuoteRequest(QUOTE, storage({ config: { apiKey: '' } }))).rejects.toThrow(
      STORAGE_ERRORS.invalidApiKey,
    );
    expect(emulator.requests()).toHaveLength(0);
  });

  it.each(['drop', 'invalid-json'] as const)('maps a %s answer to the generic message', async (kind) => {
    emulator.addFaults({ kind });
    await expect(upsertWaitlistEntry({ email: 'a@b.co' }, storage())).rejects.toThrow(
      STORAGE_ERRORS.waitlistFailed,
    );
  });

  it('maps a refused connection to the generic message', async () => {
    const gone = await startEmulator({ port: 0 });
    const endpointUrl = gone.url;
    await gone.close();
    await expect(upsertQuoteRequest(QUOTE, storage({ config: { endpointUrl } }))).rejects.toThrow(
      STORAGE_ERRORS.quoteFailed,
    );
  });

  it('keeps the original error as the cause', async () => {
    emulator.addFaults({ status: 503 });
    const error: unknown = await upsertQuoteRequest(QUOTE, storage()).catch((e: unknown) => e);
    expect((error as Error).cause).toMatchObject({ statusCode: 503, error: 'SERVICE_UNAVAILABLE' });
  });
});

describe('bounded waiting', () => {
  it('retries a burst of 429s and ends with exactly one record', async () => {
    emulator.addFaults({ status: 429, count: 4 });
    const result = await upsertQuoteRequest(QUOTE, storage());
    expect(result.created).toBe(true);
    expect(emulator.records('School Quotes')).toHaveLength(1);
    expect(apiRequests().filter((r) => r.status === 429)).toHaveLength(4);
  });

  it('re-runs the lookup when the write itself is rate limited, so a retry never duplicates', async () => {
    emulator.addFaults({ status: 429, count: 2, method: 'POST' });
    await upsertQuoteRequest(QUOTE, storage());
    emulator.addFaults({ status: 429, count: 2, method: 'PATCH' });
    const again = await upsertQuoteRequest({ ...QUOTE, email: 'HEAD@SCHOOL.ORG' }, storage());
    expect(again.created).toBe(false);
    expect(emulator.records('School Quotes')).toHaveLength(1);
    expect(apiRequests().map((r) => `${r.method} ${r.status}`)).toEqual([
      'GET 200',
      'POST 429',
      'GET 200',
      'POST 429',
      'GET 200',
      'POST 200',
      'GET 200',
      'PATCH 429',
      'GET 200',
      'PATCH 429',
      'GET 200',
      'PATCH 200',
    ]);
  });

  it("lives within Airtable's real rate limit (5 requests/s per base)", async () => {
    emulator.setConfig({ rateLimitPerSecond: 5 });
    const emails = Array.from({ length: 6 }, (_, i) => `parent${i}@example.com`);
    await Promise.all(
      emails.map((email) => upsertWaitlistEntry({ email }, storage({ answerBoundMs: 8_000 }))),
    );
    expect(emulator.records('Waitlist')).toHaveLength(6);
    expect(apiRequests().some((r) => r.status === 429)).toBe(true);
  });

  it('answers within the bound when the service hangs', async () => {
    emulator.addFaults({ kind: 'hang' });
    const started = Date.now();
    // The hang never ends: only the bound can answer the caller.
    const error = await upsertQuoteRequest(QUOTE, storage({ answerBoundMs: 500 })).catch((e: unknown) => e);
    expect(error).toMatchObject({
      message: STORAGE_ERRORS.quoteFailed,
      cause: { name: 'StorageTimeoutError' },
    });
    // Not before the bound (a slow machine can only make this later).
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
  });

  it('answers within the bound when a write hangs, and the next submit updates rather than duplicates', async () => {
    // The emulator stores the record after the caller has given up, like a slow real write.
    emulator.addFaults({ kind: 'delay', delayMs: 700, method: 'POST' });
    await expect(upsertWaitlistEntry({ email: 'a@b.co' }, storage({ answerBoundMs: 400 }))).rejects.toThrow(
      STORAGE_ERRORS.waitlistFailed,
    );
    // Answered while the write was still under way.
    expect(emulator.records('Waitlist')).toHaveLength(0);
    await vi.waitFor(() => expect(emulator.records('Waitlist')).toHaveLength(1), { timeout: 2_000 });
    const retry = await upsertWaitlistEntry({ email: 'A@B.co' }, storage());
    expect(retry.created).toBe(false);
    expect(emulator.records('Waitlist')).toHaveLength(1);
  });

  it('gives up on 429 before the bound rather than after it', async () => {
    emulator.addFaults({ status: 429, count: 1_000 });
    // The first wait (a fixed 2 s here) would overrun the 1.5 s bound: no wait, no second try.
    const error = await upsertQuoteRequest(
      QUOTE,
      storage({ answerBoundMs: 1_500, random: () => 1, retry: { initialDelayMs: 2_000, maxDelayMs: 2_000 } }),
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ message: STORAGE_ERRORS.quoteFailed });
    expect((error as Error).cause).not.toMatchObject({ name: 'StorageTimeoutError' });
    expect(apiRequests().map((request) => request.status)).toEqual([429]);
  });

  it('waits out a 429 when the wait fits in the bound, and stores', async () => {
    emulator.addFaults({ status: 429, count: 2 });
    const result = await upsertQuoteRequest(
      QUOTE,
      storage({ answerBoundMs: 8_000, random: () => 1, retry: { initialDelayMs: 50, maxDelayMs: 100 } }),
    );
    expect(result.created).toBe(true);
    expect(apiRequests().map((request) => request.status)).toEqual([429, 429, 200, 200]);
  });
});

describe('hostile emails', () => {
  const HOSTILE = [
    "x' OR '1'='1@evil.com",
    "a\\'@evil.com",
    'a\\@evil.com',
    "a\\\\') OR TRUE() OR ('@evil.com",
    '{Email}@evil.com',
    "') & ({Email}) & ('@evil.com",
    '"@evil.com',
    "'@evil.com",
    'line\nbreak@evil.com',
    'tab\t@evil.com',
    "victim@school.org' OR LOWER({Email})='victim@school.org",
  ];

  it('never break the lookup nor match another record', async () => {
    const victim = emulator.seed('Waitlist', { Email: 'victim@school.org', Interests: ['Use Podling'] });
    for (const email of HOSTILE) {
      const first = await upsertWaitlistEntry({ email }, storage());
      expect(first.created, email).toBe(true);
      const second = await upsertWaitlistEntry({ email: email.toUpperCase() }, storage());
      expect(second, email).toEqual({ recordId: first.recordId, created: false });
    }
    const records = emulator.records('Waitlist');
    expect(records).toHaveLength(HOSTILE.length + 1);
    expect(records.find((r) => r.id === victim.id)?.fields).toEqual(victim.fields);
    expect(new Set(records.map((r) => r.fields.Email))).toEqual(
      new Set(['victim@school.org', ...HOSTILE.map((email) => normaliseEmail(email))]),
    );
  });

  it('match exactly their own normalised address under any input (emulator formula engine)', () => {
    const fieldNames = Object.values(WAITLIST_FIELDS);
    const record = (email: string) => ({ id: 'rec1', createdTime: '', fields: { Email: email } });
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (typed, stored) => {
        const matches = compileFormula(emailLookupFormula(typed), fieldNames);
        expect(matches(record(stored))).toBe(normaliseEmail(stored) === normaliseEmail(typed));
        expect(matches(record(` ${typed.toUpperCase()} `))).toBe(
          normaliseEmail(typed.toUpperCase()) === normaliseEmail(typed),
        );
      }),
      { numRuns: 300 },
    );
  });
});
