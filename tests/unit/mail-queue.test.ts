// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { EMAIL_COPY } from '#src/config/messages.ts';
import { sendMailJobs } from '#src/server/mail/send.ts';
import { memoryMailLedger } from '#src/server/mail/ledger.ts';
import { cloudflareMailer } from '#src/server/host.ts';
import { type Mailer, MailFailure, type MailJob } from '#src/server/mail/message.ts';
import { parseMailSettings } from '#src/server/settings.ts';
import { createPacer } from '#src/server/airtable/pacer.ts';
import { createRoundWriter } from '#src/server/desk/round-writer.ts';
import { roundItem, writeRound } from './support/round-item.ts';
import type { QueuedSubmission } from '#src/server/queues/messages.ts';
import { queueMessage as message } from './support/queue-message.ts';

const ENV = {
  AIRTABLE_API_KEY: 'patServer',
  AIRTABLE_BASE_ID: 'appBase',
  AIRTABLE_ENDPOINT_URL: 'https://airtable.test',
};
const ORIGIN = 'https://www.podling.test';
const NOW = Date.parse('2026-05-04T09:00:00Z');

const signUp = (email: string, acceptedAt = '2026-05-04T08:59:00.000Z'): QueuedSubmission => ({
  table: 'Waitlist',
  email,
  acceptedAt,
  cells: { Email: email, Interests: ['Use Podling'] },
  origin: ORIGIN,
});

/** Airtable stand-in: the stored emails (with their Consent, if given), and what each write sent. */
function fakeAirtable(stored: string[] = [], consent: Record<string, string> = {}) {
  const writes: { method: string; records: { fields: Record<string, unknown> }[] }[] = [];
  const fetchStub: typeof fetch = async (input, init) => {
    const body = JSON.parse(String(init?.body ?? '{}')) as {
      records?: { id?: string; fields: Record<string, unknown> }[];
      filterByFormula?: string;
    };
    if (String(input).endsWith('/listRecords'))
      return Response.json({
        records: stored
          .filter((email) => body.filterByFormula?.includes(`'${email}'`))
          .map((email, i) => ({ id: `recOld${i}`, fields: { Email: email, Consent: consent[email] } })),
      });
    writes.push({ method: init?.method ?? 'GET', records: body.records ?? [] });
    return Response.json({
      records: (body.records ?? []).map((record, i) => ({
        id: record.id ?? `recNew${i}`,
        fields: record.fields,
      })),
    });
  };
  return { writes, fetch: fetchStub };
}

function mailFor(enqueue: (job: MailJob) => Promise<void>, kept: MailJob[] = []) {
  return {
    settings: parseMailSettings({ SCHOOLS_TEAM_EMAIL: 'team@podling.test', LINK_SECRET: 'k'.repeat(32) }),
    ledger: memoryMailLedger(),
    enqueue,
    deadLetter: async (job: MailJob) => {
      kept.push(job);
    },
  };
}

const writer = (airtable: ReturnType<typeof fakeAirtable>, mail: ReturnType<typeof mailFor>) =>
  createRoundWriter(ENV, {
    fetch: airtable.fetch,
    pacer: createPacer({ perSecond: 1000 }),
    now: () => NOW,
    log: () => undefined,
    mail,
  });

describe("the Worker's queue writer with mail", () => {
  it('queues each write’s emails once that write answers, in the order of sign-up, without waiting for the batch', async () => {
    const sent: string[] = [];
    const held: (() => void)[] = [];
    // The second write's answer waits for the test; the others answer at once.
    const fetchStub: typeof fetch = async (input, init) => {
      const body = JSON.parse(String(init?.body ?? '{}')) as {
        records?: { fields: Record<string, unknown> }[];
      };
      if (String(input).endsWith('/listRecords')) return Response.json({ records: [] });
      sent.push(String(body.records?.[0]?.fields.Email));
      const answer = Response.json({
        records: (body.records ?? []).map((record, i) => ({
          id: `rec${sent.length}x${i}`,
          fields: record.fields,
        })),
      });
      if (sent.length === 2) await new Promise<void>((resolve) => held.push(resolve));
      return answer;
    };
    const jobs: string[] = [];
    const mail = mailFor(async (job) => void jobs.push(job.email));
    const entries = Array.from({ length: 25 }, (_, i) =>
      roundItem(signUp(`n${i}@example.com`, `2026-05-04T08:59:${String(i).padStart(2, '0')}.000Z`)),
    );
    const batch = writeRound(
      createRoundWriter(ENV, {
        fetch: fetchStub,
        pacer: createPacer({ perSecond: 1000 }),
        now: () => NOW,
        log: () => undefined,
        mail,
      }),
      entries,
    );
    // The third write went out while the second had no answer, and the first's ten emails are queued.
    await vi.waitFor(() => expect(sent).toHaveLength(3));
    await vi.waitFor(() => expect(jobs).toHaveLength(10));
    expect(jobs).toEqual(Array.from({ length: 10 }, (_, i) => `n${i}@example.com`));
    expect(entries.slice(0, 10).every((entry) => entry.state.acked)).toBe(true);
    expect(entries.slice(10, 20).some((entry) => entry.state.acked)).toBe(false);
    held[0]?.();
    await batch;
    expect(jobs).toEqual(Array.from({ length: 25 }, (_, i) => `n${i}@example.com`));
  });

  it('looks the quote contacts up on the suppression list in the sign-ups’ own lookup', async () => {
    const lookups: { table: string; formula: string }[] = [];
    const writes: string[] = [];
    const fetchStub: typeof fetch = async (input, init) => {
      const body = JSON.parse(String(init?.body ?? '{}')) as {
        records?: { fields: Record<string, unknown> }[];
        filterByFormula?: string;
      };
      const table = decodeURIComponent(String(input).split('/')[5] ?? '');
      if (String(input).endsWith('/listRecords')) {
        lookups.push({ table, formula: body.filterByFormula ?? '' });
        // One quote contact withdrew from the waitlist.
        const withdrawn = table === 'Waitlist' && body.filterByFormula?.includes("'q0@school.test'");
        return Response.json({
          records: withdrawn
            ? [{ id: 'recW', fields: { Email: 'q0@school.test', Consent: 'Withdrawn' } }]
            : [],
        });
      }
      writes.push(table);
      return Response.json({
        records: (body.records ?? []).map((record, i) => ({
          id: `rec${writes.length}x${i}`,
          fields: record.fields,
        })),
      });
    };
    const quote = (email: string): QueuedSubmission => ({
      table: 'School Quotes',
      email,
      acceptedAt: '2026-05-04T08:59:30.000Z',
      cells: { Email: email, 'Contact Name': 'Ada', 'School Name': 'Hill' },
      origin: ORIGIN,
    });
    const jobs: MailJob[] = [];
    const entries = [
      ...Array.from({ length: 20 }, (_, i) => roundItem(signUp(`s${i}@example.com`))),
      ...Array.from({ length: 5 }, (_, i) => roundItem(quote(`q${i}@school.test`))),
    ];
    const report = await writeRound(
      createRoundWriter(ENV, {
        fetch: fetchStub,
        pacer: createPacer({ perSecond: 1000 }),
        now: () => NOW,
        log: () => undefined,
        mail: mailFor(async (job) => void jobs.push(job)),
      }),
      entries,
    );
    // Two lookups (one per table, the contacts in the waitlist's) and three writes: 5 requests, not 6.
    expect(lookups.map((lookup) => lookup.table).sort()).toEqual(['School Quotes', 'Waitlist']);
    expect(lookups.find((lookup) => lookup.table === 'Waitlist')?.formula).toContain("'q4@school.test'");
    expect(writes.sort()).toEqual(['School Quotes', 'Waitlist', 'Waitlist']);
    expect(report).toMatchObject({ created: 25 });
    expect(lookups.length + writes.length).toBe(5);
    // The withdrawn contact hears nothing; the team hears of every quote.
    const to = (email: string) => jobs.filter((job) => job.message.to === email).length;
    expect(to('q0@school.test')).toBe(0);
    expect(to('q1@school.test')).toBe(1);
    expect(to('team@podling.test')).toBe(5);
  });

  it('treats every quote contact as withdrawn when the suppression list cannot be read: only the team hears', async () => {
    const fetchStub: typeof fetch = async (input, init) => {
      const body = JSON.parse(String(init?.body ?? '{}')) as {
        records?: { fields: Record<string, unknown> }[];
      };
      const table = decodeURIComponent(String(input).split('/')[5] ?? '');
      if (String(input).endsWith('/listRecords'))
        return table === 'Waitlist'
          ? Response.json({ error: { type: 'SERVER_ERROR' } }, { status: 500 })
          : Response.json({ records: [] });
      return Response.json({
        records: (body.records ?? []).map((record, i) => ({ id: `rec${i}`, fields: record.fields })),
      });
    };
    const jobs: MailJob[] = [];
    const lines: string[] = [];
    const report = await writeRound(
      createRoundWriter(ENV, {
        fetch: fetchStub,
        pacer: createPacer({ perSecond: 1000 }),
        now: () => NOW,
        log: (line) => void lines.push(line),
        mail: mailFor(async (job) => void jobs.push(job)),
      }),
      ['q0@school.test', 'q1@school.test'].map((email) =>
        roundItem({
          table: 'School Quotes',
          email,
          acceptedAt: '2026-05-04T08:59:30.000Z',
          cells: { Email: email, 'Contact Name': 'Ada', 'School Name': 'Hill' },
          origin: ORIGIN,
        }),
      ),
    );
    expect(report).toMatchObject({ created: 2, retried: 0 });
    expect(lines.some((line) => line.includes('the suppression list could not be read'))).toBe(true);
    expect(jobs.map((job) => job.message.to)).toEqual(['team@podling.test', 'team@podling.test']);
  });

  it('stores a new address Pending and queues one confirmation, after the write', async () => {
    const airtable = fakeAirtable();
    const jobs: MailJob[] = [];
    const entry = roundItem(signUp('new@example.com'));
    const { state } = entry;
    const report = await writeRound(
      writer(
        airtable,
        mailFor(async (job) => {
          expect(airtable.writes).toHaveLength(1); // the record first, then its mail
          jobs.push(job);
        }),
      ),
      [entry],
    );
    expect(airtable.writes[0]?.records[0]?.fields).toMatchObject({ Consent: 'Pending' });
    expect(state.acked).toBe(true);
    expect(report).toMatchObject({ created: 1, emailsQueued: 1 });
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ kind: 'mail', email: 'new@example.com', form: 'waitlist' });
    expect(jobs[0]?.message).toMatchObject({ to: 'new@example.com', subject: EMAIL_COPY.confirm.subject });
    expect(jobs[0]?.message.text).toContain(`${ORIGIN}/api/email/confirm?token=`);
  });

  it('holds a stored address (writes nothing) and queues the change email to it', async () => {
    const airtable = fakeAirtable(['kept@example.com']);
    const jobs: MailJob[] = [];
    const entry = roundItem(signUp('kept@example.com'));
    const { state } = entry;
    const report = await writeRound(
      writer(
        airtable,
        mailFor(async (job) => {
          jobs.push(job);
        }),
      ),
      [entry],
    );
    expect(airtable.writes).toHaveLength(0);
    expect(state.acked).toBe(true);
    expect(report).toMatchObject({ held: 1, stored: 0, emailsQueued: 1 });
    expect(jobs[0]?.message.subject).toBe(EMAIL_COPY.change.subject);
  });

  it('holds a stored address that withdrew and sends it nothing, not even the change email', async () => {
    const airtable = fakeAirtable(['gone@example.com'], { 'gone@example.com': 'Withdrawn' });
    const jobs: MailJob[] = [];
    const report = await writeRound(
      writer(
        airtable,
        mailFor(async (job) => {
          jobs.push(job);
        }),
      ),
      [roundItem(signUp('gone@example.com'))],
    );
    expect(airtable.writes).toHaveLength(0);
    expect(report).toMatchObject({ held: 1, stored: 0, emailsQueued: 0 });
    expect(jobs).toEqual([]);
  });

  it('acknowledges the stored submission when its mail cannot be queued, and keeps the email as a dead letter', async () => {
    const airtable = fakeAirtable();
    const kept: MailJob[] = [];
    const entry = roundItem(signUp('queue-down@example.com'));
    const { state } = entry;
    await writeRound(
      writer(
        airtable,
        mailFor(async () => {
          throw new Error('queue unavailable');
        }, kept),
      ),
      [entry],
    );
    expect(airtable.writes).toHaveLength(1);
    expect(state.acked).toBe(true);
    expect(state.retried).toBeUndefined();
    expect(kept).toHaveLength(1);
  });

  it('counts emails against the limits when it queues them: a second address of one inbox within 10 minutes gets none', async () => {
    const jobs: MailJob[] = [];
    const mail = mailFor(async (job) => {
      jobs.push(job);
    });
    await writeRound(writer(fakeAirtable(), mail), [roundItem(signUp('ada@example.com'))]);
    const report = await writeRound(writer(fakeAirtable(), mail), [
      roundItem(signUp('ada+list@example.com', '2026-05-04T08:59:30.000Z')),
    ]);
    expect(jobs).toHaveLength(1);
    expect(report).toMatchObject({ created: 1, emailsQueued: 0, emailsLimited: 1 });
  });
});

describe("the Worker's mail queue consumer", () => {
  const job = (key: string): MailJob => ({
    kind: 'mail',
    email: 'a@example.com',
    form: 'waitlist',
    queuedAt: '2026-05-04T09:00:00.000Z',
    message: {
      from: { email: 'hello@podling.app', name: 'Podling' },
      to: 'a@example.com',
      subject: 'Hello',
      text: 'text',
      html: '<p>html</p>',
      headers: {},
      idempotencyKey: key,
    },
  });
  const mailer = (send: Mailer['send']): Mailer => ({ send });
  /** sendMailJobs' options over a fresh ledger, with a mailer that records each key it sends. */
  const recordingSender = () => {
    const sent: string[] = [];
    const ledger = memoryMailLedger();
    const send: Mailer['send'] = async (m) => {
      sent.push(m.idempotencyKey);
      return { id: m.idempotencyKey };
    };
    return { sent, ledger, options: { mailer: mailer(send), ledger, log: () => undefined } };
  };

  it('sends each job once: a job delivered again after its email went out is acknowledged, not sent', async () => {
    const { sent, options } = recordingSender();
    const first = message(job('confirm:1'));
    expect(await sendMailJobs([{ message: first.msg, job: job('confirm:1') }], options)).toMatchObject({
      sent: 1,
    });
    const again = message(job('confirm:1'), 2);
    expect(await sendMailJobs([{ message: again.msg, job: job('confirm:1') }], options)).toMatchObject({
      sent: 0,
      alreadySent: 1,
    });
    expect(sent).toEqual(['confirm:1']);
    expect(first.state.acked && again.state.acked).toBe(true);
  });

  it('never sends an email queued before its address was erased; one queued after it, and other addresses, go', async () => {
    const { sent, ledger, options } = recordingSender();
    // Erased as typed by the owner: matched as the site matches emails.
    await ledger.markErased('  A@Example.com ', new Date('2026-05-04T09:00:00.000Z'));
    const queuedAt = (key: string, at: string, email = 'a@example.com'): MailJob => ({
      ...job(key),
      email,
      queuedAt: at,
    });
    const jobs = [
      queuedAt('confirm:before', '2026-05-04T08:59:59.999Z'),
      queuedAt('team:same-ms', '2026-05-04T09:00:00.000Z'),
      queuedAt('confirm:unreadable', 'not a time'),
      queuedAt('confirm:after', '2026-05-04T09:00:00.001Z'),
      queuedAt('confirm:other', '2026-05-04T08:00:00.000Z', 'b@example.com'),
    ].map((body) => ({ body, ...message(body) }));
    const report = await sendMailJobs(
      jobs.map(({ msg, body }) => ({ message: msg, job: body })),
      options,
    );
    expect(report).toMatchObject({ sent: 2, erased: 3, retried: 0 });
    expect(sent.sort()).toEqual(['confirm:after', 'confirm:other']);
    // All acknowledged: the queue never hands the erased ones over again.
    expect(jobs.every(({ state }) => state.acked && state.retried === undefined)).toBe(true);
  });

  it('retries a send that may pass later, with backoff, and dead-letters one that cannot', async () => {
    const kept: MailJob[] = [];
    const failing = (retryable: boolean) =>
      mailer(async () => {
        throw new MailFailure('refused', retryable);
      });
    const send = (key: string, retryable: boolean, attempts?: number) => {
      const queued = message(job(key), attempts);
      return sendMailJobs([{ message: queued.msg, job: job(key) }], {
        mailer: failing(retryable),
        ledger: memoryMailLedger(),
        deadLetter: async (j) => {
          kept.push(j);
        },
        log: () => undefined,
      }).then(() => queued.state);
    };
    expect(await send('team:1', true, 3)).toEqual({ acked: false, retried: { delaySeconds: 8 } });
    const never = { state: await send('team:2', false) };
    expect(never.state.acked).toBe(true);
    expect(kept.map((j) => j.message.idempotencyKey)).toEqual(['team:2']);
  });

  it("reads Cloudflare's error codes: a suppressed recipient is final, a rate limit or no code is retried", async () => {
    const failWith = (code?: string) =>
      cloudflareMailer({
        send: async () => {
          throw Object.assign(new Error('send failed'), code ? { code } : {});
        },
      }).send(job('x').message);
    await expect(failWith('E_RECIPIENT_SUPPRESSED')).rejects.toMatchObject({ retryable: false });
    await expect(failWith('E_RATE_LIMIT_EXCEEDED')).rejects.toMatchObject({ retryable: true });
    await expect(failWith()).rejects.toMatchObject({ retryable: true });
  });
});
