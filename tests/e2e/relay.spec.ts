import { EMAIL_COPY } from '#src/config/messages.ts';
import { QUOTE_FORM as QUOTE_CONTRACT } from '#src/lib/forms/forms.ts';
import type { APIRequestContext, Page } from '@playwright/test';
import { DEV_URL, GA_SCRIPT_URL, RELAY_EMULATOR_URL as AIRTABLE, SITE_RELAY_URL } from './support/config.mjs';
import {
  addFault,
  allRecords,
  emulatorRequestsSince,
  QUOTES_TABLE,
  recordsFor,
  seedRecord,
  storedEmail,
  storedRecordsFor,
  WAITLIST_TABLE,
} from './support/emulator.ts';
import { expect, expectConsoleErrors, test } from './support/fixtures.ts';
import { FAILURE_TOAST, QUOTE_FORM, WAITLIST_FORM } from './support/forms.ts';
import { emailedLink, emailsTo } from './support/outbox.ts';
import {
  fillQuote,
  joinWaitlist,
  openForm,
  stubCalendarWithNoContent,
  textbox,
  uniqueEmail,
} from './support/page.ts';

/** The schools team's address while SCHOOLS_TEAM_EMAIL is unset, as in the local runs. */
const SCHOOLS_TEAM = QUOTE_CONTRACT.conduct.tellsTeam.defaultAddress;

/**
 * Relay mode, the default without a browser key: the enhanced form posts its fields to its door
 * on the site's own origin (/api/forms/waitlist, /api/forms/quote, the same fields as the native
 * post, asking for JSON), and the door (vite preview here, the same handler as the Worker and the
 * Netlify Function) performs the upsert against the emulator with the server's token. The page
 * never speaks Airtable's protocol. Serial: the 429 case shuts the dev server's pacer for 30 s,
 * so it runs last.
 */
test.describe.configure({ mode: 'serial' });

const DOORS = {
  waitlist: `${SITE_RELAY_URL}/api/forms/waitlist`,
  quote: `${SITE_RELAY_URL}/api/forms/quote`,
};

/** Every request the page sends, so a test can say where storage traffic went. */
function watchRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => urls.push(`${request.method()} ${request.url()}`));
  return urls;
}

/** A stranger's request from the site's own origin, as anyone could send from the console. */
async function fromThePage(
  page: Page,
  path: string,
  init: { method?: string; body?: string; type?: string } = {},
): Promise<{ status: number; text: string }> {
  return page.evaluate(
    async ({ url, init }) => {
      const response = await fetch(url, {
        method: init.method,
        body: init.body,
        headers: {
          accept: 'application/json',
          'content-type': init.type ?? 'application/x-www-form-urlencoded',
        },
      });
      return { status: response.status, text: await response.text() };
    },
    { url: path, init },
  );
}

/** Requests that reached the relay site's own Airtable (only this file's tests use it). */
async function rateLimitedSince(
  request: APIRequestContext,
  since: number,
  emulator = AIRTABLE,
): Promise<number> {
  return (await emulatorRequestsSince(request, since, emulator)).filter((entry) => entry.status === 429)
    .length;
}

test('the waitlist stores through its door, and the page holds no token or base id', async ({
  page,
  visit,
  request,
}, testInfo) => {
  const urls = watchRequests(page);
  const email = uniqueEmail(testInfo, 'e2e.relay-join');
  await openForm(page, visit, '/', WAITLIST_FORM.formSelector, { base: SITE_RELAY_URL });
  await joinWaitlist(page, email);
  await expect(page.getByRole('button', { name: WAITLIST_FORM.joinedText })).toBeVisible();

  const [record] = await storedRecordsFor(request, WAITLIST_TABLE, email, AIRTABLE);
  expect(record?.fields).toMatchObject({ Email: email, Interests: ['Use Podling'], 'Page Source': 'home' });
  // One post to the form's door, and nothing in Airtable's protocol.
  expect(urls.filter((url) => url.includes('/api/'))).toEqual([`POST ${DOORS.waitlist}`]);
  expect(urls.filter((url) => /\/v0\//.test(url))).toEqual([]);

  // Every script the page loaded: neither the emulator's key nor its base id is in any of them.
  const scripts = await page.evaluate(() =>
    performance.getEntriesByType('resource').map((entry) => entry.name),
  );
  for (const url of scripts.filter((name) => name.endsWith('.js'))) {
    const text = await (await request.get(url)).text();
    expect(text, url).not.toContain('patLocalEmulatorKey');
    expect(text, url).not.toContain('appLocalEmulator01');
  }
  const policy = (await request.get(`${SITE_RELAY_URL}/`)).headers()['content-security-policy'] ?? '';
  // Storage is the page's own origin only: every other source the page may connect to is analytics.
  const analytics = (source: string) => source === new URL(GA_SCRIPT_URL).origin || /google/.test(source);
  const connect = /connect-src ([^;]*)/.exec(policy)?.[1]?.split(' ') ?? [];
  expect(connect).toContain("'self'");
  expect(connect.filter((source) => source !== "'self'" && !analytics(source))).toEqual([]);
});

test('a quote for a stored school changes nothing until its contact presses the emailed link; then it keeps Created At and resets Status', async ({
  page,
  visit,
  request,
  network,
}, testInfo) => {
  await stubCalendarWithNoContent(page, network);
  const email = uniqueEmail(testInfo, 'e2e.relay-quote', 'school.sch.uk');
  const earlier = await seedRecord(
    request,
    QUOTES_TABLE,
    {
      Email: email,
      'Contact Name': 'Old Name',
      'School Name': 'Old School',
      'Use Cases': ['Practice Speaking'],
      'Created At': '2026-01-01T09:00:00.000Z',
      'Last Updated': '2026-01-01T09:00:00.000Z',
      Status: 'Quoted',
    },
    AIRTABLE,
  );
  await openForm(page, visit, '/schools', QUOTE_FORM.formSelector, { base: SITE_RELAY_URL });
  await fillQuote(page, {
    name: 'Priya Shah',
    email,
    school: 'Oakfield Primary School',
    role: '',
    useCases: ['Support Learners'],
  });
  await page.getByRole('button', { name: QUOTE_FORM.submitText }).click();
  // The visitor's answer is the same as for a new school's.
  await expect(page.getByRole('heading', { name: QUOTE_FORM.thankYouTitle })).toBeVisible();
  // Nothing stored changes on the word of whoever typed the address; its owner is asked.
  const change = await emailedLink('relay', email, EMAIL_COPY.change.subject, 'change');
  expect((await recordsFor(request, QUOTES_TABLE, email, AIRTABLE))[0]?.fields).toEqual(earlier.fields);

  await page.goto(change);
  await expect(page.getByText('Oakfield Primary School')).toBeVisible();
  // The server stamps Last Updated with its own clock, the same machine's as this one.
  const pressedAt = Date.now();
  await page.getByRole('button', { name: EMAIL_COPY.linkPages.changeButton }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: EMAIL_COPY.linkPages.changedTitle }),
  ).toBeVisible();

  const records = await recordsFor(request, QUOTES_TABLE, email, AIRTABLE);
  expect(records).toHaveLength(1);
  expect(records[0]?.id).toBe(earlier.id);
  expect(records[0]?.fields).toMatchObject({
    'Contact Name': 'Priya Shah',
    'School Name': 'Oakfield Primary School',
    'Use Cases': ['Support Learners'],
    'Created At': '2026-01-01T09:00:00.000Z',
    Status: 'New',
  });
  expect(Date.parse(String(records[0]?.fields['Last Updated']))).toBeGreaterThanOrEqual(pressedAt);
  // Its Status is 'New' again: the schools team hears of it, replying to the contact.
  const updated = EMAIL_COPY.schoolsTeam['confirmed-change'].subject('Oakfield Primary School');
  await expect
    .poll(
      async () =>
        (await emailsTo('relay', SCHOOLS_TEAM)).filter(
          (message) => message.headers.subject === updated && message.headers['reply-to']?.includes(email),
        ).length,
    )
    .toBe(1);
});

test('a stranger at the console can neither read, widen, overwrite, delete nor forge', async ({
  page,
  visit,
  request,
  consoleErrors,
}, testInfo) => {
  const victim = uniqueEmail(testInfo, 'e2e.relay-victim');
  const stored = await seedRecord(
    request,
    WAITLIST_TABLE,
    {
      Email: victim,
      Interests: ['Invest in Podling'],
      'Created At': '2026-02-02T10:00:00.000Z',
      'Last Updated': '2026-02-02T10:00:00.000Z',
    },
    AIRTABLE,
  );
  const before = await allRecords(request, WAITLIST_TABLE, AIRTABLE);
  const since = Date.now();
  await visit('/', { base: SITE_RELAY_URL });

  const mallory = 'mallory@example.com';
  const form = (values: [string, string][]) => new URLSearchParams(values).toString();
  const signUp = form([
    ['email', mallory],
    ['interests', 'use'],
  ]);
  const attacks: {
    name: string;
    path: string;
    method?: string;
    body?: string;
    type?: string;
    status: number;
  }[] = [
    {
      name: 'the old relay: list',
      path: `${SITE_RELAY_URL}/api/airtable/v0/appSiteRelay/Waitlist`,
      status: 404,
    },
    {
      name: 'the old relay: a record by id',
      path: `${SITE_RELAY_URL}/api/airtable/v0/appSiteRelay/Waitlist/${stored.id}`,
      status: 404,
    },
    {
      name: 'the old relay: a create',
      path: `${SITE_RELAY_URL}/api/airtable/v0/appSiteRelay/Waitlist`,
      method: 'POST',
      type: 'application/json',
      body: JSON.stringify({ fields: { Email: mallory } }),
      status: 404,
    },
    {
      name: 'the metadata API',
      path: `${SITE_RELAY_URL}/api/airtable/v0/meta/bases/appSiteRelay/tables`,
      status: 404,
    },
    { name: 'delete', path: DOORS.waitlist, method: 'DELETE', status: 405 },
    { name: 'overwrite', path: DOORS.waitlist, method: 'PATCH', body: signUp, status: 405 },
    { name: 'replace', path: DOORS.waitlist, method: 'PUT', body: signUp, status: 405 },
    {
      name: 'JSON',
      path: DOORS.waitlist,
      method: 'POST',
      type: 'application/json',
      body: JSON.stringify({ email: mallory }),
      status: 415,
    },
    {
      name: 'an option by its stored label',
      path: DOORS.waitlist,
      method: 'POST',
      body: form([
        ['email', mallory],
        ['interests', 'Use Podling'],
      ]),
      status: 422,
    },
    {
      name: 'a new option',
      path: DOORS.quote,
      method: 'POST',
      body: form([
        ['email', 'm@example.com'],
        ['contactName', 'M'],
        ['schoolName', 'S'],
        ['useCases', 'Free Lunch'],
      ]),
      status: 422,
    },
    {
      name: 'a blanked required field',
      path: DOORS.quote,
      method: 'POST',
      body: form([
        ['email', 'm@example.com'],
        ['contactName', ' '],
        ['schoolName', 'S'],
      ]),
      status: 422,
    },
    {
      name: 'oversized body',
      path: DOORS.waitlist,
      method: 'POST',
      body: form([
        ['email', mallory],
        ['pad', 'x'.repeat(40_000)],
      ]),
      status: 413,
    },
  ];
  for (const attack of attacks) {
    const answer = await fromThePage(page, attack.path, {
      method: attack.method,
      body: attack.body,
      type: attack.type,
    });
    expect(answer.status, attack.name).toBe(attack.status);
    expect(answer.text, attack.name).not.toContain(victim);
    expect(answer.text, attack.name).not.toContain('patLocalEmulatorKey');
  }

  // Nothing of it reached Airtable: no request naming the victim's record, no delete or replace,
  // no record changed or forged. Other tests run alongside on the same base and write there: they
  // create, and pressing an emailed link updates its own record by a batch PATCH (consent.spec,
  // email-link-pages.spec), whose path names no record; a PATCH of the victim's record would move
  // its Last Updated, which the comparison with the stored record below catches.
  const reached = (await emulatorRequestsSince(request, since, AIRTABLE)).filter(
    (entry) => entry.path.includes(stored.id) || ['DELETE', 'PUT'].includes(entry.method),
  );
  expect(reached).toEqual([]);
  expect(await recordsFor(request, WAITLIST_TABLE, victim, AIRTABLE)).toEqual([stored]);
  expect(await recordsFor(request, WAITLIST_TABLE, mallory, AIRTABLE)).toEqual([]);
  expect(await recordsFor(request, QUOTES_TABLE, 'm@example.com', AIRTABLE)).toEqual([]);
  expect(before.find((record) => record.id === stored.id)).toEqual(stored);
  // And the door still serves afterwards.
  const fine = await fromThePage(page, DOORS.waitlist, {
    method: 'POST',
    body: form([
      ['email', uniqueEmail(testInfo, 'e2e.relay-after')],
      ['interests', 'use'],
    ]),
  });
  expect(fine.status).toBe(200);
  // Chromium logs each refused request; that is the point here.
  expectConsoleErrors(consoleErrors, /Failed to load resource: the server responded with a status of 4\d\d/);
});

test('Airtable failing a write does not fail the visitor: answered at once, stored on the writer’s retry', async ({
  page,
  visit,
  request,
}, testInfo) => {
  const email = uniqueEmail(testInfo, 'e2e.relay-retry');
  await openForm(page, visit, '/', WAITLIST_FORM.formSelector, { base: SITE_RELAY_URL });
  await addFault(
    request,
    { kind: 'status', status: 503, count: 1, table: WAITLIST_TABLE, method: 'POST', match: email },
    AIRTABLE,
  );
  await joinWaitlist(page, email);
  // The door queued it and answered; the paced writer met the 503 and tried again.
  await expect(page.getByRole('button', { name: WAITLIST_FORM.joinedText })).toBeVisible();
  const [record] = await storedRecordsFor(request, WAITLIST_TABLE, email, AIRTABLE);
  expect(record?.fields.Email).toBe(storedEmail(email));
  expect(await recordsFor(request, WAITLIST_TABLE, email, AIRTABLE)).toHaveLength(1);
});

test('plain `vite` with no keys: a sign-up in the browser is stored in the dev server’s emulator', async ({
  page,
  request,
}, testInfo) => {
  const email = uniqueEmail(testInfo, 'e2e.dev-join');
  await page.goto(`${DEV_URL}/`);
  await joinWaitlist(page, email);
  await expect(page.getByRole('button', { name: WAITLIST_FORM.joinedText })).toBeVisible({ timeout: 20_000 });
  // The Worker in workerd queued it; its paced writer stored it in the emulator beside the server.
  expect(await storedRecordsFor(request, WAITLIST_TABLE, email, DEV_URL)).toHaveLength(1);
});

test('a visitor over the per-address limit sees the failure toast with every value kept', async ({
  page,
  visit,
  request,
  consoleErrors,
}, testInfo) => {
  // Ten refused posts from this test's address use up its minute (the request check counts them all).
  for (let i = 0; i < 10; i += 1) {
    const answer = await request.post(DOORS.waitlist, {
      form: { email: 'not-an-email', interests: 'use' },
      headers: { origin: SITE_RELAY_URL, accept: 'application/json' },
    });
    expect(answer.status()).toBe(422);
  }
  const email = uniqueEmail(testInfo, 'e2e.relay-limited');
  await openForm(page, visit, '/', WAITLIST_FORM.formSelector, { base: SITE_RELAY_URL });
  await joinWaitlist(page, email);
  await expect(page.getByText(FAILURE_TOAST)).toBeVisible();
  await expect(textbox(page, WAITLIST_FORM.emailLabel)).toHaveValue(email);
  await expect(page.getByRole('checkbox', { name: 'Use Podling', exact: true })).toBeChecked();
  expect(await recordsFor(request, WAITLIST_TABLE, email, AIRTABLE)).toEqual([]);
  expectConsoleErrors(consoleErrors, /status of 429|Waitlist sign-up failed/);

  // Another address is served meanwhile: tests/unit/request-check-rules.test.ts and the workerd test prove it.
});

// Last, and on the dev server's own Worker and emulator: the 429 keeps that Worker's writer off
// Airtable for its 30 s penalty, which must not delay other tests' sign-ups on the preview site.
test('Airtable’s 429 never reaches the visitor, and the writer stops calling for the penalty', async ({
  page,
  visit,
  request,
}, testInfo) => {
  const email = uniqueEmail(testInfo, 'e2e.relay-429');
  await openForm(page, visit, '/', WAITLIST_FORM.formSelector, { base: DEV_URL });
  await addFault(
    request,
    { kind: 'status', status: 429, count: 1, table: WAITLIST_TABLE, method: 'POST', match: email },
    DEV_URL,
  );
  const since = Date.now();
  await joinWaitlist(page, email);
  await expect(page.getByRole('button', { name: WAITLIST_FORM.joinedText })).toBeVisible({ timeout: 20_000 });
  await expect.poll(() => rateLimitedSince(request, since, DEV_URL), { timeout: 15_000 }).toBe(1);
  // Held for the penalty (the writer's next try waits 30 s): nothing was written after the 429.
  expect(await recordsFor(request, WAITLIST_TABLE, email, DEV_URL)).toEqual([]);
});
