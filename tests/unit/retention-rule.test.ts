/**
 * The retention rule (src/server/privacy/policy.ts) as one table: which records a run deletes, by
 * table, Consent and last activity. Unconfirmed sign-ups (Waitlist, Consent 'Pending') go after
 * PENDING_RETENTION_DAYS without activity; everything else (Confirmed, Withdrawn: the
 * suppression list; no Consent: direct mode or stored before consent; quotes) after
 * DATA_RETENTION_MONTHS. The policy clock is pinned and every time is relative to it.
 */
import { describe, expect, it } from 'vitest';
import { DATA_RETENTION_MONTHS, PENDING_RETENTION_DAYS } from '#src/config/constants.ts';
import { AIRTABLE_SCHEMA } from '#src/lib/airtable/schema.ts';
import type { StoredRecord } from '#src/server/airtable/client.ts';
import { expiredFormula, expiryOf, monthsBefore, retentionCutoffs } from '#src/server/privacy/policy.ts';

const WAITLIST = AIRTABLE_SCHEMA.waitlist.name;
const QUOTES = AIRTABLE_SCHEMA.quote.name;
/** Any fixed moment works: nothing here reads the real clock. */
const NOW = new Date(Date.UTC(2027, 4, 10, 6, 0));
const DAY_MS = 86_400_000;
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY_MS).toISOString();
const monthsAgo = (months: number, plusDays = 0) =>
  new Date(monthsBefore(NOW, months).getTime() - plusDays * DAY_MS).toISOString();

type Activity = { 'Last Updated'?: string; 'Created At'?: string; createdTime?: string };

function record(consent: string | undefined, activity: Activity): StoredRecord {
  const { createdTime, ...fields } = activity;
  return {
    id: 'rec1',
    ...(createdTime ? { createdTime } : {}),
    fields: { Email: 'someone@example.org', ...fields, ...(consent ? { Consent: consent } : {}) },
  };
}

// [table, Consent, last activity, deleted?]
const RULES: [string, string | undefined, Activity, boolean][] = [
  // Unconfirmed: 30 days.
  [WAITLIST, 'Pending', { 'Last Updated': daysAgo(31) }, true],
  [WAITLIST, 'Pending', { 'Last Updated': daysAgo(30) }, false],
  [WAITLIST, 'Pending', { 'Last Updated': daysAgo(29) }, false],
  [WAITLIST, 'Pending', { 'Created At': daysAgo(45) }, true],
  [WAITLIST, 'Pending', { createdTime: daysAgo(45) }, true],
  [WAITLIST, 'Pending', { 'Last Updated': daysAgo(2), 'Created At': daysAgo(90) }, false],
  [WAITLIST, 'Pending', { 'Last Updated': monthsAgo(25) }, true],
  // Confirmed and Withdrawn (the suppression list): the months.
  [WAITLIST, 'Confirmed', { 'Last Updated': daysAgo(31) }, false],
  [WAITLIST, 'Confirmed', { 'Last Updated': monthsAgo(23) }, false],
  [WAITLIST, 'Confirmed', { 'Last Updated': monthsAgo(24) }, false],
  [WAITLIST, 'Confirmed', { 'Last Updated': monthsAgo(24, 1) }, true],
  [WAITLIST, 'Withdrawn', { 'Last Updated': daysAgo(365) }, false],
  [WAITLIST, 'Withdrawn', { 'Last Updated': monthsAgo(25) }, true],
  // No Consent (direct mode, or stored before consent): the months.
  [WAITLIST, undefined, { 'Last Updated': daysAgo(200) }, false],
  [WAITLIST, undefined, { 'Created At': monthsAgo(25) }, true],
  // Quotes have no Consent; a 'Pending' typed there by hand changes nothing.
  [QUOTES, undefined, { 'Last Updated': daysAgo(100) }, false],
  [QUOTES, 'Pending', { 'Last Updated': daysAgo(100) }, false],
  [QUOTES, undefined, { 'Last Updated': monthsAgo(24, 2) }, true],
];

describe('the retention rule', () => {
  const cutoffs = retentionCutoffs(NOW);

  it.each(RULES)('%s, Consent %s, %o: deleted %s', (table, consent, activity, deleted) => {
    expect(expiryOf(table, record(consent, activity), cutoffs) !== undefined).toBe(deleted);
  });

  it('has two cutoffs: 30 days and 24 calendar months before now', () => {
    expect(PENDING_RETENTION_DAYS).toBe(30);
    expect(DATA_RETENTION_MONTHS).toBe(24);
    expect(cutoffs.pending.toISOString()).toBe(daysAgo(30));
    expect(retentionCutoffs(NOW).pending.toISOString()).toBe(daysAgo(30));
    expect(cutoffs.months.toISOString()).toBe(monthsAgo(24));
    // An unconfirmed sign-up past the days only is told apart from one past the months too.
    const pending = (lastUpdated: string) =>
      expiryOf(WAITLIST, record('Pending', { 'Last Updated': lastUpdated }), cutoffs);
    expect(pending(daysAgo(31))).toEqual({ lastActivity: daysAgo(31), pending: true });
    expect(pending(monthsAgo(25))).toEqual({ lastActivity: monthsAgo(25), pending: false });
    expect(expiryOf(WAITLIST, record('Withdrawn', { 'Last Updated': daysAgo(31) }), cutoffs)).toBeUndefined();
  });

  it('asks Airtable for the unconfirmed sign-ups only where the table has Consent', () => {
    expect(expiredFormula(WAITLIST, cutoffs.months)).not.toContain('Consent');
    expect(expiredFormula(QUOTES, cutoffs.months, cutoffs.pending)).not.toContain('Consent');
    const both = expiredFormula(WAITLIST, cutoffs.months, cutoffs.pending);
    expect(both).toMatch(/^OR\(IS_BEFORE\(.+\), AND\(\{Consent\} = 'Pending', IS_BEFORE\(.+\)\)\)$/);
    expect(both).toContain(cutoffs.pending.toISOString());
    expect(both).toContain(cutoffs.months.toISOString());
  });
});
