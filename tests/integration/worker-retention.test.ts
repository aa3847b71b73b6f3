// @vitest-environment node
/**
 * The privacy policy's retention on the reference deploy, in its real runtime: the Worker
 * (wrangler.jsonc) under workerd through `wrangler dev --test-scheduled`, its Cron Trigger fired
 * by hand at GET /__scheduled (which reaches the Worker because `assets.run_worker_first` lists
 * it; wrangler 4.86's /cdn-cgi/handler/scheduled fails with assets configured, workers-sdk
 * issue 9882), deleting expired records from the emulator; and erasure dropping the Worker's
 * dead letters of one email through its admin endpoint.
 *
 * The Worker starts like every workerd test's (`startWorker`, outside libfaketime's preload), plus
 * `--test-scheduled`. It therefore runs on the real clock while this file may run on a moved one
 * (`npm run test:clock`): the records it seeds are decades away from either cutoff.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORMS } from '#src/lib/forms/forms.ts';
import { enhancedPost } from './support/door.ts';
import { siteBaseSchema, startEmulator, type RunningEmulator } from '#scripts/airtable-emulator/emulator.ts';
import { main as privacy } from '#scripts/launch-kit/privacy.ts';
import { startWorker } from '#scripts/loadtest/worker-process.ts';

const ADMIN_TOKEN = 'test-admin-token-for-retention-and-erasure';
const YEAR_MS = 365 * 86_400_000;

/** `wrangler dev --test-scheduled` with wrangler.jsonc, a two-page site and the given variables. */
async function startScheduledWorker(vars: Record<string, string>) {
  const logs: string[] = [];
  const worker = await startWorker({
    vars,
    extraArgs: ['--test-scheduled'],
    onLog: (line) => logs.push(line),
  });
  return { ...worker, logs };
}

describe('retention and erasure on the Worker under workerd', () => {
  let emulator: RunningEmulator;
  let worker: Awaited<ReturnType<typeof startScheduledWorker>>;

  beforeAll(async () => {
    // Airtable's limit and penalty on; a Waitlist without 'Page Source', so a home sign-up
    // fails for good and becomes a dead letter.
    emulator = await startEmulator({
      port: 0,
      rateLimitPerSecond: 5,
      rateLimitPenaltyMs: 30_000,
      schema: siteBaseSchema().map((table) =>
        table.name === 'Waitlist'
          ? { ...table, fields: table.fields.filter((field) => field.name !== 'Page Source') }
          : table,
      ),
    });
    worker = await startScheduledWorker({
      AIRTABLE_API_KEY: emulator.apiKey,
      AIRTABLE_BASE_ID: emulator.baseId,
      AIRTABLE_ENDPOINT_URL: emulator.url,
      ADMIN_TOKEN,
    });
  }, 120_000);

  afterAll(async () => {
    await worker?.close();
    await emulator?.close();
  });

  it('GET /__scheduled runs the Cron Trigger, which deletes expired records only and logs counts, never emails', async () => {
    const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
    const ancient = -30 * YEAR_MS;
    const future = 10 * YEAR_MS;
    const expired = [
      emulator.seed('Waitlist', { Email: 'cron.updated@old.example', 'Last Updated': at(ancient) }),
      emulator.seed('Waitlist', { Email: 'cron.created@old.example', 'Created At': at(ancient) }),
      emulator.seed('Waitlist', { Email: 'cron.bare@old.example' }, at(ancient)),
      emulator.seed('School Quotes', {
        Email: 'cron.head@old.example',
        'Contact Name': 'A',
        'School Name': 'S',
        'Last Updated': at(ancient),
        'Created At': at(ancient),
      }),
    ];
    const kept = [
      emulator.seed('Waitlist', { Email: 'cron.kept@new.example', 'Last Updated': at(future) }, at(ancient)),
      emulator.seed('School Quotes', {
        Email: 'cron.keptquote@new.example',
        'Contact Name': 'B',
        'School Name': 'T',
        'Created At': at(ancient),
        'Last Updated': at(future),
      }),
    ];

    const fired = await fetch(`${worker.url}/__scheduled?cron=${encodeURIComponent('17 3 * * *')}`);
    expect(fired.status).toBe(200);
    expect(await fired.text()).toBe('Ran scheduled event');

    const ids = (table: string) => emulator.records(table).map((record) => record.id);
    const remaining = [...ids('Waitlist'), ...ids('School Quotes')];
    for (const record of expired) expect(remaining).not.toContain(record.id);
    for (const record of kept) expect(remaining).toContain(record.id);
    expect(emulator.requests().filter((request) => request.status === 429)).toEqual([]);

    await expect
      .poll(() => worker.logs.find((line) => line.includes('Retention (24 months')), { timeout: 10_000 })
      .toMatch(/deleted 3 in Waitlist, 1 in School Quotes; 0 dead letters; \d+ Airtable requests/);
    expect(worker.logs.join('\n')).not.toMatch(/@(old|new)\.example/);
  }, 60_000);

  it('privacy:erase drops the email’s dead letters on the Worker (POST /api/dead-letters/erase), and only them', async () => {
    const signUp = (email: string) =>
      enhancedPost(`${worker.url}${FORMS.waitlist.path}`, { email, interests: ['use'] });
    const token = Date.now().toString(36);
    const erased = `erase.${token}@example.com`;
    const other = `other.${token}@example.com`;
    expect((await signUp(erased)).status).toBe(200);
    expect((await signUp(other)).status).toBe(200);
    const letters = async () =>
      (
        (await (
          await fetch(`${worker.url}/api/dead-letters`, {
            headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
          })
        ).json()) as { letters: { email: string }[] }
      ).letters.map((letter) => letter.email);
    await expect
      .poll(async () => (await letters()).sort(), { timeout: 30_000, interval: 1_000 })
      .toEqual([erased, other].sort());

    const out: string[] = [];
    const code = await privacy(
      ['erase', `  ${erased.toUpperCase()} `, '--url', worker.url, '--admin-token', ADMIN_TOKEN],
      {
        AIRTABLE_API_KEY: emulator.apiKey,
        AIRTABLE_BASE_ID: emulator.baseId,
        AIRTABLE_ENDPOINT_URL: emulator.url,
      },
      { out: (line) => out.push(line), err: (line) => out.push(line) },
    );
    expect(code).toBe(0);
    expect(out).toContain(`Dead letters of ${erased} dropped on the Worker: 1.`);
    expect(out).toContain(`Submissions of ${erased} waiting to be written, dropped on the Worker: 0.`);
    expect(out).toContain(`Notices of ${erased} held for a team's digest, dropped: 0.`);
    expect(out).toContain(
      `Emails to or about ${erased} still queued on the Worker: stopped (one leaving within the minute may still go).`,
    );
    expect(await letters()).toEqual([other]);
  }, 90_000);

  it('erasure drops a submission the desk keeps for its retry, which is then never written (its neighbour is)', async () => {
    const token = Date.now().toString(36);
    const [erased, kept] = [`waiting.${token}@school.example`, `kept.${token}@school.example`];
    const ask = (email: string) =>
      enhancedPost(`${worker.url}${FORMS.quote.path}`, {
        email,
        contactName: 'Grace',
        schoolName: 'Oak School',
        useCases: ['showcase-creativity'],
      });
    // Airtable's penalty, started by ten reads at once: the desk's lookup meets a 429 and keeps
    // both quotes for their retry 30 s later.
    const read = () =>
      fetch(`${emulator.url}/v0/${emulator.baseId}/School%20Quotes?maxRecords=1`, {
        headers: { authorization: `Bearer ${emulator.apiKey}` },
      });
    const statuses = await Promise.all(Array.from({ length: 10 }, async () => (await read()).status));
    expect(statuses).toContain(429);
    const seen = worker.logs.length;
    expect((await ask(erased)).status).toBe(200);
    expect((await ask(kept)).status).toBe(200);
    // The desk's rounds (one or two): nothing stored, both kept for their retry.
    const retried = () =>
      worker.logs
        .slice(seen)
        .map((line) => /Airtable writer: a round of .* (\d+) retried/.exec(line)?.[1] ?? '0')
        .reduce((sum, count) => sum + Number(count), 0);
    await expect.poll(retried, { timeout: 20_000 }).toBe(2);

    const answer = await fetch(`${worker.url}/api/dead-letters/erase`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: erased.toUpperCase() }),
    });
    expect(await answer.json()).toEqual({ erased: 0, waiting: 1, stillWriting: false, teamNotices: 0 });

    const stored = () => emulator.records('School Quotes').map((record) => String(record.fields.Email));
    await expect.poll(stored, { timeout: 90_000, interval: 1_000 }).toContain(kept);
    expect(stored()).not.toContain(erased);
  }, 150_000);
});
