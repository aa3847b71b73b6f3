// @vitest-environment node
/**
 * The Worker's Cron Trigger job (src/server/privacy/policy.ts) against the emulator, with an
 * in-memory dead-letter store: what it deletes, what it logs (counts, never emails), and the
 * dead letters it expires or erases (POST /api/dead-letters/erase).
 */
import { describe, expect, it } from 'vitest';
import { handleDeadLetterAdmin } from '#src/server/queues/dead-letter-admin.ts';
import { type DeadLetterStore, keepDeadLetter } from '#src/server/queues/dead-letters.ts';
import { monthsBefore } from '#src/server/privacy/policy.ts';
import { expireDeadLetters, runRetentionJob } from '#src/server/privacy/retention-job.ts';
import { createPacer } from '#src/server/airtable/pacer.ts';
import type { Submission } from '#src/lib/forms/submission.ts';
import { useEmulator } from '#tests/integration/support/emulator.ts';

const NOW = Date.UTC(2031, 0, 15, 3, 17);
const iso = (ms: number) => new Date(ms).toISOString();
const monthsAgo = (months: number) => iso(monthsBefore(new Date(NOW), months).getTime());
const ADMIN_TOKEN = 'a-test-admin-token-of-at-least-32-characters';

function memoryStore(): DeadLetterStore & { keys: () => string[] } {
  const map = new Map<string, string>();
  return {
    keys: () => [...map.keys()],
    put: async (key, value) => void map.set(key, value),
    get: async (key) => map.get(key) ?? null,
    delete: async (key) => void map.delete(key),
    list: async ({ prefix = '' } = {}) => ({
      keys: [...map.keys()].filter((key) => key.startsWith(prefix)).map((name) => ({ name })),
      list_complete: true,
    }),
  };
}

const submission = (email: string): Submission =>
  ({
    table: 'Waitlist',
    email,
    cells: { Email: email, Interests: ['General Interest'] },
    acceptedAt: iso(NOW),
  }) as unknown as Submission;

describe('the retention job (Cron Trigger)', () => {
  const emulator = useEmulator();

  it('deletes expired records and dead letters, and logs counts and requests, never an email', async () => {
    emulator().seed('Waitlist', { Email: 'gone@x.co', 'Last Updated': monthsAgo(25) });
    emulator().seed('Waitlist', { Email: 'kept@x.co', 'Last Updated': monthsAgo(2) });
    emulator().seed('School Quotes', { Email: 'gone.too@x.co', 'Created At': monthsAgo(36) });
    const letters = memoryStore();
    await keepDeadLetter(letters, {
      submission: submission('old.letter@x.co'),
      reason: 'x',
      failedAt: monthsAgo(25),
    });
    await keepDeadLetter(letters, {
      submission: submission('new.letter@x.co'),
      reason: 'x',
      failedAt: monthsAgo(1),
    });

    const lines: string[] = [];
    await runRetentionJob(
      {
        AIRTABLE_API_KEY: emulator().apiKey,
        AIRTABLE_BASE_ID: emulator().baseId,
        AIRTABLE_ENDPOINT_URL: emulator().url,
        DEAD_LETTERS: letters,
      },
      { pacer: createPacer({ perSecond: 50 }), now: () => NOW, log: (line) => lines.push(line) },
    );
    expect(
      emulator()
        .records('Waitlist')
        .map((record) => record.fields.Email),
    ).toEqual(['kept@x.co']);
    expect(emulator().records('School Quotes')).toEqual([]);
    expect(letters.keys()).toHaveLength(1);
    expect(lines).toEqual([
      `Retention (24 months, last activity before ${monthsAgo(24)}; unconfirmed sign-ups 30 days, before ${iso(NOW - 30 * 86_400_000)}): deleted 1 in Waitlist, 1 in School Quotes; 1 dead letters; 4 Airtable requests`,
    ]);
  });

  it('does nothing without the Airtable settings, and fails visibly (no email logged) when Airtable refuses', async () => {
    const lines: string[] = [];
    await runRetentionJob({}, { pacer: createPacer(), log: (line) => lines.push(line) });
    expect(lines).toEqual(['Retention: AIRTABLE_API_KEY or AIRTABLE_BASE_ID is not set; nothing done']);
    emulator().seed('Waitlist', { Email: 'secret@x.co', 'Last Updated': monthsAgo(25) });
    await expect(
      runRetentionJob(
        {
          AIRTABLE_API_KEY: 'wrong',
          AIRTABLE_BASE_ID: emulator().baseId,
          AIRTABLE_ENDPOINT_URL: emulator().url,
        },
        { pacer: createPacer({ perSecond: 50 }), now: () => NOW, log: (line) => lines.push(line) },
      ),
    ).rejects.toMatchObject({ status: 401 });
    expect(lines.at(-1)).toMatch(
      /^Retention failed after 1 Airtable requests \(AirtableError: .*\); the next run tries again$/,
    );
    expect(lines.join('\n')).not.toContain('@');
  });
});

describe('dead letters and the privacy promises', () => {
  it('expireDeadLetters keeps letters from the cutoff on, deletes older ones', async () => {
    const letters = memoryStore();
    const cutoff = new Date(NOW);
    await keepDeadLetter(letters, { submission: submission('a@x.co'), reason: 'x', failedAt: iso(NOW - 1) });
    await keepDeadLetter(letters, { submission: submission('b@x.co'), reason: 'x', failedAt: iso(NOW) });
    expect(await expireDeadLetters(letters, cutoff)).toBe(1);
    expect(await expireDeadLetters(letters, cutoff)).toBe(0);
    expect(letters.keys()).toHaveLength(1);
  });

  it('POST /api/dead-letters/erase drops one email’s letters, its waiting submissions, its held team notices and its queued emails (after the waiting ones), matched trimmed and in any case, with the admin token', async () => {
    const letters = memoryStore();
    const asked: string[] = [];
    const eraseWaiting = async (email: string) => {
      asked.push(email);
      return { erased: 1, stillWriting: false };
    };
    const eraseMail = async (email: string) => (asked.push(`mail ${email}`), { teamNotices: 2 });
    for (const email of ['jane@x.co', 'Jane@X.co', 'john@x.co'])
      await keepDeadLetter(letters, { submission: submission(email), reason: 'x', failedAt: iso(NOW) });
    const erase = (token: string, body: unknown) =>
      handleDeadLetterAdmin(
        new Request('https://site.example/api/dead-letters/erase', {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
        { ADMIN_TOKEN, DEAD_LETTERS: letters, SUBMISSIONS: { send: async () => undefined } },
        { clientAddress: '192.0.2.1', failureDelayMs: 0, eraseWaiting, eraseMail },
      );
    expect((await erase('wrong', { email: 'jane@x.co' })).status).toBe(401);
    expect(letters.keys()).toHaveLength(3);
    expect((await erase(ADMIN_TOKEN, {})).status).toBe(400);
    expect(asked).toEqual([]);
    const answer = await erase(ADMIN_TOKEN, { email: '  JANE@x.co ' });
    expect(await answer.json()).toEqual({ erased: 2, waiting: 1, stillWriting: false, teamNotices: 2 });
    expect(asked).toEqual(['jane@x.co', 'mail jane@x.co']);
    expect(letters.keys()).toHaveLength(1);
  });
});
