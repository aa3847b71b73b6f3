import { describe, expect, it } from 'vitest';
import { USE_CASE_OPTIONS, postedUseCases, type UseCaseId } from '#src/features/quote/use-cases.ts';
import { QUOTE_FIELDS, WAITLIST_FIELDS } from '#src/lib/airtable/schema.ts';
import {
  normaliseEmail,
  cellsFor,
  isOtherItem,
  isRefusal,
  parsePosted,
  type Refusal,
  type Submission,
} from '#src/lib/forms/submission.ts';
import {
  FORM_LIST,
  FORMS,
  formAtPath,
  formOfTable,
  QUOTE_FORM,
  type QuotePosted,
  WAITLIST_FORM,
  type WaitlistPosted,
} from '#src/lib/forms/forms.ts';
import { toFormBody } from '#src/lib/forms/send-form.ts';

const NOW = new Date('2025-03-04T05:06:07.000Z');
const LATER = new Date('2025-03-05T05:06:07.000Z');

const quote = (overrides: Partial<QuotePosted> = {}): QuotePosted => ({
  contactName: ' Ada Lovelace ',
  email: ' Head@School.ORG ',
  schoolName: 'Analytical Primary',
  role: 'Head teacher',
  useCases: ['support-learners'],
  otherUseCase: '',
  ...overrides,
});

function accepted(result: Submission | Refusal): Submission {
  if (isRefusal(result)) throw new Error(`refused: ${result.message}`);
  return result;
}

function refused(result: Submission | Refusal): Refusal {
  if (!isRefusal(result)) throw new Error('accepted');
  return result;
}

describe('the contracts', () => {
  it('name the exact tables and field names of the base', () => {
    expect(FORMS.quote.table).toBe('School Quotes');
    expect(FORMS.waitlist.table).toBe('Waitlist');
    expect(Object.values(QUOTE_FIELDS)).toEqual([
      'Email',
      'Contact Name',
      'School Name',
      'Role',
      'Use Cases',
      'Other Use Case',
      'Created At',
      'Last Updated',
      'Status',
      // The key the server's writes merge on (issue 40: one record per address).
      'Email Key',
    ]);
    expect(Object.values(WAITLIST_FIELDS)).toEqual([
      'Email',
      'Interests',
      'School Name',
      'Contact Name',
      'Page Source',
      // The consent fields (issue 29: docs/consent.md).
      'Consent',
      'Consent Text',
      'Confirmed At',
      'Created At',
      'Last Updated',
      'Email Key',
    ]);
  });

  it('find a form by its table and by its door (a trailing slash allowed)', () => {
    expect(formOfTable('Waitlist')).toBe(WAITLIST_FORM);
    expect(formAtPath('/api/forms/quote/')).toBe(QUOTE_FORM);
    expect(formAtPath('/api/forms/other')).toBeUndefined();
    expect(formAtPath('/api/airtable/v0/appSiteRelay/Waitlist')).toBeUndefined();
  });

  it('give every option a distinct id', () => {
    for (const form of FORM_LIST) {
      for (const field of Object.values(form.fields)) {
        if (field.type !== 'multipleSelects') continue;
        const ids = field.options.map((option) => option.id);
        expect(new Set(ids).size).toBe(ids.length);
      }
    }
  });
});

describe('normaliseEmail', () => {
  it('trims and lower-cases', () => {
    expect(normaliseEmail('  Head@School.ORG\n')).toBe('head@school.org');
  });
});

describe('parsePosted and cellsFor: the quote request', () => {
  it('reads the posted fields by their post names, trimmed, email canonical', () => {
    const submission = accepted(parsePosted(QUOTE_FORM, quote(), NOW));
    expect(submission).toEqual({
      table: 'School Quotes',
      email: 'head@school.org',
      cells: {
        Email: 'head@school.org',
        'Contact Name': 'Ada Lovelace',
        'School Name': 'Analytical Primary',
        Role: 'Head teacher',
        'Use Cases': ['Support Learners'],
      },
      acceptedAt: NOW.toISOString(),
    });
  });

  it('removes bidirectional controls from every text field, in both rules, before anything is stored', () => {
    const controls = '\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c';
    for (const rules of ['server', 'spec'] as const) {
      const posted = quote({
        contactName: `\u202eAda${controls} Lovelace`,
        schoolName: `Hill \u202eloohcS`,
        role: controls,
        useCases: ['other'],
        otherUseCase: `Radio\u2066 club`,
      });
      const { cells } = accepted(parsePosted(QUOTE_FORM, posted, NOW, { rules }));
      expect(cells).toMatchObject({
        'Contact Name': 'Ada Lovelace',
        'School Name': 'Hill loohcS',
        'Use Cases': ['Other: Radio club'],
        'Other Use Case': 'Radio club',
      });
      // Nothing but controls is blank.
      expect(cells.Role).toBeUndefined();
    }
  });

  it('folds line breaks and control characters to a space in single-line fields; the multi-line one keeps its lines, one line in its Use Cases item', () => {
    for (const rules of ['server', 'spec'] as const) {
      const posted = quote({
        contactName: 'Eve\r\nBcc: attacker@evil.example',
        schoolName: 'Hill\u2028Email: forged@evil.example\u0000\u001b[31m',
        role: 'Head\tof\u0085year\rseven',
        useCases: ['other'],
        otherUseCase: 'Radio club\r\nContact Name: Mallory\u2029Assemblies\u0007',
      });
      const { cells } = accepted(parsePosted(QUOTE_FORM, toFormBody(posted), NOW, { rules }));
      expect(cells).toMatchObject({
        'Contact Name': 'Eve Bcc: attacker@evil.example',
        'School Name': 'Hill Email: forged@evil.example  [31m',
        Role: 'Head of year seven',
        'Other Use Case': 'Radio club\nContact Name: Mallory\nAssemblies',
        'Use Cases': ['Other: Radio club Contact Name: Mallory Assemblies'],
      });
    }
  });

  it('reads a urlencoded body the same as the values it was made from', () => {
    const posted = quote({ useCases: ['practice-speaking', 'other'], otherUseCase: 'Assemblies' });
    expect(parsePosted(QUOTE_FORM, toFormBody(posted), NOW)).toEqual(parsePosted(QUOTE_FORM, posted, NOW));
  });

  it("creates with Status 'New', Created At and Last Updated; updates keep Created At", () => {
    const submission = accepted(parsePosted(QUOTE_FORM, quote(), NOW));
    expect(cellsFor(submission, { now: NOW, existing: false })).toEqual({
      ...submission.cells,
      Status: 'New',
      'Created At': NOW.toISOString(),
      'Last Updated': NOW.toISOString(),
    });
    expect(cellsFor(submission, { now: LATER, existing: true })).toEqual({
      ...submission.cells,
      Status: 'New',
      'Last Updated': LATER.toISOString(),
      'Other Use Case': '',
    });
  });

  it("adds 'Other: text' and stores the trimmed text as Other Use Case", () => {
    const submission = accepted(
      parsePosted(
        QUOTE_FORM,
        quote({ useCases: ['other'], otherUseCase: '  Radio club at lunchtime \n' }),
        NOW,
      ),
    );
    expect(submission.cells['Use Cases']).toEqual(['Other: Radio club at lunchtime']);
    expect(submission.cells['Other Use Case']).toBe('Radio club at lunchtime');
    // An 'Other' item is never mapped to a label, even when its text is one.
    const label = accepted(
      parsePosted(QUOTE_FORM, quote({ useCases: ['other'], otherUseCase: 'Support Learners' }), NOW),
    );
    expect(label.cells['Use Cases']).toEqual(['Other: Support Learners']);
  });

  it("adds nothing for 'Other' without text, and ignores text without 'Other'", () => {
    const bare = accepted(parsePosted(QUOTE_FORM, quote({ useCases: ['other'], otherUseCase: '   ' }), NOW));
    expect(bare.cells['Use Cases']).toBeUndefined();
    const unticked = accepted(parsePosted(QUOTE_FORM, quote({ otherUseCase: 'typed then unticked' }), NOW));
    expect(unticked.cells).not.toHaveProperty('Other Use Case');
    expect(unticked.cells['Use Cases']).toEqual(['Support Learners']);
  });

  it('detects an Other item one way: the prefix and a space', () => {
    const rule = QUOTE_FORM.other;
    expect(isOtherItem(rule, 'Other: x')).toBe(true);
    expect(isOtherItem(rule, 'other: x')).toBe(false);
    expect(isOtherItem(rule, 'Other:x')).toBe(false);
  });

  it('keeps a quote without use cases from clearing the stored ones', () => {
    const submission = accepted(parsePosted(QUOTE_FORM, quote({ useCases: [] }), NOW));
    const update = cellsFor(submission, { now: LATER, existing: true });
    expect(update).not.toHaveProperty('Use Cases');
    expect(update).not.toHaveProperty('Other Use Case');
  });

  it('refuses what the form never sends', () => {
    expect(refused(parsePosted(QUOTE_FORM, quote({ useCases: ['Support Learners'] }), NOW)).message).toMatch(
      /option the site does not offer/,
    );
    expect(refused(parsePosted(QUOTE_FORM, quote({ contactName: '  ' }), NOW)).message).toMatch(/required/);
    expect(refused(parsePosted(QUOTE_FORM, quote({ email: 'nope' }), NOW))).toMatchObject({
      status: 422,
      field: 'email',
    });
    expect(refused(parsePosted(QUOTE_FORM, quote({ role: 'x'.repeat(201) }), NOW)).message).toMatch(/longer/);
    const twice = toFormBody(quote());
    twice.append('email', 'other@example.com');
    expect(refused(parsePosted(QUOTE_FORM, twice, NOW)).message).toMatch(/once/);
  });

  it('ignores posted names the form does not have (the server never writes them)', () => {
    const body = toFormBody(quote());
    body.append('Status', 'Won');
    body.append('Created At', '2000-01-01');
    const submission = accepted(parsePosted(QUOTE_FORM, body, NOW));
    expect(cellsFor(submission, { now: NOW, existing: false }).Status).toBe('New');
  });
});

describe("parsePosted under the spec's rules (direct mode's storage layer)", () => {
  it('checks nothing but the email, and reads options and Other the same way', () => {
    const long = 'x'.repeat(5_000);
    const posted = quote({ contactName: '', role: long, useCases: ['other'], otherUseCase: ' Radio ' });
    expect(refused(parsePosted(QUOTE_FORM, posted, NOW)).status).toBe(422);
    const submission = accepted(parsePosted(QUOTE_FORM, posted, NOW, { rules: 'spec' }));
    expect(submission.cells).toEqual({
      Email: 'head@school.org',
      'School Name': 'Analytical Primary',
      Role: long,
      'Use Cases': ['Other: Radio'],
      'Other Use Case': 'Radio',
    });
    expect(refused(parsePosted(QUOTE_FORM, quote({ email: 'no-at' }), NOW, { rules: 'spec' }))).toMatchObject(
      {
        field: 'email',
      },
    );
  });
});

describe('parsePosted and cellsFor: the waitlist sign-up', () => {
  const signUp = (interests: string[]): WaitlistPosted => ({ email: 'Parent@Example.com', interests });

  it('stores the ticked options by their stored values, in the order posted, once each', () => {
    const submission = accepted(parsePosted(WAITLIST_FORM, signUp(['invest', 'use', 'invest']), NOW));
    expect(submission.cells).toEqual({
      Email: 'parent@example.com',
      Interests: ['Invest in Podling', 'Use Podling'],
    });
    expect(submission.defaults).toBeUndefined();
    expect(cellsFor(submission, { now: NOW, existing: false })).toMatchObject({ 'Page Source': 'home' });
  });

  it('writes the default interest on creation only: an empty selection never replaces a stored one', () => {
    const submission = accepted(parsePosted(WAITLIST_FORM, signUp([]), NOW));
    expect(submission.defaults).toEqual({ Interests: ['General Waitlist'] });
    expect(cellsFor(submission, { now: NOW, existing: false }).Interests).toEqual(['General Waitlist']);
    expect(cellsFor(submission, { now: NOW, existing: true })).not.toHaveProperty('Interests');
  });

  it('refuses the default sent as if it were a choice (the form sends nothing)', () => {
    expect(refused(parsePosted(WAITLIST_FORM, signUp(['General Waitlist']), NOW)).status).toBe(422);
  });
});

describe('the quote form posts option ids', () => {
  it('in the shown order whatever the order of clicks', () => {
    const clicked = new Set<UseCaseId>(['showcase-creativity', 'other', 'support-learners']);
    expect(postedUseCases(clicked)).toEqual(['support-learners', 'showcase-creativity', 'other']);
  });

  it('shows the contract options with a description each', () => {
    expect(USE_CASE_OPTIONS.map((option) => option.label)).toEqual([
      'Support Learners',
      'Practice Speaking',
      'Showcase Creativity',
      'Other',
    ]);
    for (const option of USE_CASE_OPTIONS) expect(option.description.length).toBeGreaterThan(10);
  });
});
