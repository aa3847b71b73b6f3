// @vitest-environment node
/**
 * The page's real storage layer (airtable.js) → the relay (the same handler the Worker, the
 * Netlify Function and Vite's servers mount) → the emulator, over HTTP on loopback.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RELAY_BASE_ID, RELAY_CLIENT_KEY, RELAY_PATH } from '#src/lib/airtable/relay-protocol.ts';
import { upsertQuoteRequest, upsertWaitlistEntry, type StorageOptions } from '#src/lib/airtable/upsert.ts';
import { createRelay } from '#src/server/relay.ts';
import { webMiddleware } from '#scripts/vite-plugins/node-adapter.ts';
import { useEmulator } from './support/emulator.ts';

describe('airtable.js → relay → emulator', () => {
  const emulator = useEmulator();
  let server: Server | undefined;
  let options: StorageOptions = {};

  beforeAll(async () => {
    const relay = createRelay(
      {
        AIRTABLE_API_KEY: emulator().apiKey,
        AIRTABLE_BASE_ID: emulator().baseId,
        AIRTABLE_ENDPOINT_URL: emulator().url,
      },
      { warn: () => undefined },
    );
    const handle = webMiddleware(relay);
    server = createServer((req, res) => handle(req, res, () => res.writeHead(500).end()));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    options = {
      answerBoundMs: 5_000,
      config: {
        apiKey: RELAY_CLIENT_KEY,
        baseId: RELAY_BASE_ID,
        endpointUrl: `http://127.0.0.1:${port}${RELAY_PATH}`,
      },
    };
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  it('stores a waitlist sign-up, and a repeat updates the same record', async () => {
    await upsertWaitlistEntry(
      { email: ' Parent@Example.com', interests: ['Use Podling'], pageSource: 'home' },
      options,
    );
    const [first] = emulator().records('Waitlist');
    expect(first?.fields).toMatchObject({
      Email: 'parent@example.com',
      Interests: ['Use Podling'],
      'Page Source': 'home',
    });

    // The repeat must be stamped later: wait until the clock has passed the first stamp.
    const firstStamp = Date.parse(String(first?.fields['Last Updated']));
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(firstStamp));
    await upsertWaitlistEntry({ email: 'parent@example.com', interests: ['Invest in Podling'] }, options);
    const records = emulator().records('Waitlist');
    expect(records).toHaveLength(1);
    expect(records[0]?.id).toBe(first?.id);
    expect(records[0]?.fields['Created At']).toBe(first?.fields['Created At']);
    expect(records[0]?.fields.Interests).toEqual(['Invest in Podling']);
    // The earlier sign-up's page is kept: the later one did not send it.
    expect(records[0]?.fields['Page Source']).toBe('home');
    expect(Date.parse(String(records[0]?.fields['Last Updated']))).toBeGreaterThan(
      Date.parse(String(first?.fields['Last Updated'])),
    );
  });

  it('stores a quote; a repeat keeps Created At, resets Status and clears Other Use Case', async () => {
    const seeded = emulator().seed('School Quotes', {
      Email: 'head@school.sch.uk',
      'Contact Name': 'Old',
      'School Name': 'Old School',
      'Use Cases': ['Other: Radio'],
      'Other Use Case': 'Radio',
      'Created At': '2026-01-01T00:00:00.000Z',
      'Last Updated': '2026-01-01T00:00:00.000Z',
      Status: 'Won',
    });
    await upsertQuoteRequest(
      {
        email: 'HEAD@school.sch.uk',
        contactName: 'Ada',
        schoolName: 'Hill School',
        useCases: ['Support Learners'],
      },
      options,
    );
    const records = emulator().records('School Quotes');
    expect(records).toHaveLength(1);
    expect(records[0]?.id).toBe(seeded.id);
    expect(records[0]?.fields).toMatchObject({
      'Contact Name': 'Ada',
      'Use Cases': ['Support Learners'],
      'Created At': '2026-01-01T00:00:00.000Z',
      Status: 'New',
    });
    expect(records[0]?.fields['Other Use Case'] ?? '').toBe('');
  });

  it('never lets the page’s lookup reach Airtable', async () => {
    emulator().seed('Waitlist', { Email: 'someone@example.com', Interests: ['Use Podling'] });
    const before = emulator().requests().length;
    await upsertWaitlistEntry({ email: 'someone@example.com' }, options);
    const sent = emulator().requests().slice(before);
    // The relay's own lookup (one) and its update: the page's GET lookup was answered locally.
    expect(sent.map((entry) => entry.method)).toEqual(['POST', 'PATCH']);
    expect(emulator().records('Waitlist')).toHaveLength(1);
  });
});
