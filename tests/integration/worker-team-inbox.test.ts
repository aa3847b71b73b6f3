// @vitest-environment node
/**
 * The schools team's inbox and its headers on the reference deploy in its real runtime (`wrangler
 * dev`, workerd, the real `send_email` binding, which logs each email): at most
 * TEAM_NOTICES_PER_HOUR notices an hour, the rest held for a digest, each held notice in exactly
 * one digest however the Cron Trigger is fired (Miniflare's /cdn-cgi/handler/scheduled takes a
 * time: early, twice, late; tests/unit/mail-team-inbox.test.ts moves the clock further); a school
 * name's typed encoded word and bidirectional controls reach the team as text, and a typed line
 * break never makes a line of its own (issue 56).
 */
import PostalMime from 'postal-mime';
import { describe, expect, it } from 'vitest';
import { EMAIL_COPY } from '#src/config/messages.ts';
import { FORMS } from '#src/lib/forms/forms.ts';
import { TEAM_DIGEST_CRON, TEAM_NOTICES_PER_HOUR } from '#src/server/mail/team-inbox.ts';
import { AIRTABLE_LIMITS, MAIL_WAIT, TEAM_EMAIL, useWorker, workerMailView } from './support/worker.ts';

const ENCODED_WORD = '=?utf-8?b?VVJHRU5UOiB2aXNpdCBldmlsLmV4YW1wbGU=?=';
const RLO = '\u202e';
/** A Subject as a mail program shows it (postal-mime decodes RFC 2047 like one). */
const shown = async (subject: string) => (await PostalMime.parse(`Subject: ${subject}\r\n\r\nx\r\n`)).subject;

describe("the schools team's inbox on the Worker under workerd", () => {
  const running = useWorker({
    emulator: AIRTABLE_LIMITS,
    vars: { SCHOOLS_TEAM_EMAIL: TEAM_EMAIL },
  });
  const { post, emailsTo } = workerMailView(running, '203.0.113');
  const run = Date.now().toString(36);
  const contact = (n: number) => `head${n}.${run}@school${n}.sch.uk`;
  const school = (n: number) => `School ${n} ${run}`;
  const quote = (n: number, schoolName = school(n), contactName = `Ada ${n}`, otherUseCase = '') =>
    post(`${running().worker.url}${FORMS.quote.path}`, {
      email: contact(n),
      contactName,
      schoolName,
      role: 'Head',
      useCases: otherUseCase ? ['support-learners', 'other'] : ['support-learners'],
      otherUseCase,
    });
  const quotes = () => running().emulator.records('School Quotes');
  /** The quotes whose team notice was held for a digest. */
  const held: number[] = [];

  it(`31 quotes from 31 addresses: ${TEAM_NOTICES_PER_HOUR} notices, the other held for the digest; header text is text`, async () => {
    // Two quotes a stranger might send first: an encoded word, and a right-to-left override.
    expect((await quote(1, ENCODED_WORD)).status).toBe(200);
    // And a forged line in a single-line field, and in the multi-line one (issue 56).
    const forgedName = `Ada${RLO} Lovelace\r\nBcc: attacker@evil.example`;
    const forgedUse = 'Radio club\r\nContact Name: Mallory';
    expect((await quote(2, `Hill ${RLO}loohcS`, forgedName, forgedUse)).status).toBe(200);
    await expect.poll(() => emailsTo(TEAM_EMAIL).length, MAIL_WAIT).toBe(2);
    const first = emailsTo(TEAM_EMAIL);
    const subjects = await Promise.all(first.map((email) => shown(email.subject)));
    expect([...subjects].sort()).toEqual([
      EMAIL_COPY.schoolsTeam.new.subject(ENCODED_WORD),
      EMAIL_COPY.schoolsTeam.new.subject('Hill loohcS'),
    ]);
    expect(subjects.join()).not.toMatch(/URGENT|\u202e/);
    const bidi = first[subjects.indexOf(EMAIL_COPY.schoolsTeam.new.subject('Hill loohcS'))]!;
    expect(await bidi.text()).toContain('Contact Name: Ada Lovelace');
    expect(await bidi.text()).not.toContain(RLO);
    const stored = quotes().find((record) => record.fields.Email === contact(2))?.fields;
    expect(JSON.stringify(stored)).not.toContain(RLO);
    // One line where the field holds one; the multi-line field keeps its, never in a select's item.
    expect(stored).toMatchObject({
      'Contact Name': 'Ada Lovelace Bcc: attacker@evil.example',
      'Other Use Case': 'Radio club\nContact Name: Mallory',
      'Use Cases': ['Support Learners', 'Other: Radio club Contact Name: Mallory'],
    });
    // In the team's notice no value starts a line of its own: only the rows' labels do.
    const lines = (await bidi.text()).split(/\r?\n/);
    expect(lines.filter((line) => /^\s*(Bcc|Contact Name):/.test(line))).toEqual([
      'Contact Name: Ada Lovelace Bcc: attacker@evil.example',
      '    Contact Name: Mallory',
    ]);

    for (let n = 3; n <= 31; n += 1) expect((await quote(n)).status).toBe(200);
    // Every contact's acknowledgement is queued after its notice (or its hold).
    for (let n = 1; n <= 31; n += 1) await expect.poll(() => emailsTo(contact(n)).length, MAIL_WAIT).toBe(1);
    const notices = emailsTo(TEAM_EMAIL);
    expect(notices).toHaveLength(TEAM_NOTICES_PER_HOUR);
    const heldBack = Array.from({ length: 31 }, (_, i) => i + 1).filter(
      (n) =>
        n > 2 && !notices.some((email) => email.subject === EMAIL_COPY.schoolsTeam.new.subject(school(n))),
    );
    expect(heldBack).toHaveLength(1);

    // The held quote is stored as ever; its hour's digest (tests/unit/mail-team-inbox.test.ts, on
    // a moved clock) lists it once the hour has ended.
    expect(quotes().filter((record) => record.fields.Email === contact(heldBack[0]!))).toHaveLength(1);
    held.push(heldBack[0]!);
  }, 120_000);

  it('every held notice goes out in exactly one digest: the trigger early, a notice held after it, then on time, twice and late', async () => {
    const HOUR = 60 * 60 * 1000;
    // As `curl …/cdn-cgi/handler/scheduled?cron=…&time=…` fires it, at a time ahead of the clock.
    const fire = async (aheadMs: number) => {
      const time = Date.now() + aheadMs;
      const url = `${running().worker.url}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent(TEAM_DIGEST_CRON)}&time=${time}`;
      expect(await (await fetch(url)).text()).toBe('ok');
    };
    const digests = () =>
      emailsTo(TEAM_EMAIL).filter((email) =>
        email.subject.startsWith(EMAIL_COPY.schoolsTeam.digest.subject(0).slice(0, -1)),
      );
    await fire(HOUR + 5 * 60_000);
    await expect.poll(() => digests().length, MAIL_WAIT).toBe(1);
    // Held in the same hour, after that digest (the hour's 30 notices are out).
    expect((await quote(32)).status).toBe(200);
    await expect.poll(() => emailsTo(contact(32)).length, MAIL_WAIT).toBe(1);
    held.push(32);
    for (const ahead of [HOUR + 5 * 60_000, HOUR + 5 * 60_000, 2 * HOUR + 5 * 60_000]) await fire(ahead);
    await expect.poll(() => digests().length, MAIL_WAIT).toBe(2);
    // A later email, queued after every digest the triggers could have made, has arrived.
    expect((await quote(33)).status).toBe(200);
    await expect.poll(() => emailsTo(contact(33)).length, MAIL_WAIT).toBe(1);
    const texts = await Promise.all(digests().map((email) => email.text()));
    const listed = held.map(
      (n) => texts.filter((text) => text.includes(`${school(n)}, ${contact(n)}`)).length,
    );
    expect(listed).toEqual(held.map(() => 1));
    expect(digests()).toHaveLength(2);
  }, 120_000);
});
