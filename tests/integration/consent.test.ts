// @vitest-environment node
/**
 * Consent on the synchronous write path (Netlify, `vite`, `vite preview`): the form's door with a
 * mail service over the emulator and a local outbox, driven the way a visitor, a stranger and a
 * mail provider would, over HTTP on loopback.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EMAIL_COPY, WAITLIST_CONSENT_STATEMENT } from '#src/config/emails.ts';
import { FORMS, type FormName } from '#src/lib/forms/forms.ts';
import { toFormBody } from '#src/lib/forms/send-form.ts';
import { createDoors } from '#src/server/doors.ts';
import { memoryMailLedger } from '#src/server/mail/mail-limits.ts';
import { createMailService } from '#src/server/mail/mail-service.ts';
import { parseMailSettings } from '#src/server/mail/mail-settings.ts';
import { outboxMailer, readOutbox } from '#scripts/airtable-emulator/outbox.ts';
import { webMiddleware } from '#scripts/vite-plugins/node-adapter.ts';
import { useEmulator } from './support/emulator.ts';

const MINUTE = 60_000;
const unlimited = { take: async () => ({ ok: true as const }) };

describe('consent: confirmed sign-ups, held changes, one-click withdrawal, schools told', () => {
  const emulator = useEmulator();
  let server: Server | undefined;
  let origin = '';
  let outboxDir = '';
  // The mail's clock, from the real one (the doors check links against it): moved on past the
  // 10-minute gap where a test needs a second email.
  let clock = Date.now();

  beforeAll(async () => {
    outboxDir = await mkdtemp(path.join(tmpdir(), 'consent-outbox-'));
    const mail = createMailService({
      settings: parseMailSettings({ SCHOOLS_TEAM_EMAIL: 'schools@podling.test' }, { local: true }),
      mailer: outboxMailer(outboxDir, () => new Date(clock)),
      ledger: memoryMailLedger(),
      now: () => clock,
    });
    const doors = createDoors(
      {
        AIRTABLE_API_KEY: emulator().apiKey,
        AIRTABLE_BASE_ID: emulator().baseId,
        AIRTABLE_ENDPOINT_URL: emulator().url,
      },
      // The request limits have their own tests; here every post is a different visitor's.
      { warn: () => undefined, mail, clientLimiter: unlimited, emailLimiter: unlimited },
    );
    const handle = webMiddleware(doors);
    server = createServer((req, res) => handle(req, res, () => res.writeHead(404).end()));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  beforeEach(async () => {
    await rm(outboxDir, { recursive: true, force: true });
    clock += 24 * 60 * MINUTE; // every test starts with fresh mail limits
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await rm(outboxDir, { recursive: true, force: true });
  });

  async function send(form: FormName, values: Record<string, string | string[]>) {
    const response = await fetch(`${origin}${FORMS[form].path}`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded', origin },
      body: toFormBody(values),
    });
    return { status: response.status, body: (await response.json()) as { success: boolean } };
  }

  /** The outbox, once it holds `count` messages (mail goes out after the visitor's answer). */
  async function outbox(count: number) {
    await expect.poll(async () => (await readOutbox(outboxDir)).length, { timeout: 5_000 }).toBe(count);
    return readOutbox(outboxDir);
  }

  /** The link of `kind` in a message, on the door's own origin. */
  const linkIn = (message: { links: readonly string[] }, kind: 'confirm' | 'change' | 'unsubscribe') => {
    const link = message.links.find((candidate) => candidate.includes(`/api/email/${kind}?`));
    if (!link) throw new Error(`no ${kind} link in ${message.links.join(', ')}`);
    expect(link.startsWith(`${origin}/`)).toBe(true);
    return link;
  };

  /** Presses a link page's button: a plain form post of the token, as a browser without JavaScript sends it. */
  async function press(link: string) {
    const url = new URL(link);
    return fetch(`${origin}${url.pathname}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
      body: new URLSearchParams({ token: url.searchParams.get('token') ?? '' }).toString(),
    });
  }

  const waitlistRecord = (email: string) =>
    emulator()
      .records('Waitlist')
      .find((record) => record.fields.Email === email);

  it('a new sign-up is stored Pending with the statement the visitor saw, and gets one confirmation; opening the link changes nothing, pressing confirms once', async () => {
    expect(await send('waitlist', { email: 'new.parent@example.com', interests: ['use'] })).toEqual({
      status: 200,
      body: expect.objectContaining({ success: true }),
    });
    expect(waitlistRecord('new.parent@example.com')?.fields).toMatchObject({
      Consent: 'Pending',
      'Consent Text': WAITLIST_CONSENT_STATEMENT,
      Interests: ['Use Podling'],
    });
    const [confirmation] = await outbox(1);
    expect(confirmation?.headers.to).toBe('new.parent@example.com');
    expect(confirmation?.headers.subject).toBe(EMAIL_COPY.confirm.subject);
    expect(confirmation?.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');

    const link = linkIn(confirmation!, 'confirm');
    const opened = await fetch(link);
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain(EMAIL_COPY.linkPages.confirmButton);
    expect(waitlistRecord('new.parent@example.com')?.fields.Consent, 'a link scanner changes nothing').toBe(
      'Pending',
    );

    expect((await press(link)).status).toBe(200);
    const confirmed = waitlistRecord('new.parent@example.com')?.fields;
    expect(confirmed).toMatchObject({ Consent: 'Confirmed', 'Confirmed At': expect.any(String) });
    expect((await press(link)).status).toBe(200);
    expect(waitlistRecord('new.parent@example.com')?.fields, 'a second press changes nothing').toEqual(
      confirmed,
    );
    expect(await outbox(1), 'and sends nothing').toHaveLength(1);
  });

  it('a stranger’s submission for a stored address changes nothing: the owner gets one email and pressing it applies the values', async () => {
    await send('waitlist', { email: 'held@example.com', interests: ['use'] });
    const stored = waitlistRecord('held@example.com')?.fields;
    await outbox(1);
    clock += 11 * MINUTE;

    expect(await send('waitlist', { email: 'held@example.com', interests: ['invest', 'partner'] })).toEqual({
      status: 200,
      body: expect.objectContaining({ success: true }),
    });
    expect(waitlistRecord('held@example.com')?.fields, 'nothing changes on a stranger’s word').toEqual(
      stored,
    );
    const messages = await outbox(2);
    const change = messages.find((message) => message.headers.subject === EMAIL_COPY.change.subject);
    expect(change?.text).not.toContain('Invest');

    expect((await press(linkIn(change!, 'change'))).status).toBe(200);
    expect(waitlistRecord('held@example.com')?.fields).toMatchObject({
      Interests: ['Invest in Podling', 'Partner with Podling'],
      Consent: 'Confirmed',
    });
  });

  it('however many times an address is submitted, it gets at most one email in 10 minutes', async () => {
    for (let index = 0; index < 6; index += 1) await send('waitlist', { email: 'flooded@example.com' });
    await outbox(1);
    clock += 5 * MINUTE;
    await send('waitlist', { email: 'flooded@example.com', interests: ['use'] });
    // Give the (dropped) send its chance, then count again: still one.
    await send('waitlist', { email: 'other.check@example.com' });
    expect((await outbox(2)).filter((message) => message.headers.to === 'flooded@example.com')).toHaveLength(
      1,
    );
  });

  it('a new quote: the schools team gets every field with Reply-To the contact; the contact an acknowledgement without the free text', async () => {
    await send('quote', {
      email: 'head@school.sch.uk',
      contactName: 'Ms Ada <b>Lovelace</b>',
      schoolName: 'St Anne’s',
      role: 'Head',
      useCases: ['other'],
      otherUseCase: 'Radio club',
    });
    const messages = await outbox(2);
    const team = messages.find((message) => message.headers.to === 'schools@podling.test');
    const acknowledgement = messages.find((message) => message.headers.to === 'head@school.sch.uk');
    expect(team?.headers['reply-to']).toBe('head@school.sch.uk');
    expect(team?.text).toContain('Radio club');
    expect(team?.html).toContain('Ms Ada &lt;b&gt;Lovelace&lt;/b&gt;');
    expect(acknowledgement?.text).not.toMatch(/Lovelace|Radio club/);
    expect(acknowledgement?.headers.subject).toBe(EMAIL_COPY.quoteAcknowledgement.subject);
  });

  it('a stranger cannot rewrite a school’s quote or put its Status back to New; the contact’s press does', async () => {
    emulator().seed('School Quotes', {
      Email: 'won@school.sch.uk',
      'Contact Name': 'Mr Right',
      'School Name': 'Won School',
      Status: 'Won',
    });
    await send('quote', {
      email: 'won@school.sch.uk',
      contactName: 'Mallory',
      schoolName: 'Evil',
      role: 'Head',
      useCases: ['other'],
      otherUseCase: 'Spam',
    });
    const stored = emulator()
      .records('School Quotes')
      .find((record) => record.fields.Email === 'won@school.sch.uk');
    expect(stored?.fields).toMatchObject({ 'Contact Name': 'Mr Right', Status: 'Won' });
    const [change] = await outbox(1);
    expect(change?.headers.to).toBe('won@school.sch.uk');
    await press(linkIn(change!, 'change'));
    expect(
      emulator()
        .records('School Quotes')
        .find((record) => record.fields.Email === 'won@school.sch.uk')?.fields,
    ).toMatchObject({ 'Contact Name': 'Mallory', Status: 'New' });
  });

  it('one-click unsubscribe from a mail provider (no Origin, no cookies) answers 200 and withdraws; the record stays', async () => {
    await send('waitlist', { email: 'leaving@example.com' });
    const [confirmation] = await outbox(1);
    const unsubscribe = confirmation?.headers['list-unsubscribe']?.replace(/^<|>$/g, '') ?? '';
    const answer = await fetch(unsubscribe, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(answer.status).toBe(200);
    expect(waitlistRecord('leaving@example.com')?.fields.Consent).toBe('Withdrawn');
  });

  it('a tampered link gets 400 and changes nothing', async () => {
    await send('waitlist', { email: 'tamper@example.com' });
    const [confirmation] = await outbox(1);
    const link = linkIn(confirmation!, 'confirm').replace(/token=(.)/, (_all, first: string) =>
      first === 'A' ? 'token=B' : 'token=A',
    );
    expect((await press(link)).status).toBe(400);
    expect(waitlistRecord('tamper@example.com')?.fields.Consent).toBe('Pending');
  });
});
