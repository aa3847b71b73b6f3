// @vitest-environment node
/**
 * Mail on Netlify (issue 29, item 8): a Netlify Function may be frozen once it has answered, so
 * the emails a write causes are handed to `context.waitUntil`, or, on a runtime without it, sent
 * before the answer leaves. Either way a failed or hanging send never changes the visitor's
 * answer, and the record is stored exactly once. Against the emulator, with a fake Netlify
 * context; the Function itself (src/server/netlify/forms.ts) with the local outbox, and the
 * doors with a mail service whose sends the test holds, fails or hangs.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORMS } from '#src/lib/forms/forms.ts';
import { toFormBody } from '#src/lib/forms/send-form.ts';
import { createDoors } from '#src/server/doors.ts';
import type { MailService } from '#src/server/mail/mail-service.ts';
import { parseMailSettings } from '#src/server/mail/mail-settings.ts';
import { readOutbox } from '#src/server/mail/outbox.ts';
import type { DeliveryReport, WriteOutcome } from '#src/server/mail/outgoing.ts';
import netlifyForms from '#src/server/netlify/forms.ts';
import { useEmulator } from './support/emulator.ts';

const SITE = 'https://site.example';
const WAITLIST = FORMS.waitlist;
const unlimited = { take: async () => ({ ok: true as const }) };

/** The enhanced form's post of a waitlist sign-up, as the browser sends it from the site. */
const signUp = (email: string) =>
  new Request(`${SITE}${WAITLIST.path}`, {
    method: 'POST',
    headers: {
      accept: 'application/json',
      'content-type': 'application/x-www-form-urlencoded',
      origin: SITE,
      'sec-fetch-site': 'same-origin',
    },
    body: toFormBody({ email, interests: ['use'] }),
  });

describe('the Netlify Function sends its mail before it can be frozen', () => {
  const emulator = useEmulator();
  let outboxDir = '';
  const saved = { ...process.env };

  beforeAll(async () => {
    outboxDir = await mkdtemp(path.join(tmpdir(), 'netlify-outbox-'));
    // The Function reads its settings from process.env once, on its first request.
    process.env.AIRTABLE_API_KEY = emulator().apiKey;
    process.env.AIRTABLE_BASE_ID = emulator().baseId;
    process.env.AIRTABLE_ENDPOINT_URL = emulator().url;
    process.env.MAIL_OUTBOX_DIR = outboxDir;
    delete process.env.RESEND_API_KEY;
  });

  afterAll(async () => {
    process.env = saved;
    await rm(outboxDir, { recursive: true, force: true });
  });

  const mailTo = async (email: string) =>
    (await readOutbox(outboxDir)).filter((message) => message.headers.to === email);

  it('with context.waitUntil: answers, and hands the sending to waitUntil, which sees it sent', async () => {
    const kept: Promise<unknown>[] = [];
    const context = {
      ip: '192.0.2.10',
      waitUntil(promise: Promise<unknown>) {
        // Called as a method of the context, as Netlify's is.
        expect(this).toBe(context);
        kept.push(promise);
      },
    };
    const response = await netlifyForms(signUp('kept.alive@example.com'), context);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ success: true });
    expect(kept).toHaveLength(1);
    await Promise.all(kept);
    expect(await mailTo('kept.alive@example.com')).toHaveLength(1);
  });

  it('without waitUntil: the confirmation is in the outbox by the time the answer leaves', async () => {
    const response = await netlifyForms(signUp('awaited@example.com'), { ip: '192.0.2.11' });
    expect(response.status).toBe(200);
    // No polling: the Function may be frozen the moment it has answered.
    expect(await mailTo('awaited@example.com')).toHaveLength(1);
    expect(
      emulator()
        .records(WAITLIST.table)
        .map((record) => record.fields.Email),
    ).toEqual(['awaited@example.com']);
  });
});

describe('a send that fails or hangs never changes the answer or the record', () => {
  const emulator = useEmulator();

  /** A mail service whose every send is what `send` returns. */
  function doorsWith(send: () => Promise<DeliveryReport>, warnings: string[]) {
    const sent: WriteOutcome[] = [];
    const mail: MailService = {
      settings: parseMailSettings({}, { local: true }),
      afterWrite: (outcome) => {
        sent.push(outcome);
        return send();
      },
      reserveEmails: () => Promise.reject(new Error('the Node doors send; they never reserve for a queue')),
    };
    const doors = createDoors(
      {
        AIRTABLE_API_KEY: emulator().apiKey,
        AIRTABLE_BASE_ID: emulator().baseId,
        AIRTABLE_ENDPOINT_URL: emulator().url,
      },
      {
        mail,
        mailBoundMs: 200,
        warn: (message) => warnings.push(message),
        clientLimiter: unlimited,
        emailLimiter: unlimited,
      },
    );
    return { doors, sent };
  }

  const stored = (email: string) =>
    emulator()
      .records(WAITLIST.table)
      .filter((record) => record.fields.Email === email);

  it('answers while the send is still going, and the kept work settles once it is sent', async () => {
    let release: (report: DeliveryReport) => void = () => undefined;
    const sending = new Promise<DeliveryReport>((resolve) => (release = resolve));
    const warnings: string[] = [];
    const { doors, sent } = doorsWith(() => sending, warnings);
    const kept: Promise<void>[] = [];
    const response = await doors(signUp('slow@example.com'), { keepAlive: (work) => void kept.push(work) });
    expect(await response.json()).toMatchObject({ success: true });
    expect(sent).toHaveLength(1);
    let settled = false;
    void kept[0]?.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    release({ sent: 1, limited: 0 });
    await kept[0];
    expect(warnings).toEqual([]);
    expect(stored('slow@example.com')).toHaveLength(1);
  });

  it('a failed send: the same answer, one record, the kept work resolves and the failure is logged', async () => {
    const warnings: string[] = [];
    const { doors } = doorsWith(() => Promise.reject(new Error('provider down')), warnings);
    const kept: Promise<void>[] = [];
    const response = await doors(signUp('failed@example.com'), { keepAlive: (work) => void kept.push(work) });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ success: true });
    await expect(Promise.all(kept)).resolves.toEqual([undefined]);
    expect(warnings).toEqual(['Mail after a write failed: provider down']);
    expect(stored('failed@example.com')).toHaveLength(1);
  });

  it('a send that hangs: the kept work still settles within the mail bound', async () => {
    const warnings: string[] = [];
    const { doors } = doorsWith(() => new Promise<DeliveryReport>(() => undefined), warnings);
    const kept: Promise<void>[] = [];
    const response = await doors(signUp('hung@example.com'), { keepAlive: (work) => void kept.push(work) });
    expect(await response.json()).toMatchObject({ success: true });
    await Promise.all(kept);
    expect(warnings).toEqual(['Mail after a write took over 200 ms; not waited for']);
    expect(stored('hung@example.com')).toHaveLength(1);
  });
});
