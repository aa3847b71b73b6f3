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
import { RELAY_BASE_ID, RELAY_CLIENT_KEY, RELAY_PATH } from '@/lib/airtable/relay-protocol';
import { upsertWaitlistEntry } from '@/lib/airtable/upsert';
import { startEmulator, type RunningEmulator } from '../../scripts/airtable-emulator/emulator';
import { runRush } from '../../scripts/loadtest/rush';
import { startWorker, type RunningWorker } from '../../scripts/loadtest/worker-process';

let siteDir = '';

beforeAll(async () => {
  siteDir = await mkdtemp(join(tmpdir(), 'podling-worker-site-'));
  const builder = await createBuilder({ logLevel: 'silent', build: { outDir: siteDir, emptyOutDir: true } });
  await builder.buildApp();
}, 120_000);

afterAll(async () => {
  await rm(siteDir, { recursive: true, force: true });
});

describe('the Worker under workerd', () => {
  let emulator: RunningEmulator | undefined;
  let worker: RunningWorker | undefined;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, rateLimitPerSecond: 5, rateLimitPenaltyMs: 30_000 });
    worker = await startWorker({
      assetsDir: siteDir,
      vars: {
        AIRTABLE_API_KEY: emulator.apiKey,
        AIRTABLE_BASE_ID: emulator.baseId,
        AIRTABLE_ENDPOINT_URL: emulator.url,
      },
    });
  }, 120_000);

  afterAll(async () => {
    await worker?.close();
    await emulator?.close();
  });

  it('serves the pages with the headers from _headers, and unknown paths with 404.html and 404', async () => {
    const about = await fetch(`${worker!.url}/about`);
    expect(about.status).toBe(200);
    expect(about.headers.get('x-frame-options')).toBe('DENY');
    expect(await about.text()).toMatch(/<h1[^>]*>/);
    const missing = await fetch(`${worker!.url}/no-such-page`, { headers: { 'sec-fetch-mode': 'navigate' } });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('This page is on mute');
  });

  it('refuses a stranger’s list request without asking Airtable', async () => {
    const before = emulator!.requests().length;
    const answer = await fetch(`${worker!.url}${RELAY_PATH}/v0/${RELAY_BASE_ID}/Waitlist`);
    expect(answer.status).toBe(403);
    expect(emulator!.requests()).toHaveLength(before);
  });

  it('accepts a sign-up at once and its queue consumer stores it', async () => {
    const email = `worker.${Date.now()}@example.com`;
    await upsertWaitlistEntry(
      { email, interests: ['Use Podling'], pageSource: 'home' },
      {
        config: {
          apiKey: RELAY_CLIENT_KEY,
          baseId: RELAY_BASE_ID,
          endpointUrl: `${worker!.url}${RELAY_PATH}`,
        },
      },
    );
    await expect
      .poll(() => emulator!.records('Waitlist').filter((record) => record.fields.Email === email).length, {
        timeout: 30_000,
        interval: 250,
      })
      .toBe(1);
  });
});

describe('the launch rush, small', () => {
  it('300 sign-ups, 30 quotes and 30 repeats in 3 s: all answered success, none lost or doubled, no 429', async () => {
    const report = await runRush({
      mode: 'queued',
      signups: 300,
      quotes: 30,
      repeats: 30,
      overMs: 3_000,
      penaltyMs: 30_000,
      assetsDir: siteDir,
      settleTimeoutMs: 180_000,
    });
    expect(report).toMatchObject({
      submitted: 360,
      succeeded: 360,
      failed: 0,
      lost: 0,
      duplicates: 0,
      rateLimited: 0,
    });
    expect(report.stored).toBe(330);
    expect(report.settledMs).not.toBeNull();
  }, 300_000);
});
