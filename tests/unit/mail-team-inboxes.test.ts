import { defineForm, EMAIL_KEY_FIELD, FORM_HONEYPOT } from '#src/lib/forms/contract.ts';
import { WAITLIST_FORM } from '#src/lib/forms/forms.ts';
import { addTestForm } from './support/test-form.ts';
import { memoryMailLedger } from '#src/server/mail/ledger.ts';
import type { MailJob } from '#src/server/mail/message.ts';
import { queueOutcomeMail, type WriteOutcome } from '#src/server/mail/plan.ts';
import { queueTeamDigests, TEAM_NOTICES_PER_HOUR } from '#src/server/mail/team-inbox.ts';
import { parseMailSettings } from '#src/server/settings.ts';

/**
 * Each team its own inbox (issue 55): a second form that tells a team of its own (its address
 * setting, PARTNERS_TEAM_EMAIL) has its own hourly ceiling and its own digest, at its own address.
 */
const PARTNERS = defineForm({
  name: 'partners',
  table: 'Partners',
  path: '/api/forms/partners',
  page: '/partners',
  honeypot: FORM_HONEYPOT,
  words: {
    answerTitle: 'Partners',
    logName: 'Partners enquiry',
    failed: 'Failed.',
    thanks: ['Thanks.'],
    nextStep: null,
  },
  fields: {
    email: WAITLIST_FORM.fields.email,
    organisation: {
      airtable: 'Organisation',
      type: 'singleLineText',
      maxLength: 200,
      source: 'posted',
      post: 'organisation',
      label: 'Organisation',
      required: true,
    },
    emailKey: EMAIL_KEY_FIELD,
  },
  conduct: {
    tellsTeam: {
      subjectField: 'organisation',
      addressSetting: 'PARTNERS_TEAM_EMAIL',
      defaultAddress: 'partners@podling.app',
      copy: 'schoolsTeam',
    },
  },
});
addTestForm(PARTNERS);

const HOUR = 60 * 60_000;
const START = Date.UTC(2026, 4, 4, 9, 0, 0);
const TEAMS = { SCHOOLS_TEAM_EMAIL: 'schools@example.org', PARTNERS_TEAM_EMAIL: 'partners@example.org' };
// The settings as the Worker reads them, with the addresses of this test's form's team too.
const settings = { ...parseMailSettings({ LINK_SECRET: 's'.repeat(40) }), teamEmails: TEAMS };

const request = (form: string, n: number): WriteOutcome => ({
  form,
  email: `contact${n}@${form}.example.org`,
  outcome: 'created',
  // Each form's subject field: the quote's, the partners form's.
  values: { 'School Name': `${form} ${n}`, Organisation: `${form} ${n}` },
  key: `${form}-${n}`,
});

describe('each team its own inbox', () => {
  it('a rush of partners enquiries leaves the schools team’s ceiling whole; each digest goes to its own team', async () => {
    const jobs: MailJob[] = [];
    const enqueue = async (job: MailJob) => void jobs.push(job);
    const mail = { settings, ledger: memoryMailLedger(), enqueue, deadLetter: undefined };
    const send = (form: string, n: number) =>
      queueOutcomeMail(mail, request(form, n), 'https://www.podling.app', { now: () => START + n * 1000 });
    for (let n = 1; n <= 40; n += 1) await send('partners', n);
    for (let n = 1; n <= 31; n += 1) await send('quote', 100 + n);
    const notices = (to: string) =>
      jobs.filter((job) => job.message.to === to && job.message.idempotencyKey.startsWith('team:'));
    expect(notices(TEAMS.PARTNERS_TEAM_EMAIL)).toHaveLength(TEAM_NOTICES_PER_HOUR);
    expect(notices(TEAMS.SCHOOLS_TEAM_EMAIL)).toHaveLength(TEAM_NOTICES_PER_HOUR);
    expect(notices(TEAMS.SCHOOLS_TEAM_EMAIL).map((job) => job.form)).toEqual(Array(30).fill('quote'));

    expect(await queueTeamDigests(mail, new Date(START + HOUR + 5 * 60_000))).toBe(2);
    const digests = jobs.filter((job) => job.message.idempotencyKey.startsWith('team-digest:'));
    const listed = (to: string) =>
      digests
        .filter((job) => job.message.to === to)
        .map((job) => [...job.message.text.matchAll(/(\w+) \d+, contact/g)]);
    expect(listed(TEAMS.PARTNERS_TEAM_EMAIL).map((rows) => rows.length)).toEqual([10]);
    expect(
      listed(TEAMS.PARTNERS_TEAM_EMAIL)
        .flat()
        .every((row) => row[1] === 'partners'),
    ).toBe(true);
    expect(listed(TEAMS.SCHOOLS_TEAM_EMAIL).map((rows) => rows.map((row) => row[1]))).toEqual([['quote']]);
    expect(digests.map((job) => job.form).sort()).toEqual(['partners', 'quote']);
  });
});
