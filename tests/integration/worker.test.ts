// @vitest-environment node
/**
 * The reference deploy in its real runtime: the Worker (wrangler.jsonc) under workerd through
 * `wrangler dev`, serving a freshly built site, its relay in queued mode, the queue's paced
 * consumer writing to the emulator (Airtable's limit and 30 s penalty on); and the launch rush
 * in small (the full one is `npm run loadtest`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBuilder } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORMS } from '#src/lib/forms/forms.ts';
import { enhancedPost } from './support/door.ts';
import { siteBaseSchema, startEmulator, type RunningEmulator } from '#scripts/airtable-emulator/emulator.ts';
import { main as deadLetters } from '#scripts/launch-kit/dead-letters.ts';
import { runRush } from '#scripts/loadtest/rush.ts';
import { startClientSpread } from '#scripts/loadtest/client-spread.ts';
import { startWorker, type RunningWorker } from '#scripts/loadtest/worker-process.ts';

let siteDir = '';

beforeAll(async () => {
  siteDir = await mkdtemp(join(tmpdir(), 'podling-worker-site-'));
  const builder = await createBuilder({ logLevel: 'silent', build: { outDir: siteDir, emptyOutDir: true } });
  await builder.buildApp();
}, 120_000);

afterAll(async () => {
  await rm(siteDir, { recursive: true, force: true });
});

/**
 * An emulator and the Worker in front of it, for the enclosing suite; `extraVars` are more of the
 * Worker's variables (ADMIN_TOKEN, say).
 */
function useWorker(options: Parameters<typeof startEmulator>[0], extraVars: Record<string, string> = {}) {
  const running: { emulator?: RunningEmulator; worker?: RunningWorker } = {};
  beforeAll(async () => {
    const emulator = await startEmulator({ port: 0, ...options });
    running.emulator = emulator;
    running.worker = await startWorker({
      assetsDir: siteDir,
      vars: {
        AIRTABLE_API_KEY: emulator.apiKey,
        AIRTABLE_BASE_ID: emulator.baseId,
        AIRTABLE_ENDPOINT_URL: emulator.url,
        ...extraVars,
      },
    });
  }, 120_000);
  afterAll(async () => {
    await running.worker?.close();
    await running.emulator?.close();
  });
  return () => {
    if (!running.emulator || !running.worker) throw new Error('The Worker is only available inside tests');
    return { emulator: running.emulator, worker: running.worker };
  };
}

// One Worker (and emulator, with Airtable's limit and penalty) for the pages, the queue and the request check.
const running = useWorker({ rateLimitPerSecond: 5, rateLimitPenaltyMs: 30_000 });

describe('the Worker under workerd', () => {
  it('serves the pages with the headers from _headers, and unknown paths with 404.html and 404', async () => {
    const { worker } = running();
    const about = await fetch(`${worker.url}/about`);
    expect(about.status).toBe(200);
    expect(about.headers.get('x-frame-options')).toBe('DENY');
    expect(await about.text()).toMatch(/<h1[^>]*>/);
    const missing = await fetch(`${worker.url}/no-such-page`, { headers: { 'sec-fetch-mode': 'navigate' } });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('This page is on mute');
    // The raw form-answer templates are the Worker's to read, never served.
    for (const path of [
      '/__forms/waitlist.html',
      '/__forms/quote',
      '/%5f%5fforms/waitlist.html',
      '/_%5Fforms/quote',
      '/assets/..%2f__forms/quote.html',
      '//__forms/waitlist.html',
    ]) {
      const template = await fetch(`${worker.url}${path}`);
      expect(template.status, path).toBe(404);
      expect(await template.text()).not.toContain('%%form-answer');
    }
  });

  it('has no Airtable-shaped relay: a list request is not found, and Airtable is not asked', async () => {
    const { emulator, worker } = running();
    const before = emulator.requests().length;
    const answer = await fetch(`${worker.url}/api/airtable/v0/appSiteRelay/Waitlist`);
    expect(answer.status).toBe(404);
    expect(emulator.requests()).toHaveLength(before);
  });

  it('accepts a sign-up at once and its queue consumer stores it', async () => {
    const { emulator, worker } = running();
    const email = `worker.${Date.now()}@example.com`;
    const answer = await enhancedPost(`${worker.url}${FORMS.waitlist.path}`, { email, interests: ['use'] });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ success: true });
    await expect
      .poll(() => emulator.records('Waitlist').filter((record) => record.fields.Email === email).length, {
        timeout: 30_000,
        interval: 250,
      })
      .toBe(1);
  });
});

describe('the request check under workerd', () => {
  const waitlist = (email: string) => ({ email, interests: ['use'] });
  const create = enhancedPost;

  it('limits a flooding client (Rate Limiting binding, by connecting address) while another is served', async () => {
    const { emulator, worker } = running();
    const spread = await startClientSpread(worker.url);
    try {
      const path = FORMS.waitlist.path;
      const token = Date.now().toString(36);
      const statuses = await Promise.all(
        Array.from({ length: 25 }, (_, i) =>
          create(spread.urlFor(1, path), waitlist(`flood.${i}.${token}@example.com`)).then((r) => r.status),
        ),
      );
      expect(statuses.filter((status) => status === 200)).toHaveLength(10);
      expect(statuses.filter((status) => status === 429)).toHaveLength(15);
      const honest = `honest.${token}@example.com`;
      expect((await create(spread.urlFor(2, path), waitlist(honest))).status).toBe(200);
      await expect
        .poll(() => emulator.records('Waitlist').filter((record) => record.fields.Email === honest).length, {
          timeout: 30_000,
          interval: 250,
        })
        .toBe(1);
    } finally {
      await spread.close();
    }
  });

  it('answers a native form post with the confirmation page, and its queue consumer stores it', async () => {
    const { emulator, worker } = running();
    const email = `native.${Date.now()}@example.com`;
    const answer = await fetch(`${worker.url}/api/forms/waitlist`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: worker.url },
      body: new URLSearchParams([
        ['email', email],
        ['interests', 'invest'],
        ['company_website', ''],
      ]).toString(),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('text/html');
    const page = await answer.text();
    expect(page).toContain('Thanks for your interest in Podling!');
    expect(page).not.toMatch(/<script\b/i);
    await expect
      .poll(
        () => emulator.records('Waitlist').find((record) => record.fields.Email === email)?.fields.Interests,
        {
          timeout: 30_000,
          interval: 250,
        },
      )
      .toEqual(['Invest in Podling']);
  });

  it('refuses a create from another site, and a blanking one, before the queue', async () => {
    const { worker } = running();
    const url = `${worker.url}${FORMS.quote.path}`;
    const quote = {
      email: `school.${Date.now()}@school.sch.uk`,
      contactName: 'Ada',
      schoolName: 'Hill School',
      useCases: ['support-learners'],
    };
    expect((await create(url, quote, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await create(url, quote, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await create(url, { ...quote, contactName: '', schoolName: '' })).status).toBe(422);
  });
});

describe('dead letters under workerd', () => {
  const ADMIN_TOKEN = 'test-admin-token-for-dead-letters';
  // A base whose Waitlist lacks 'Page Source': every home sign-up fails for good.
  const broken = useWorker(
    {
      schema: siteBaseSchema().map((table) =>
        table.name === 'Waitlist'
          ? { ...table, fields: table.fields.filter((field) => field.name !== 'Page Source') }
          : table,
      ),
    },
    { ADMIN_TOKEN },
  );

  it('keeps a submission the base refuses, lists it for the owner, and stores it on replay once fixed', async () => {
    const { emulator, worker } = broken();
    const email = `dead.${Date.now()}@example.com`;
    const relayed = await enhancedPost(`${worker.url}${FORMS.waitlist.path}`, { email, interests: ['use'] });
    expect(relayed.status).toBe(200);

    const listing = () =>
      fetch(`${worker.url}/api/dead-letters`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }).then(
        async (response) =>
          (await response.json()) as { count: number; letters: { email: string; reason: string }[] },
      );
    await expect.poll(async () => (await listing()).count, { timeout: 30_000, interval: 2_000 }).toBe(1);
    expect((await listing()).letters[0]).toMatchObject({
      email,
      reason: expect.stringMatching(/UNKNOWN_FIELD_NAME/),
    });
    expect(
      (await fetch(`${worker.url}/api/dead-letters`, { headers: { authorization: 'Bearer wrong' } })).status,
    ).toBe(401);
    expect(await deadLetters(['list', '--url', worker.url, '--token', ADMIN_TOKEN])).toBe(1);

    // The owner adds the missing field (as airtable:setup would), then replays.
    const added = await fetch(`${emulator.url}/v0/meta/bases/${emulator.baseId}/tables/Waitlist/fields`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emulator.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Page Source', type: 'singleLineText' }),
    });
    expect(added.ok).toBe(true);
    expect(await deadLetters(['replay', '--url', worker.url, '--token', ADMIN_TOKEN])).toBe(0);
    await expect
      .poll(() => emulator.records('Waitlist').filter((record) => record.fields.Email === email).length, {
        timeout: 30_000,
        interval: 250,
      })
      .toBe(1);
    expect((await listing()).count).toBe(0);
  }, 90_000);
});

describe('the launch rush, small', () => {
  // What the code controls: every visitor answered success, every address stored once. Whether a
  // busy machine delivered two paced requests close enough for Airtable's limit is the machine's
  // doing (the emulator then holds its penalty and the writer waits it out, as with Airtable); the
  // writer's own pacing is proven on a fake clock (tests/unit/pacer.test.ts, queue-writer), and
  // the 429 count is a figure `npm run loadtest` prints.
  it('150 sign-ups, 15 quotes and 15 repeats in 1.5 s: all answered success, none lost or doubled', async () => {
    const report = await runRush({
      mode: 'queued',
      signups: 150,
      quotes: 15,
      repeats: 15,
      overMs: 1_500,
      penaltyMs: 30_000,
      assetsDir: siteDir,
      // A loaded machine only makes the queue slower: the wait goes on while it stores, and
      // ends after 90 s in which it stored nothing (three of the emulator's penalties).
      settleTimeoutMs: 480_000,
      settleStallMs: 90_000,
    });
    expect(report).toMatchObject({
      submitted: 180,
      succeeded: 180,
      failed: 0,
      lost: 0,
      duplicates: 0,
    });
    expect(report.stored).toBe(165);
    expect(report.settledMs).not.toBeNull();
    // Mail: every new address got exactly one confirmation through the send_email binding.
    expect(report.mail).toMatchObject({ confirmationsMissing: 0, confirmationsDoubled: 0 });
    expect(report.mail?.sent).toBeGreaterThanOrEqual(150 + 2 * 15);
  }, 600_000);
});
