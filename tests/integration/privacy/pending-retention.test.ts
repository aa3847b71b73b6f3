// @vitest-environment node
/**
 * Unconfirmed sign-ups do not linger (issue 29, item 7), against the emulator: `npm run
 * privacy:retention` and the Worker's Cron Trigger job delete Waitlist records whose Consent is
 * 'Pending' after 30 days without activity, and keep 'Confirmed' and 'Withdrawn' ones (the
 * suppression list) and records with no Consent for the 24 months. A base set up before consent
 * (no Consent field) keeps the 24-month rule rather than failing.
 *
 * The policy clock is pinned (`now`) and every record is seeded relative to it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AIRTABLE_SCHEMA } from '#src/lib/airtable/schema.ts';
import { monthsBefore } from '#src/server/privacy/policy.ts';
import { runRetentionJob } from '#src/server/privacy/retention-job.ts';
import { createPacer } from '#src/server/airtable/pacer.ts';
import {
  type Emulator,
  emulatorEnv,
  runPrivacyCommand,
  startEmulatorWithout,
  storedEmails as emails,
  useEmulator,
} from '#tests/integration/support/emulator.ts';

const WAITLIST = AIRTABLE_SCHEMA.waitlist.name;
const QUOTES = AIRTABLE_SCHEMA.quote.name;
const W = AIRTABLE_SCHEMA.waitlist.fields;
/** Any fixed moment works: the suite never compares it with the real clock. */
const NOW = Date.UTC(2029, 6, 14, 4, 45);
const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const daysAgo = (days: number) => iso(NOW - days * DAY_MS);
const monthsAgo = (months: number) => iso(monthsBefore(new Date(NOW), months).getTime());

const run = (emulator: Emulator, ...argv: string[]) => runPrivacyCommand(emulator, NOW, ...argv);

/** One sign-up per case; its email names it. */
function seedConsentCases(emulator: Emulator) {
  const signUp = (email: string, consent: string | undefined, fields: Record<string, string>) =>
    emulator.seed(WAITLIST, { Email: email, ...(consent ? { [W.consent.name]: consent } : {}), ...fields });
  signUp('pending-31d@x.co', 'Pending', { 'Created At': daysAgo(31), 'Last Updated': daysAgo(31) });
  signUp('pending-29d@x.co', 'Pending', { 'Created At': daysAgo(29), 'Last Updated': daysAgo(29) });
  // Its last activity, not its creation, counts.
  signUp('pending-touched@x.co', 'Pending', { 'Created At': daysAgo(90), 'Last Updated': daysAgo(3) });
  signUp('confirmed-31d@x.co', 'Confirmed', { 'Last Updated': daysAgo(31), 'Confirmed At': daysAgo(31) });
  signUp('withdrawn-200d@x.co', 'Withdrawn', { 'Last Updated': daysAgo(200) });
  signUp('withdrawn-25m@x.co', 'Withdrawn', { 'Last Updated': monthsAgo(25) });
  signUp('legacy-60d@x.co', undefined, { 'Last Updated': daysAgo(60) });
  emulator.seed(QUOTES, {
    Email: 'quote-60d@x.co',
    'Contact Name': 'Sam',
    'School Name': 'Hill School',
    'Last Updated': daysAgo(60),
  });
}

const KEPT = [
  'confirmed-31d@x.co',
  'legacy-60d@x.co',
  'pending-29d@x.co',
  'pending-touched@x.co',
  'withdrawn-200d@x.co',
];

describe('unconfirmed sign-ups: npm run privacy:retention', () => {
  const emulator = useEmulator();

  it('--dry-run lists the Pending sign-up past 30 days and the Withdrawn one past 24 months, each with its rule', async () => {
    seedConsentCases(emulator());
    const { code, out } = await run(emulator(), 'retention', '--dry-run');
    expect(code).toBe(0);
    expect(out[0]).toMatch(/^TABLE\s+EMAIL\s+LAST ACTIVITY\s+RULE$/);
    const rows = out.slice(1, -2).map((line) => line.split(/\s{2,}/));
    expect(rows.sort()).toEqual([
      [WAITLIST, 'pending-31d@x.co', daysAgo(31), 'unconfirmed, 30 days'],
      [WAITLIST, 'withdrawn-25m@x.co', monthsAgo(25), '24 months'],
    ]);
    expect(out.at(-2)).toBe(
      `Retention (24 months, last activity before ${monthsAgo(24)}; unconfirmed sign-ups 30 days, before ${daysAgo(30)}): ` +
        'would delete 2 in Waitlist, 0 in School Quotes (1 of them unconfirmed sign-ups) (2 requests to Airtable)',
    );
    expect(emulator().records(WAITLIST)).toHaveLength(KEPT.length + 2);
  });

  it('deletes them and keeps Confirmed, Withdrawn (the suppression list), legacy and quote records', async () => {
    seedConsentCases(emulator());
    const { code, out } = await run(emulator(), 'retention');
    expect(code).toBe(0);
    expect(out).toEqual([
      expect.stringMatching(
        /: deleted 2 in Waitlist, 0 in School Quotes \(1 of them unconfirmed sign-ups\) \(3 requests to Airtable\)$/,
      ),
    ]);
    expect(emails(emulator(), WAITLIST)).toEqual(KEPT);
    expect(emails(emulator(), QUOTES)).toEqual(['quote-60d@x.co']);
  });
});

describe('unconfirmed sign-ups: the Cron Trigger job', () => {
  const emulator = useEmulator();

  it('applies the same rule and logs counts, never an email', async () => {
    seedConsentCases(emulator());
    const lines: string[] = [];
    await runRetentionJob(emulatorEnv(emulator()), {
      pacer: createPacer({ perSecond: 50 }),
      now: () => NOW,
      log: (line) => lines.push(line),
    });
    expect(emails(emulator(), WAITLIST)).toEqual(KEPT);
    expect(lines).toEqual([
      expect.stringMatching(
        /deleted 2 in Waitlist, 0 in School Quotes \(1 of them unconfirmed sign-ups\); 0 dead letters; 3 Airtable requests$/,
      ),
    ]);
    expect(lines.join('\n')).not.toContain('@');
  });
});

describe('a base set up before consent (no Consent field)', () => {
  let legacy: Emulator | undefined;
  afterEach(async () => {
    await legacy?.close();
    legacy = undefined;
  });

  it('keeps the 24-month rule for every sign-up, and says the 30-day rule could not apply', async () => {
    legacy = await startEmulatorWithout(WAITLIST, [W.consent.name, W.consentText.name, W.confirmedAt.name]);
    legacy.seed(WAITLIST, { Email: 'old@x.co', 'Last Updated': monthsAgo(25) });
    legacy.seed(WAITLIST, { Email: 'recent@x.co', 'Last Updated': daysAgo(60) });
    const { code, out } = await run(legacy, 'retention');
    expect(code).toBe(0);
    expect(out).toEqual([
      expect.stringMatching(
        /; no Consent field in Waitlist, so no 30-day rule for unconfirmed sign-ups\): deleted 1 in Waitlist, 0 in School Quotes/,
      ),
    ]);
    expect(emails(legacy, WAITLIST)).toEqual(['recent@x.co']);
  });
});
