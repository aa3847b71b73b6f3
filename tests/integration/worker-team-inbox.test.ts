// @vitest-environment node
/**
 * The schools team's inbox and its headers on the reference deploy in its real runtime (`wrangler
 * dev`, workerd, the real `send_email` binding, which logs each email): at most
 * TEAM_NOTICES_PER_HOUR notices an hour, the rest held for the hour's digest (whose timing needs a
 * clock that moves: tests/unit/mail-team-inbox.test.ts; `wrangler dev`'s /__scheduled cannot set
 * the scheduled time); and a school name's typed encoded word and bidirectional controls reach
 * the team as text.
 */
import PostalMime from 'postal-mime';
import { describe, expect, it } from 'vitest';
import { EMAIL_COPY } from '#src/config/messages.ts';
import { FORMS } from '#src/lib/forms/forms.ts';
import { TEAM_NOTICES_PER_HOUR } from '#src/server/mail/team-inbox.ts';
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
  const quote = (n: number, schoolName = school(n), contactName = `Ada ${n}`) =>
    post(`${running().worker.url}${FORMS.quote.path}`, {
      email: contact(n),
      contactName,
      schoolName,
      role: 'Head',
      useCases: ['support-learners'],
    });
  const quotes = () => running().emulator.records('School Quotes');

  it(`31 quotes from 31 addresses: ${TEAM_NOTICES_PER_HOUR} notices, the other held for the digest; header text is text`, async () => {
    // Two quotes a stranger might send first: an encoded word, and a right-to-left override.
    expect((await quote(1, ENCODED_WORD)).status).toBe(200);
    expect((await quote(2, `Hill ${RLO}loohcS`, `Ada${RLO} Lovelace`)).status).toBe(200);
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
  }, 120_000);
});
