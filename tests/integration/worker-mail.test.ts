// @vitest-environment node
/**
 * Consent and mail on the reference deploy in its real runtime: the Worker (wrangler.jsonc) under
 * workerd through `wrangler dev`, its queue consumer writing to the emulator with consent
 * (Pending, held changes) and sending each write's emails through the mail queue and the real
 * `send_email` binding, which `wrangler dev` simulates: it logs each email and keeps its text in
 * a local file (startWorker's `sentEmails`). The doors answer the emails' links.
 */
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { EMAIL_COPY, WAITLIST_CONSENT_STATEMENT } from '#src/config/messages.ts';
import { FORMS } from '#src/lib/forms/forms.ts';
import { AIRTABLE_LIMITS, MAIL_WAIT, TEAM_EMAIL, useWorker, workerMailView } from './support/worker.ts';
import { startClientSpread } from '#scripts/loadtest/client-spread.ts';

const TEAM = TEAM_EMAIL;
const WAIT = MAIL_WAIT;

const unique = (name: string) => `${name}.${Date.now().toString(36)}@example.com`;

describe('consent and mail on the Worker under workerd', () => {
  const running = useWorker({ emulator: AIRTABLE_LIMITS, vars: { SCHOOLS_TEAM_EMAIL: TEAM } });
  const { clientHeader, post, records: record, emailsTo, linkIn, press } = workerMailView(running, '192.0.2');

  it('links only to the site: a forged Host is refused, and a post naming another host in its request line still gets the site’s links', async () => {
    const { worker } = running();
    const site = new URL(worker.url);
    /** A raw post, with the Host and request line a stranger chooses (fetch would not send them). */
    const rawPost = (target: string, host: string, origin: string, email: string) =>
      new Promise<number>((resolve, reject) => {
        const body = `email=${encodeURIComponent(email)}`;
        const request = http.request(
          {
            host: site.hostname,
            port: site.port,
            method: 'POST',
            path: target,
            headers: {
              host,
              origin,
              accept: 'application/json',
              'content-type': 'application/x-www-form-urlencoded',
              'content-length': Buffer.byteLength(body),
            },
          },
          (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          },
        );
        request.on('error', reject);
        request.end(body);
      });
    const forged = unique('forged-host');
    expect(await rawPost(FORMS.waitlist.path, '203.0.113.66', 'http://203.0.113.66', forged)).toBe(403);
    const elsewhere = unique('request-line');
    expect(
      await rawPost(`http://evil.example${FORMS.waitlist.path}`, 'evil.example', worker.url, elsewhere),
    ).toBe(200);
    const link = await linkIn(elsewhere, EMAIL_COPY.confirm.subject, '/api/email/confirm');
    expect(new URL(link).origin).toBe(site.origin);
    expect(emailsTo(forged)).toEqual([]);
  });

  it('stores a queued sign-up Pending and sends one confirmation, whose button (not its link) confirms', async () => {
    const { worker } = running();
    const email = unique('parent');
    const answer = await post(`${worker.url}${FORMS.waitlist.path}`, { email, interests: ['use'] });
    expect(answer.status).toBe(200);
    await expect.poll(() => record('Waitlist', email)[0]?.fields.Consent, WAIT).toBe('Pending');
    expect(record('Waitlist', email)[0]?.fields['Consent Text']).toBe(WAITLIST_CONSENT_STATEMENT);

    const confirm = await linkIn(email, EMAIL_COPY.confirm.subject, '/api/email/confirm');
    expect(new URL(confirm).origin).toBe(worker.url);
    // Opening the link (as a scanner would) changes nothing.
    const page = await fetch(confirm);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(EMAIL_COPY.linkPages.confirmButton);
    expect(record('Waitlist', email)[0]?.fields.Consent).toBe('Pending');

    const pressed = await press(confirm);
    expect(pressed.status).toBe(200);
    expect(record('Waitlist', email)[0]?.fields.Consent).toBe('Confirmed');
    expect(record('Waitlist', email)[0]?.fields['Confirmed At']).toEqual(expect.any(String));
    const confirmed = record('Waitlist', email)[0]?.fields;
    // A second press changes nothing.
    expect((await press(confirm)).status).toBe(200);
    expect(record('Waitlist', email)[0]?.fields).toEqual(confirmed);
    expect(record('Waitlist', email)).toHaveLength(1);
    expect(emailsTo(email)).toHaveLength(1);
  }, 60_000);

  it("holds a stranger's re-submission and asks the address on record, by email", async () => {
    const { emulator, worker } = running();
    const email = unique('stored');
    emulator.seed('Waitlist', {
      Email: email,
      Interests: ['Invest in Podling'],
      Consent: 'Confirmed',
      'Created At': '2025-01-01T00:00:00.000Z',
      'Last Updated': '2025-01-01T00:00:00.000Z',
    });
    const answer = await post(`${worker.url}${FORMS.waitlist.path}`, {
      email,
      interests: ['partner'],
    });
    expect(answer.status).toBe(200);
    const change = await linkIn(email, EMAIL_COPY.change.subject, '/api/email/change');
    // The email does not repeat the stranger's values to the address on record.
    expect(await emailsTo(email)[0]!.text()).not.toContain('Partner');
    // Held: the record is as it was, until its owner presses the change's button.
    expect(record('Waitlist', email)).toHaveLength(1);
    const { id } = record('Waitlist', email)[0]!;
    expect(record('Waitlist', email)[0]?.fields.Interests).toEqual(['Invest in Podling']);
    expect((await press(change)).status).toBe(200);
    // The same record, updated: Created At kept, Last Updated moved on.
    expect(record('Waitlist', email)).toHaveLength(1);
    expect(record('Waitlist', email)[0]).toMatchObject({
      id,
      fields: {
        Interests: ['Partner with Podling'],
        Consent: 'Confirmed',
        'Created At': '2025-01-01T00:00:00.000Z',
      },
    });
    expect(record('Waitlist', email)[0]?.fields['Last Updated']).not.toBe('2025-01-01T00:00:00.000Z');
    expect(emailsTo(email)).toHaveLength(1);
  }, 60_000);

  it('notifies the schools team of a new quote and acknowledges its contact', async () => {
    const { worker } = running();
    const email = `head.${Date.now().toString(36)}@school.sch.uk`;
    const school = `Hill School ${Date.now().toString(36)}`;
    const answer = await post(`${worker.url}${FORMS.quote.path}`, {
      email,
      contactName: 'Ada',
      schoolName: school,
      role: 'Head',
      useCases: ['support-learners'],
    });
    expect(answer.status).toBe(200);
    await expect.poll(() => record('School Quotes', email).length, WAIT).toBe(1);
    await expect
      .poll(
        () => emailsTo(TEAM).filter((e) => e.subject === EMAIL_COPY.schoolsTeam.new.subject(school)).length,
        WAIT,
      )
      .toBe(1);
    const team = emailsTo(TEAM).find((e) => e.subject === EMAIL_COPY.schoolsTeam.new.subject(school));
    expect(await team!.text()).toContain(email);
    await expect.poll(() => emailsTo(email).length, WAIT).toBe(1);
    expect(emailsTo(email)[0]?.subject).toBe(EMAIL_COPY.quoteAcknowledgement.subject);
    expect(await emailsTo(email)[0]!.text()).not.toContain(school);
  }, 60_000);

  it('holds a quote for a stored school; once its contact confirms the change, Status is New and the schools team is told', async () => {
    const { emulator, worker } = running();
    const email = `bursar.${Date.now().toString(36)}@school.sch.uk`;
    const school = `Vale School ${Date.now().toString(36)}`;
    emulator.seed('School Quotes', {
      Email: email,
      'Contact Name': 'Old Name',
      'School Name': 'Old School',
      'Use Cases': ['Other: Radio'],
      'Other Use Case': 'Radio',
      Status: 'Won',
      'Created At': '2025-01-01T00:00:00.000Z',
      'Last Updated': '2025-01-01T00:00:00.000Z',
    });
    const answer = await post(`${worker.url}${FORMS.quote.path}`, {
      email,
      contactName: 'Grace',
      schoolName: school,
      role: 'Bursar',
      useCases: ['support-learners'],
    });
    expect(answer.status).toBe(200);
    const change = await linkIn(email, EMAIL_COPY.change.subject, '/api/email/change');
    expect(record('School Quotes', email)[0]?.fields.Status).toBe('Won');
    const changed = EMAIL_COPY.schoolsTeam['confirmed-change'].subject(school);
    expect(emailsTo(TEAM).filter((e) => e.subject === changed)).toEqual([]);

    expect((await press(change)).status).toBe(200);
    expect(record('School Quotes', email)[0]?.fields).toMatchObject({
      'School Name': school,
      'Use Cases': ['Support Learners'],
      'Created At': '2025-01-01T00:00:00.000Z',
      Status: 'New',
    });
    // The Other item is gone, and its text with it.
    expect(record('School Quotes', email)[0]?.fields['Other Use Case'] ?? '').toBe('');
    await expect.poll(() => emailsTo(TEAM).filter((e) => e.subject === changed).length, WAIT).toBe(1);
    const team = emailsTo(TEAM).find((e) => e.subject === changed);
    expect(await team!.text()).toContain('Bursar');
    // A second press changes nothing and tells nobody again.
    expect((await press(change)).status).toBe(200);
    expect(emailsTo(TEAM).filter((e) => e.subject === changed)).toHaveLength(1);
    expect(emailsTo(email)).toHaveLength(1);
  }, 60_000);

  it("answers a mail provider's one-click unsubscribe with 200 and sets Withdrawn", async () => {
    const { worker } = running();
    const email = unique('leaver');
    await post(`${worker.url}${FORMS.waitlist.path}`, { email, interests: ['use'] });
    const unsubscribe = await linkIn(email, EMAIL_COPY.confirm.subject, '/api/email/unsubscribe');
    // RFC 8058: the List-Unsubscribe address itself, posted with no Origin, cookies or page marker.
    const answer = await fetch(unsubscribe, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...clientHeader() },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(answer.status).toBe(200);
    expect(record('Waitlist', email)[0]?.fields.Consent).toBe('Withdrawn');
    expect(record('Waitlist', email)).toHaveLength(1);
  }, 60_000);

  it('answers a tampered link with 400 and changes nothing', async () => {
    const { worker } = running();
    const email = unique('tamper');
    await post(`${worker.url}${FORMS.waitlist.path}`, { email });
    const confirm = await linkIn(email, EMAIL_COPY.confirm.subject, '/api/email/confirm');
    const tampered = confirm.replace(/token=(.)/, (_all, first: string) =>
      first === 'A' ? 'token=B' : 'token=A',
    );
    expect((await press(tampered)).status).toBe(400);
    expect(record('Waitlist', email)[0]?.fields.Consent).toBe('Pending');
  }, 60_000);

  it('sends an address at most one email in 10 minutes, however many times it is submitted', async () => {
    const { worker } = running();
    // Each post from its own connecting address: the per-client limit has its own test.
    const spread = await startClientSpread(worker.url);
    try {
      const email = unique('flooded');
      const path = FORMS.waitlist.path;
      expect((await post(spread.urlFor(11, path), { email })).status).toBe(200);
      await expect.poll(() => emailsTo(email).length, WAIT).toBe(1);
      // Two more (the per-email limit allows 3 a minute): held changes, whose emails the mail
      // limits drop.
      for (const client of [12, 13])
        expect((await post(spread.urlFor(client, path), { email, interests: ['use'] })).status).toBe(200);
      // Give the dropped sends their chance (a later submission's email goes out after them).
      const later = unique('later');
      expect((await post(spread.urlFor(14, path), { email: later })).status).toBe(200);
      await expect.poll(() => emailsTo(later).length, WAIT).toBe(1);
      expect(emailsTo(email)).toHaveLength(1);
      expect(emailsTo(email)[0]?.subject).toBe(EMAIL_COPY.confirm.subject);
    } finally {
      await spread.close();
    }
  }, 60_000);
});
