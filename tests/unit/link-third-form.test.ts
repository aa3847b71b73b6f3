/**
 * A form is data to the email links (issue 48): a contract declared only here, registered beside the
 * site's two, signs and checks its links, and its change and unsubscribe links do their one thing
 * with nothing form-specific in the way: its team is told of a change (conduct.tellsTeam), its page
 * shows no other form's next step, and unsubscribing writes to the confirming form's list without
 * offering to join it.
 */
import { describe, expect, it } from 'vitest';
import { EMAIL_COPY } from '#src/config/messages.ts';
import { defineForm, EMAIL_KEY_FIELD, FORM_HONEYPOT } from '#src/lib/forms/contract.ts';
import { confirmingForm, formNamed, WAITLIST_FORM } from '#src/lib/forms/forms.ts';
import { addTestForm } from './support/test-form.ts';
import { handleEmailLink } from '#src/server/links/actions.ts';
import { type ConsentRecords } from '#src/server/privacy/consent-records.ts';
import {
  checkLink,
  EMAIL_LINK_PATHS,
  linkExpiry,
  type LinkPurpose,
  signLink,
} from '#src/server/links/tokens.ts';

const TUTORS = defineForm({
  name: 'tutors',
  table: 'Tutors',
  path: '/api/forms/tutors',
  page: '/tutors',
  honeypot: FORM_HONEYPOT,
  words: {
    answerTitle: 'Find a tutor',
    logName: 'Tutor request',
    failed: 'Failed to ask for a tutor.',
    thanks: ['We will find you a tutor.'],
    nextStep: null,
  },
  fields: {
    // The site's email field, as the waitlist declares it.
    email: WAITLIST_FORM.fields.email,
    subject: {
      airtable: 'Subject',
      type: 'singleLineText',
      maxLength: 100,
      source: 'posted',
      post: 'subject',
      label: 'Subject',
      required: true,
    },
    lastUpdated: { airtable: 'Last Updated', type: 'dateTime', source: 'updated' },
    emailKey: EMAIL_KEY_FIELD,
  },
  conduct: {
    tellsTeam: {
      subjectField: 'subject',
      addressSetting: 'TUTORS_TEAM_EMAIL',
      defaultAddress: 'tutors@podling.app',
      copy: 'schoolsTeam',
    },
  },
});
if (!formNamed(TUTORS.name)) addTestForm(TUTORS);

const SECRET = 't'.repeat(40);
const NOW = new Date('2026-03-01T09:00:00Z');
const copy = EMAIL_COPY.linkPages;

async function linkFor(purpose: LinkPurpose, form: string, values?: Record<string, string>) {
  const token = await signLink(
    {
      purpose,
      form,
      email: 'ada@example.com',
      expiresAt: linkExpiry(purpose, NOW),
      ...(values ? { values } : {}),
    },
    SECRET,
  );
  return `https://www.podling.app${EMAIL_LINK_PATHS[purpose]}?token=${token}`;
}

const press = (url: string, extra: Record<string, string> = {}) =>
  new Request(new URL(url).origin + new URL(url).pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: new URL(url).searchParams.get('token') ?? '', ...extra }).toString(),
  });

function setUp() {
  const writes: string[] = [];
  const told: string[] = [];
  const records: ConsentRecords = {
    find: async () => null,
    setConsent: async (id, consent) => void writes.push(`set:${id}:${consent}`),
    createWithdrawn: async (email) => void writes.push(`withdrawn:${email}`),
    applyValues: async (form, email) => (writes.push(`apply:${form}:${email}`), 'applied'),
  };
  const options = {
    records,
    linkSecrets: [SECRET],
    now: () => NOW,
    tellTeam: async (form: string, email: string) => void told.push(`${form}:${email}`),
  };
  return { writes, told, options };
}

describe('a form declared only in a test', () => {
  it('signs and checks its links; a form no contract declares is refused', async () => {
    const token =
      new URL(await linkFor('change', 'tutors', { subject: 'Maths' })).searchParams.get('token') ?? '';
    const check = await checkLink(token, 'change', [SECRET], NOW);
    expect(check.ok && check.claims.form).toBe('tutors');
    const stranger = new URL(await linkFor('change', 'nobody')).searchParams.get('token') ?? '';
    expect(await checkLink(stranger, 'change', [SECRET], NOW)).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
  });

  it('its change link applies once, tells its team, and shows no other form’s next step', async () => {
    const { writes, told, options } = setUp();
    const url = await linkFor('change', 'tutors', { subject: 'Maths' });
    const page = await handleEmailLink(new Request(url), options);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Maths');
    const done = await handleEmailLink(press(url), options);
    const html = await done.text();
    expect(done.status).toBe(200);
    expect(html).toContain(copy.changedTitle);
    for (const other of [copy.waitlistEmails, copy.quoteReply, copy.rejoin])
      expect(html).not.toContain(other);
    expect(writes).toEqual(['apply:tutors:ada@example.com']);
    expect(told).toEqual(['tutors:ada@example.com']);
  });

  it('its unsubscribe link writes to the confirming form’s list and offers no way to join it', async () => {
    const { writes, options } = setUp();
    const url = await linkFor('unsubscribe', 'tutors');
    const done = await handleEmailLink(press(url), options);
    expect(done.status).toBe(200);
    expect(await done.text()).not.toContain('name="rejoin"');
    expect((await handleEmailLink(press(url, { rejoin: '1' }), options)).status).toBe(400);
    expect(writes).toEqual(['withdrawn:ada@example.com']);
    expect(confirmingForm()?.name).not.toBe('tutors');
  });
});
