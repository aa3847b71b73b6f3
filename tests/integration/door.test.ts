// @vitest-environment node
/**
 * The enhanced form's post (the form's fields, urlencoded, asking for JSON) → the form's door (the
 * same handler the Worker, the Netlify Function and Vite's servers mount) → the emulator, over
 * HTTP on loopback.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FORMS, type FormName } from '#src/lib/forms/forms.ts';
import { toFormBody } from '#src/lib/forms/send-form.ts';
import { createDoors } from '#src/server/doors.ts';
import { webMiddleware } from '#scripts/vite-plugins/node-adapter.ts';
import { useEmulator } from './support/emulator.ts';

describe('enhanced post → door → emulator', () => {
  const emulator = useEmulator();
  let server: Server | undefined;
  let origin = '';

  beforeAll(async () => {
    const doors = createDoors(
      {
        AIRTABLE_API_KEY: emulator().apiKey,
        AIRTABLE_BASE_ID: emulator().baseId,
        AIRTABLE_ENDPOINT_URL: emulator().url,
      },
      { warn: () => undefined },
    );
    const handle = webMiddleware(doors);
    server = createServer((req, res) => handle(req, res, () => res.writeHead(500).end()));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  async function send(form: FormName, values: Record<string, string | string[]>) {
    const response = await fetch(`${origin}${FORMS[form].path}`, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded',
        origin,
      },
      body: toFormBody(values),
    });
    return { status: response.status, body: (await response.json()) as { success: boolean } };
  }

  it('stores a waitlist sign-up, and a repeat updates the same record', async () => {
    expect(await send('waitlist', { email: ' Parent@Example.com', interests: ['use'] })).toEqual({
      status: 200,
      body: expect.objectContaining({ success: true }),
    });
    const [first] = emulator().records('Waitlist');
    expect(first?.fields).toMatchObject({
      Email: 'parent@example.com',
      Interests: ['Use Podling'],
      'Page Source': 'home',
    });

    const firstStamp = Date.parse(String(first?.fields['Last Updated']));
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(firstStamp));
    await send('waitlist', { email: 'parent@example.com', interests: ['invest'] });
    const records = emulator().records('Waitlist');
    expect(records).toHaveLength(1);
    expect(records[0]?.id).toBe(first?.id);
    expect(records[0]?.fields['Created At']).toBe(first?.fields['Created At']);
    expect(records[0]?.fields.Interests).toEqual(['Invest in Podling']);
    expect(Date.parse(String(records[0]?.fields['Last Updated']))).toBeGreaterThan(firstStamp);
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
    const answer = await send('quote', {
      email: 'HEAD@school.sch.uk',
      contactName: 'Ada',
      schoolName: 'Hill School',
      role: '',
      useCases: ['support-learners'],
      otherUseCase: '',
    });
    expect(answer.status).toBe(200);
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

  it('answers a refused email with the field at fault, in JSON', async () => {
    const answer = await send('waitlist', { email: 'not-an-email' });
    expect(answer).toEqual({
      status: 422,
      body: {
        success: false,
        error: expect.objectContaining({ message: 'Please enter a valid email address' }),
        field: 'email',
      },
    });
  });

  it('looks the email up once and writes once: the page never speaks Airtable’s protocol here', async () => {
    emulator().seed('Waitlist', { Email: 'someone@example.com', Interests: ['Use Podling'] });
    const before = emulator().requests().length;
    await send('waitlist', { email: 'someone@example.com' });
    const sent = emulator().requests().slice(before);
    expect(sent.map((entry) => entry.method)).toEqual(['POST', 'PATCH']);
    const record = emulator()
      .records('Waitlist')
      .find((r) => r.fields.Email === 'someone@example.com');
    // No interest chosen: the stored ones are kept.
    expect(record?.fields.Interests).toEqual(['Use Podling']);
  });
});
