import { describe, expect, it } from 'vitest';
import {
  AIRTABLE_TABLES,
  QUOTE_FIELDS,
  WAITLIST_FIELDS,
  normaliseEmail,
  toOtherUseCase,
  toQuoteRecordFields,
  toUseCaseValues,
  toWaitlistRecordFields,
} from '#src/lib/airtable/fields.ts';

const NOW = new Date('2025-03-04T05:06:07.000Z');

describe('Airtable names', () => {
  it('uses the exact table and field names of the base', () => {
    expect(AIRTABLE_TABLES).toEqual({ quotes: 'School Quotes', waitlist: 'Waitlist' });
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
    ]);
    expect(Object.values(WAITLIST_FIELDS)).toEqual([
      'Email',
      'Interests',
      'School Name',
      'Contact Name',
      'Page Source',
      'Created At',
      'Last Updated',
    ]);
  });
});

describe('normaliseEmail', () => {
  it('trims and lower-cases', () => {
    expect(normaliseEmail('  Head@School.ORG\n')).toBe('head@school.org');
  });
});

describe('toUseCaseValues', () => {
  it('keeps the short labels in order, trimmed, and drops blanks and repeats', () => {
    expect(
      toUseCaseValues([
        ' Support Learners',
        'Practice Speaking ',
        'Showcase Creativity',
        ' ',
        'Support Learners',
      ]),
    ).toEqual(['Support Learners', 'Practice Speaking', 'Showcase Creativity']);
  });

  it("never maps an 'Other:' item to a label, and trims its text", () => {
    expect(toUseCaseValues(['Other:   Support Learners  '])).toEqual(['Other: Support Learners']);
    expect(toUseCaseValues(['Other: Radio club', 'Other:   '])).toEqual(['Other: Radio club']);
  });

  it('passes unknown items through for Airtable to add as options', () => {
    expect(toUseCaseValues(['  Assemblies '])).toEqual(['Assemblies']);
  });
});

describe('toOtherUseCase', () => {
  it('prefers the given text, trimmed, else the Other item, else empty', () => {
    expect(toOtherUseCase({ useCases: ['Other: a'], otherUseCase: '  b  ' })).toBe('b');
    expect(toOtherUseCase({ useCases: ['Other:  a  '] })).toBe('a');
    expect(toOtherUseCase({ useCases: ['Support Learners'], otherUseCase: '   ' })).toBe('');
  });
});

describe('toQuoteRecordFields', () => {
  const input = {
    email: '  Head@School.ORG ',
    contactName: ' Ada Lovelace ',
    schoolName: ' St Mary ',
    role: ' Head teacher ',
    useCases: ['Support Learners', 'Other:  Podcasts for assemblies  '],
    otherUseCase: '  Podcasts for assemblies  ',
  };

  it('maps a new request to every field, with Created At and Status New', () => {
    expect(toQuoteRecordFields(input, { now: NOW, isCreate: true })).toEqual({
      Email: 'head@school.org',
      'Contact Name': 'Ada Lovelace',
      'School Name': 'St Mary',
      Role: 'Head teacher',
      'Use Cases': ['Support Learners', 'Other: Podcasts for assemblies'],
      'Other Use Case': 'Podcasts for assemblies',
      'Created At': NOW.toISOString(),
      'Last Updated': NOW.toISOString(),
      Status: 'New',
    });
  });

  it('leaves Created At alone on update, resets Status and clears a dropped Other Use Case', () => {
    const fields = toQuoteRecordFields(
      { ...input, role: undefined, useCases: ['Practice Speaking'], otherUseCase: undefined },
      { now: NOW, isCreate: false },
    );
    expect(fields).not.toHaveProperty('Created At');
    expect(fields).not.toHaveProperty('Role');
    expect(fields).toMatchObject({ Status: 'New', 'Other Use Case': '', 'Last Updated': NOW.toISOString() });
  });

  it('omits empty optional cells on create', () => {
    const fields = toQuoteRecordFields(
      { ...input, role: ' ', useCases: [], otherUseCase: '' },
      { now: NOW, isCreate: true },
    );
    expect(fields).not.toHaveProperty('Role');
    expect(fields).not.toHaveProperty('Other Use Case');
    expect(fields['Use Cases']).toEqual([]);
  });

  it('only ever writes known field names', () => {
    const known = new Set<string>(Object.values(QUOTE_FIELDS));
    for (const isCreate of [true, false]) {
      for (const key of Object.keys(toQuoteRecordFields(input, { now: NOW, isCreate })))
        expect(known).toContain(key);
    }
  });
});

describe('toWaitlistRecordFields', () => {
  it("defaults Interests to 'General Interest'", () => {
    expect(toWaitlistRecordFields({ email: 'A@B.co' }, { now: NOW, isCreate: true })).toEqual({
      Email: 'a@b.co',
      Interests: ['General Interest'],
      'Created At': NOW.toISOString(),
      'Last Updated': NOW.toISOString(),
    });
    expect(
      toWaitlistRecordFields({ email: 'a@b.co', interests: [' '] }, { now: NOW, isCreate: false }).Interests,
    ).toEqual(['General Interest']);
  });

  it("stores the home form's 'General Waitlist' and the optional cells as given", () => {
    const fields = toWaitlistRecordFields(
      {
        email: 'a@b.co',
        interests: ['General Waitlist', 'General Waitlist'],
        schoolName: ' St Mary ',
        contactName: ' Ada ',
        pageSource: 'schools',
      },
      { now: NOW, isCreate: false },
    );
    expect(fields).toEqual({
      Email: 'a@b.co',
      Interests: ['General Waitlist'],
      'School Name': 'St Mary',
      'Contact Name': 'Ada',
      'Page Source': 'schools',
      'Last Updated': NOW.toISOString(),
    });
  });

  it('only ever writes known field names', () => {
    const known = new Set<string>(Object.values(WAITLIST_FIELDS));
    const fields = toWaitlistRecordFields(
      { email: 'a@b.co', interests: ['x'], schoolName: 's', contactName: 'c', pageSource: 'p' },
      { now: NOW, isCreate: true },
    );
    for (const key of Object.keys(fields)) expect(known).toContain(key);
  });
});
