// @vitest-environment node
/**
 * The emails' links are a door like the forms' (issue 40): a press counts against the client's
 * per-minute budget, and its body is read within the doors' bounds. Opening a link (GET) changes
 * nothing and is never refused for it.
 */
import { describe, expect, it } from 'vitest';
import { EMAIL_COPY } from '#src/config/messages.ts';
import { EMAIL_LINK_PATHS } from '#src/server/links/tokens.ts';
import { signedUrl } from '#src/server/mail/emails.ts';
import { REQUEST_MAX_BODY_BYTES } from '#src/server/doors/body.ts';
import { SUBMISSIONS_PER_CLIENT_PER_MINUTE } from '#src/server/doors/limiters.ts';
import { createDoors } from '#src/server/doors/routes.ts';
import { memoryMailLedger } from '#src/server/mail/ledger.ts';
import type { MailJob } from '#src/server/mail/message.ts';
import { parseMailSettings } from '#src/server/settings.ts';
import { createPacer } from '#src/server/airtable/pacer.ts';

const SITE = 'https://podling.test';
const UNSUBSCRIBE = `${SITE}${EMAIL_LINK_PATHS.unsubscribe}`;

const SECRET = 's'.repeat(40);

/** The doors over a stub Airtable whose every lookup finds `found` (none by default). */
function linkDoor(found: { id: string; fields: Record<string, unknown> }[] = []) {
  const airtableCalls: string[] = [];
  const jobs: MailJob[] = [];
  const doors = createDoors(
    {
      AIRTABLE_API_KEY: 'patServer',
      AIRTABLE_BASE_ID: 'appReal',
      AIRTABLE_ENDPOINT_URL: 'https://airtable.test',
    },
    {
      queue: { send: async () => undefined },
      siteOrigin: SITE,
      pacer: createPacer(),
      fetch: async (input, init) => {
        airtableCalls.push(`${init?.method ?? 'GET'} ${String(input)}`);
        return Response.json({ records: found });
      },
      warn: () => undefined,
      mail: {
        settings: parseMailSettings({ LINK_SECRET: SECRET }),
        ledger: memoryMailLedger(),
        enqueue: async (job) => void jobs.push(job),
        deadLetter: undefined,
      },
    },
  );
  return { doors, airtableCalls, jobs };
}

const press = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request(UNSUBSCRIBE, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
  });

describe('the emails’ links as a door', () => {
  it('join again: queues one fresh confirmation to the address within its mail limits, and writes nothing', async () => {
    const email = 'leaver@example.com';
    const withdrawnAt = '2026-02-10T08:00:00.000Z';
    const { doors, airtableCalls, jobs } = linkDoor([
      { id: 'rec1', fields: { Email: email, Consent: 'Withdrawn', 'Last Updated': withdrawnAt } },
    ]);
    const context = {
      from: { email: 'hello@podling.app' },
      siteUrl: SITE,
      now: new Date(),
      linkSecret: SECRET,
    };
    const token = new URL(
      await signedUrl(context, { purpose: 'unsubscribe', form: 'waitlist', email }),
    ).searchParams.get('token');
    const rejoin = () => doors(press(new URLSearchParams({ token: token ?? '', rejoin: '1' })));
    expect(await (await rejoin()).text()).toContain(EMAIL_COPY.linkPages.rejoinSentTitle);
    expect(jobs).toEqual([
      expect.objectContaining({
        email,
        message: expect.objectContaining({ to: email, subject: EMAIL_COPY.rejoin.subject }),
      }),
    ]);
    // Pressed again at once: the inbox's limit holds, and the page says nothing went.
    expect(await (await rejoin()).text()).toContain(EMAIL_COPY.linkPages.rejoinLimitedTitle);
    expect(jobs).toHaveLength(1);
    // Lookups only (listRecords): the record is written by the confirmation's press, not this one.
    expect(airtableCalls.filter((call) => !call.endsWith('/listRecords'))).toEqual([]);
  });

  it('refuse a flood of presses from one client past the per-client limit, and serve another client', async () => {
    const { doors, airtableCalls } = linkDoor();
    const statuses: number[] = [];
    for (let i = 0; i < SUBMISSIONS_PER_CLIENT_PER_MINUTE + 5; i += 1)
      statuses.push((await doors(press('token=forged'), { address: '198.51.100.7' })).status);
    expect(statuses.slice(0, SUBMISSIONS_PER_CLIENT_PER_MINUTE)).toEqual(
      Array(SUBMISSIONS_PER_CLIENT_PER_MINUTE).fill(400),
    );
    expect(statuses.slice(SUBMISSIONS_PER_CLIENT_PER_MINUTE)).toEqual(Array(5).fill(429));
    const refused = await doors(press('token=forged'), { address: '198.51.100.7' });
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await refused.text()).toContain('Nothing has changed');
    expect((await doors(press('token=forged'), { address: '203.0.113.9' })).status).toBe(400);
    // Opening the link is not a write: never counted, never refused for the client's budget.
    const opened = await doors(new Request(`${UNSUBSCRIBE}?token=forged`), { address: '198.51.100.7' });
    expect(opened.status).toBe(400);
    expect(airtableCalls).toEqual([]);
  });

  it('read a press’s body within the doors’ bound: an oversized one is refused, none of it kept', async () => {
    const { doors } = linkDoor();
    const large = `token=${'x'.repeat(REQUEST_MAX_BODY_BYTES)}`;
    const declared = await doors(press(large), { address: '198.51.100.8' });
    expect(declared.status).toBe(413);
    // A body that does not declare its length is refused too, once it passes the bound as it streams.
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 64; i += 1) controller.enqueue(new TextEncoder().encode('x'.repeat(1024)));
        controller.close();
      },
    });
    const streamed = await doors(
      new Request(UNSUBSCRIBE, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: stream,
        duplex: 'half',
      } as RequestInit),
      { address: '198.51.100.8' },
    );
    expect(streamed.status).toBe(413);
  });
});
