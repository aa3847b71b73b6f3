import { EMAIL_COPY, WAITLIST_CONSENT_STATEMENT } from '#src/config/messages.ts';
import { type ConsentRecords } from '#src/server/privacy/consent-records.ts';
import { handleEmailLink } from '#src/server/links/actions.ts';
import {
  linkPurposeAt,
  type LinkForm,
  type LinkValues,
  EMAIL_LINK_PATHS,
  checkLink,
} from '#src/server/links/tokens.ts';
import { type ConsentState } from '#src/lib/forms/contract.ts';
import { signedUrl, type MailContext } from '#src/server/mail/emails.ts';
import { emailsFor, type WriteOutcome } from '#src/server/mail/plan.ts';

const SECRET = 'q'.repeat(40);
const SENT = new Date('2026-02-10T08:00:00Z');
const DAY = 24 * 3600 * 1000;
const context: MailContext = {
  from: { email: 'hello@podling.app' },
  siteUrl: 'https://www.podling.app',
  now: SENT,
  linkSecret: SECRET,
};

interface Row {
  id: string;
  form: LinkForm;
  email: string;
  consent?: ConsentState;
  confirmedAt?: Date;
  values?: LinkValues;
  updatedAt?: Date;
  consentText?: string;
}

/** An in-memory store that logs every write. */
function memoryRecords(rows: Row[]) {
  const writes: string[] = [];
  const records: ConsentRecords = {
    async find(form, email) {
      const row = rows.find((candidate) => candidate.form === form && candidate.email === email);
      if (!row) return null;
      const changedAt = row.updatedAt?.toISOString();
      return {
        id: row.id,
        ...(row.consent ? { consent: row.consent } : {}),
        ...(changedAt ? { changedAt } : {}),
      };
    },
    async setConsent(id, consent, at, statement) {
      const row = rows.find((candidate) => candidate.id === id);
      if (!row) throw new Error('no such row');
      Object.assign(row, { consent, updatedAt: at }, statement ? { consentText: statement } : {});
      if (consent === 'Confirmed') row.confirmedAt = at;
      writes.push(`${id}:${consent}`);
    },
    async createWithdrawn(email, at) {
      rows.push({
        id: `rec${rows.length + 1}`,
        form: 'waitlist',
        email,
        consent: 'Withdrawn',
        updatedAt: at,
      });
      writes.push(`create:${email}:Withdrawn`);
    },
    async applyValues(form, email, values, at, sentAt) {
      const row = rows.find((candidate) => candidate.form === form && candidate.email === email);
      if (row && JSON.stringify(row.values) === JSON.stringify(values)) return 'unchanged';
      if (row?.updatedAt && Math.floor(row.updatedAt.getTime() / 1000) > Math.floor(sentAt.getTime() / 1000))
        return 'superseded';
      if (row) Object.assign(row, { values, updatedAt: at });
      else rows.push({ id: `rec${rows.length + 1}`, form, email, values, updatedAt: at });
      writes.push(`apply:${form}:${email}`);
      return 'applied';
    },
  };
  return { records, writes, rows };
}

const request = (url: string, init?: RequestInit) => new Request(url, init);
const press = (url: string, extra: Record<string, string> = {}) => {
  const { pathname, searchParams } = new URL(url);
  return request(`https://www.podling.app${pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://www.podling.app' },
    body: new URLSearchParams({ token: searchParams.get('token') ?? '', ...extra }).toString(),
  });
};

/** The rejoin confirmations asked for (address and the withdrawal each is for), answering `outcome`. */
function rejoinMail(outcome = { queued: 1, limited: 0, held: 0 }) {
  const asked: [string, string][] = [];
  return {
    asked,
    rejoinMail: async (email: string, withdrawnAt: string) => {
      asked.push([email, withdrawnAt]);
      return outcome;
    },
  };
}

describe('email links', () => {
  it('knows its own paths', () => {
    for (const [purpose, path] of Object.entries(EMAIL_LINK_PATHS)) expect(linkPurposeAt(path)).toBe(purpose);
    expect(linkPurposeAt('/api/forms/waitlist')).toBeUndefined();
  });

  it('confirm: GET shows one button and changes nothing; pressing confirms; pressing again changes nothing', async () => {
    const store = memoryRecords([
      { id: 'rec1', form: 'waitlist', email: 'p@example.com', consent: 'Pending' },
    ]);
    const options = {
      records: store.records,
      linkSecrets: [SECRET],
      now: () => new Date(SENT.getTime() + DAY),
    };
    const url = await signedUrl(context, { purpose: 'confirm', form: 'waitlist', email: 'p@example.com' });

    const page = await handleEmailLink(request(url), options);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`<h1>${EMAIL_COPY.linkPages.confirmTitle}</h1>`);
    expect(html).toContain('<form method="post" action="/api/email/confirm">');
    expect(html.match(/<button/g)).toHaveLength(1);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(store.writes).toEqual([]);

    const done = await handleEmailLink(press(url), options);
    expect(done.status).toBe(200);
    expect(await done.text()).toContain(EMAIL_COPY.linkPages.confirmedTitle);
    expect(store.writes).toEqual(['rec1:Confirmed']);
    expect(store.rows[0]?.confirmedAt).toEqual(new Date(SENT.getTime() + DAY));

    expect((await handleEmailLink(press(url), options)).status).toBe(200);
    expect(store.writes, 'a second press writes nothing').toEqual(['rec1:Confirmed']);
  });

  it('a tampered link gets 400 and an expired one 410 with a way to sign up again; neither changes anything', async () => {
    const store = memoryRecords([
      { id: 'rec1', form: 'waitlist', email: 'p@example.com', consent: 'Pending' },
    ]);
    const url = await signedUrl(context, { purpose: 'confirm', form: 'waitlist', email: 'p@example.com' });
    const tampered = url.replace(/token=./, (match) => (match.endsWith('A') ? 'token=B' : 'token=A'));
    const fresh = { records: store.records, linkSecrets: [SECRET], now: () => SENT };
    const bad = await handleEmailLink(press(tampered), fresh);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain(EMAIL_COPY.linkPages.invalidTitle);
    expect((await handleEmailLink(request('https://www.podling.app/api/email/confirm'), fresh)).status).toBe(
      400,
    );

    const late = { ...fresh, now: () => new Date(SENT.getTime() + 8 * DAY) };
    const expired = await handleEmailLink(press(url), late);
    expect(expired.status).toBe(410);
    const html = await expired.text();
    expect(html).toContain(EMAIL_COPY.linkPages.expiredTitle);
    expect(html).toContain(`<a href="/#waitlist">${EMAIL_COPY.linkPages.expiredAction}</a>`);
    expect(store.writes).toEqual([]);
  });

  it('a link for one purpose does nothing at another’s path', async () => {
    const store = memoryRecords([
      { id: 'rec1', form: 'waitlist', email: 'p@example.com', consent: 'Confirmed' },
    ]);
    const confirm = await signedUrl(context, {
      purpose: 'confirm',
      form: 'waitlist',
      email: 'p@example.com',
    });
    const asUnsubscribe = confirm.replace(EMAIL_LINK_PATHS.confirm, EMAIL_LINK_PATHS.unsubscribe);
    const answer = await handleEmailLink(press(asUnsubscribe), {
      records: store.records,
      linkSecrets: [SECRET],
      now: () => SENT,
    });
    expect(answer.status).toBe(400);
    expect(store.writes).toEqual([]);
  });

  it('one-click unsubscribe (RFC 8058): a bare POST with no Origin or cookies answers 200 and withdraws; the record stays', async () => {
    const store = memoryRecords([
      { id: 'rec1', form: 'waitlist', email: 'p@example.com', consent: 'Confirmed' },
    ]);
    const url = await signedUrl(context, {
      purpose: 'unsubscribe',
      form: 'waitlist',
      email: 'p@example.com',
    });
    const options = {
      records: store.records,
      linkSecrets: [SECRET],
      now: () => new Date(SENT.getTime() + 400 * DAY),
    };
    const answer = await handleEmailLink(
      request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      }),
      options,
    );
    expect(answer.status).toBe(200);
    expect(store.rows).toEqual([expect.objectContaining({ id: 'rec1', consent: 'Withdrawn' })]);
    // Again: nothing more is written.
    await handleEmailLink(request(url, { method: 'POST', body: 'List-Unsubscribe=One-Click' }), options);
    expect(store.writes).toEqual(['rec1:Withdrawn']);
  });

  it('join again: the press only emails a fresh confirmation (the address stays Withdrawn); that confirmation confirms, an older one and a replay after a later withdrawal do not', async () => {
    const email = 'p@example.com';
    const store = memoryRecords([{ id: 'rec1', form: 'waitlist', email, consent: 'Confirmed' }]);
    const mail = rejoinMail();
    let now = SENT;
    const options = { records: store.records, linkSecrets: [SECRET], now: () => now, ...mail };
    const oldConfirm = await signedUrl(context, { purpose: 'confirm', form: 'waitlist', email });
    const unsubscribe = await signedUrl(context, { purpose: 'unsubscribe', form: 'waitlist', email });
    const done = await (await handleEmailLink(press(unsubscribe), options)).text();
    expect(store.rows[0]?.consent).toBe('Withdrawn');
    expect(done).toContain(EMAIL_COPY.linkPages.rejoinAction);
    expect(done).toContain('name="rejoin" value="1"');
    const withdrawnAt = SENT.toISOString();

    now = new Date(SENT.getTime() + 60_000);
    const rejoin = await handleEmailLink(press(unsubscribe, { rejoin: '1' }), options);
    expect(rejoin.status).toBe(200);
    expect(await rejoin.text()).toContain(EMAIL_COPY.linkPages.rejoinSentBody);
    expect(mail.asked).toEqual([[email, withdrawnAt]]);
    expect(store.writes, 'nothing changes until the confirmation is pressed').toEqual(['rec1:Withdrawn']);

    // A confirmation sent before the withdrawal still does nothing.
    expect((await handleEmailLink(press(oldConfirm), options)).status).toBe(410);
    const fresh = await signedUrl(
      { ...context, now },
      { purpose: 'confirm', form: 'waitlist', email, withdrawnAt },
    );
    const back = await handleEmailLink(press(fresh), options);
    expect(await back.text()).toContain(EMAIL_COPY.linkPages.rejoinedTitle);
    expect(store.rows[0]).toMatchObject({ consent: 'Confirmed', consentText: WAITLIST_CONSENT_STATEMENT });
    expect(await (await handleEmailLink(press(fresh), options)).text()).toContain(
      EMAIL_COPY.linkPages.alreadyConfirmedTitle,
    );

    // Withdrawn again: the rejoin confirmation (still within its 7 days) no longer applies.
    now = new Date(now.getTime() + 60_000);
    await handleEmailLink(press(unsubscribe), options);
    expect((await handleEmailLink(press(fresh), options)).status).toBe(410);
    expect(store.writes).toEqual(['rec1:Withdrawn', 'rec1:Confirmed', 'rec1:Withdrawn']);
  });

  it('join again past the inbox’s mail limits says no email went and changes nothing; with no mail at all, 503', async () => {
    const store = memoryRecords([
      { id: 'rec1', form: 'waitlist', email: 'p@example.com', consent: 'Withdrawn', updatedAt: SENT },
    ]);
    const unsubscribe = await signedUrl(context, {
      purpose: 'unsubscribe',
      form: 'waitlist',
      email: 'p@example.com',
    });
    const options = { records: store.records, linkSecrets: [SECRET], now: () => SENT };
    const limited = await handleEmailLink(press(unsubscribe, { rejoin: '1' }), {
      ...options,
      ...rejoinMail({ queued: 0, limited: 1, held: 0 }),
    });
    expect(await limited.text()).toContain(EMAIL_COPY.linkPages.rejoinLimitedBody);
    expect((await handleEmailLink(press(unsubscribe, { rejoin: '1' }), options)).status).toBe(503);
    expect(store.writes).toEqual([]);
  });

  it('the rejoin confirmation: its own words, to the address, and a confirm link signed for that withdrawal', async () => {
    const withdrawnAt = '2026-02-09T10:00:00.000Z';
    const rejoin: WriteOutcome = {
      form: 'waitlist',
      email: 'P@example.com',
      outcome: 'rejoin',
      values: {},
      withdrawnAt,
      key: `rejoin:${SENT.toISOString()}`,
    };
    const [email, ...more] = await emailsFor(rejoin, context, { SCHOOLS_TEAM_EMAIL: 'schools@podling.app' });
    expect(more).toEqual([]);
    expect(email).toMatchObject({ message: { to: 'P@example.com', subject: EMAIL_COPY.rejoin.subject } });
    expect(email?.message.text).toContain(EMAIL_COPY.rejoin.intro);
    const link = /https:\/\/\S+\/api\/email\/confirm\?token=(\S+)/.exec(email?.message.text ?? '');
    const check = await checkLink(decodeURIComponent(link?.[1] ?? ''), 'confirm', [SECRET], SENT);
    expect(check).toMatchObject({ ok: true, claims: { email: 'P@example.com', withdrawnAt } });
  });

  it('unsubscribing from a quote email leaves a Withdrawn suppression entry, and its token never joins the waitlist', async () => {
    const store = memoryRecords([{ id: 'rec1', form: 'quote', email: 'head@school.sch.uk' }]);
    const url = await signedUrl(context, {
      purpose: 'unsubscribe',
      form: 'quote',
      email: 'head@school.sch.uk',
    });
    const mail = rejoinMail();
    const options = { records: store.records, linkSecrets: [SECRET], now: () => SENT, ...mail };
    const get = await handleEmailLink(request(url), options);
    expect(await get.text()).toContain(EMAIL_COPY.linkPages.unsubscribeButton);
    const done = await (await handleEmailLink(press(url), options)).text();
    expect(done).toContain(EMAIL_COPY.linkPages.unsubscribedTitle);
    expect(done, 'no way to join “again” what it never joined').not.toContain('name="rejoin"');
    const rejoin = await handleEmailLink(press(url, { rejoin: '1' }), options);
    expect(rejoin.status).toBe(400);
    expect(mail.asked).toEqual([]);
    expect(store.writes).toEqual(['create:head@school.sch.uk:Withdrawn']);
    expect(store.rows[1]?.consent).toBe('Withdrawn');
  });

  it('a held change: the page shows the values escaped; pressing applies them once and tells the schools team', async () => {
    const store = memoryRecords([
      { id: 'rec1', form: 'quote', email: 'head@school.sch.uk', values: { school: 'Old' } },
    ]);
    const told: string[] = [];
    const options = {
      records: store.records,
      linkSecrets: [SECRET],
      now: () => SENT,
      tellTeam: async (_form: string, email: string) => {
        told.push(email);
      },
    };
    const values = { school: '<b>New</b> School', useCases: ['Literacy', 'Other: radio'] };
    const url = await signedUrl(context, {
      purpose: 'change',
      form: 'quote',
      email: 'head@school.sch.uk',
      values,
    });
    const page = await (await handleEmailLink(request(url), options)).text();
    expect(page).toContain('&lt;b&gt;New&lt;/b&gt; School');
    expect(page).toContain('Literacy, Other: radio');
    expect(store.writes).toEqual([]);
    await handleEmailLink(press(url), options);
    await handleEmailLink(press(url), options);
    expect(store.writes).toEqual(['apply:quote:head@school.sch.uk']);
    expect(told).toEqual(['head@school.sch.uk']);
  });

  it('two change links pressed in turn: the newer applies once, the older then changes nothing and tells no one', async () => {
    const store = memoryRecords([
      { id: 'rec1', form: 'quote', email: 'head@school.sch.uk', values: { school: 'Old' } },
    ]);
    const told: string[] = [];
    let now = SENT;
    const options = {
      records: store.records,
      linkSecrets: [SECRET],
      now: () => now,
      tellTeam: async (_form: string, email: string) => void told.push(email),
    };
    const older = await signedUrl(context, {
      purpose: 'change',
      form: 'quote',
      email: 'head@school.sch.uk',
      values: { school: 'A' },
    });
    const newer = await signedUrl(
      { ...context, now: new Date(SENT.getTime() + 60_000) },
      { purpose: 'change', form: 'quote', email: 'head@school.sch.uk', values: { school: 'B' } },
    );
    now = new Date(SENT.getTime() + 120_000);
    expect((await handleEmailLink(press(newer), options)).status).toBe(200);
    for (let round = 0; round < 10; round += 1) {
      now = new Date(now.getTime() + 5_000);
      const answer = await handleEmailLink(press(round % 2 ? newer : older), options);
      expect(answer.status).toBe(round % 2 ? 200 : 410);
      if (answer.status === 410) expect(await answer.text()).toContain(EMAIL_COPY.linkPages.supersededTitle);
    }
    expect(store.writes).toEqual(['apply:quote:head@school.sch.uk']);
    expect(store.rows[0]?.values).toEqual({ school: 'B' });
    expect(told).toEqual(['head@school.sch.uk']);
  });

  it('a store failure answers 503 with a page, never a crash', async () => {
    const store = memoryRecords([]);
    const url = await signedUrl(context, { purpose: 'confirm', form: 'waitlist', email: 'p@example.com' });
    const failing = { ...store.records, find: () => Promise.reject(new Error('Airtable down')) };
    const logged: string[] = [];
    const answer = await handleEmailLink(press(url), {
      records: failing,
      linkSecrets: [SECRET],
      now: () => SENT,
      log: (line) => logged.push(line),
    });
    expect(answer.status).toBe(503);
    expect(logged).toEqual([expect.stringContaining('Airtable down')]);
  });

  it('PUT and DELETE get 405', async () => {
    const store = memoryRecords([]);
    const answer = await handleEmailLink(
      request('https://www.podling.app/api/email/confirm', { method: 'DELETE' }),
      {
        records: store.records,
        linkSecrets: [SECRET],
        now: () => SENT,
      },
    );
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('GET, HEAD, POST');
  });
});
