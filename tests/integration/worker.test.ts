// @vitest-environment node
/**
 * The reference deploy in its real runtime: the Worker (wrangler.jsonc) under workerd through
 * `wrangler dev`, serving a freshly built site, its relay in queued mode, the queue's paced
 * consumer writing to the emulator (Airtable's limit and 30 s penalty on), and its dead letters.
 * The launch rush in small is worker-rush.test.ts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBuilder } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORMS } from '#src/lib/forms/forms.ts';
import { REQUEST_MAX_BODY_BYTES } from '#src/server/doors/body.ts';
import { enhancedPost } from './support/door.ts';
import { AIRTABLE_LIMITS, useWorker } from './support/worker.ts';
import { siteBaseSchema } from '#scripts/airtable-emulator/emulator.ts';
import { main as deadLetters } from '#scripts/launch-kit/dead-letters.ts';
import { startClientSpread } from '#scripts/loadtest/client-spread.ts';

let siteDir = '';

beforeAll(async () => {
  siteDir = await mkdtemp(join(tmpdir(), 'podling-worker-site-'));
  const builder = await createBuilder({ logLevel: 'silent', build: { outDir: siteDir, emptyOutDir: true } });
  await builder.buildApp();
}, 120_000);

afterAll(async () => {
  await rm(siteDir, { recursive: true, force: true });
});

// One Worker (and emulator, with Airtable's limit and penalty) for the pages, the queue and the request check.
// Cloudflare's Vite plugin builds the pages into <outDir>/client (and the Worker beside them).
const ADMIN_TOKEN = 'test-admin-token-for-the-worker-under-workerd';
const running = useWorker({
  emulator: AIRTABLE_LIMITS,
  assetsDir: () => join(siteDir, 'client'),
  vars: { ADMIN_TOKEN },
});

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

  it('answers with the security headers whatever the status: pages, 404, 303, 401, 405, 413, 429, a link page', async () => {
    const { worker } = running();
    const spread = await startClientSpread(worker.url);
    try {
      const door = FORMS.waitlist.path;
      const big = 'x'.repeat(REQUEST_MAX_BODY_BYTES + 1);
      // A client of its own floods the door past its per-minute limit: the last answer is a 429.
      const flood = async () => {
        let last = await enhancedPost(spread.urlFor(11, door), { email: 'flood@example.com' });
        for (let i = 0; i < 12 && last.status !== 429; i += 1)
          last = await enhancedPost(spread.urlFor(11, door), { email: `flood.${i}@example.com` });
        return last;
      };
      const answers: [number, () => Promise<Response>][] = [
        [200, () => fetch(`${worker.url}/about`)],
        [404, () => fetch(`${worker.url}/no-such-page`, { headers: { 'sec-fetch-mode': 'navigate' } })],
        [303, () => fetch(`${worker.url}${door}`, { redirect: 'manual' })],
        [401, () => fetch(`${worker.url}/api/dead-letters`, { headers: { authorization: 'Bearer wrong' } })],
        [405, () => fetch(`${worker.url}${door}`, { method: 'PUT', body: 'email=a%40example.com' })],
        [413, () => enhancedPost(spread.urlFor(12, door), { email: 'big@example.com', school: big })],
        [400, () => fetch(`${worker.url}/api/email/confirm?token=not-a-token`)],
        [429, flood],
      ];
      for (const [status, send] of answers) {
        const answer = await send();
        await answer.arrayBuffer();
        expect(answer.status).toBe(status);
        const policy = answer.headers.get('content-security-policy') ?? '';
        expect(policy, `${status}`).toMatch(/(^|;\s*)frame-ancestors 'none'/);
        expect(answer.headers.get('x-content-type-options'), `${status}`).toBe('nosniff');
        expect(answer.headers.get('referrer-policy'), `${status}`).toMatch(
          /^(no-referrer|strict-origin-when-cross-origin)$/,
        );
        expect(answer.headers.get('permissions-policy'), `${status}`).toMatch(/camera=\(\)/);
      }
    } finally {
      await spread.close();
    }
  });

  it('has no Airtable-shaped relay: a list request is not found, and Airtable is not asked', async () => {
    const { emulator, worker } = running();
    const before = emulator.requests().length;
    const answer = await fetch(`${worker.url}/api/airtable/v0/appSiteRelay/Waitlist`);
    expect(answer.status).toBe(404);
    expect(emulator.requests()).toHaveLength(before);
  });

  it('accepts a sign-up at once and its queue consumer stores it, the email as one address', async () => {
    const { emulator, worker } = running();
    const token = Date.now();
    const email = `worker.${token}@example.com`;
    const answer = await enhancedPost(`${worker.url}${FORMS.waitlist.path}`, {
      email: ` Worker.${token}@Example.COM `,
      interests: ['use'],
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ success: true });
    await expect
      .poll(() => emulator.records('Waitlist').filter((record) => record.fields.Email === email).length, {
        timeout: 30_000,
        interval: 250,
      })
      .toBe(1);
    expect(
      emulator.records('Waitlist').find((record) => record.fields.Email === email)?.fields,
    ).toMatchObject({
      Interests: ['Use Podling'],
      'Page Source': 'home',
    });
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
      const flood = (client: number) =>
        Promise.all(
          Array.from({ length: 25 }, (_, i) =>
            create(spread.urlFor(client, path), waitlist(`flood.${client}.${i}.${token}@example.com`)).then(
              (r) => r.status,
            ),
          ),
        );
      // Locally the binding counts in fixed windows of its period (wrangler.jsonc's SUBMIT_LIMITER:
      // 10 a minute) that start on the clock's minute: a flood that crosses a minute's end is
      // counted in two windows and allowed up to 20. Such a flood proves nothing, so it is sent
      // again from a new client, and that one lands inside one window.
      const minute = () => Math.floor(Date.now() / 60_000);
      let statuses: number[] = [];
      for (const client of [1, 3]) {
        const started = minute();
        statuses = await flood(client);
        if (minute() === started) break;
      }
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

  it('answers a refused email with the field at fault, in JSON', async () => {
    const { worker } = running();
    const answer = await create(`${worker.url}${FORMS.waitlist.path}`, { email: 'not-an-email' });
    expect(answer.status).toBe(422);
    expect(await answer.json()).toEqual({
      success: false,
      error: expect.objectContaining({ message: 'Please enter a valid email address' }),
      field: 'email',
    });
  });
});

describe('dead letters under workerd', () => {
  const ADMIN_TOKEN = 'test-admin-token-for-dead-letters';
  // A base whose Waitlist lacks 'Page Source': every home sign-up fails for good.
  const broken = useWorker({
    emulator: {
      schema: siteBaseSchema().map((table) =>
        table.name === 'Waitlist'
          ? { ...table, fields: table.fields.filter((field) => field.name !== 'Page Source') }
          : table,
      ),
    },
    vars: { ADMIN_TOKEN },
  });

  it('keeps a submission the base refuses, lists it for the owner, and stores it on replay once fixed', async () => {
    const { emulator, worker, logs } = broken();
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
    const replayedAt = logs.length;
    expect(await deadLetters(['replay', '--url', worker.url, '--token', ADMIN_TOKEN])).toBe(0);
    // Through the queue to the desk (the one store), whose round writes it.
    await expect
      .poll(
        () =>
          logs.slice(replayedAt).some((line) => /Airtable writer: a round of 1, 1 records stored/.test(line)),
        {
          timeout: 30_000,
          interval: 250,
        },
      )
      .toBe(true);
    await expect
      .poll(() => emulator.records('Waitlist').filter((record) => record.fields.Email === email).length, {
        timeout: 30_000,
        interval: 250,
      })
      .toBe(1);
    expect((await listing()).count).toBe(0);
  }, 90_000);
});
