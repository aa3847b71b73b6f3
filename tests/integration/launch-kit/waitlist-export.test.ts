// @vitest-environment node
/**
 * `npm run waitlist:export` (scripts/launch-kit/waitlist-export.ts) against the emulator: the
 * Confirmed sign-ups only, as RFC 4180 CSV with no cell a spreadsheet would run, through every
 * page of the base; the summary on stderr, so a redirect keeps only the CSV.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AIRTABLE_SCHEMA } from '#src/lib/airtable/schema.ts';
import { main as exportWaitlist } from '#scripts/launch-kit/waitlist-export.ts';
import {
  type Emulator,
  emulatorEnv,
  startEmulatorWithout,
  useEmulator,
} from '#tests/integration/support/emulator.ts';

const WAITLIST = AIRTABLE_SCHEMA.waitlist.name;
const W = AIRTABLE_SCHEMA.waitlist.fields;
const HEADER = 'email,interests,Confirmed At\r\n';

async function run(emulator: Emulator, argv: string[] = [], environment = emulatorEnv(emulator)) {
  let csv = '';
  const err: string[] = [];
  const code = await exportWaitlist(argv, environment, {
    write: (chunk) => (csv += chunk),
    err: (line) => err.push(line),
  });
  return { code, csv, err };
}

const signUp = (
  emulator: Emulator,
  email: string,
  consent: string | undefined,
  more: Record<string, unknown> = {},
) =>
  emulator.seed(WAITLIST, {
    [W.email.name]: email,
    [W.interests.name]: ['General Waitlist'],
    ...(consent ? { [W.consent.name]: consent } : {}),
    ...more,
  });

describe('npm run waitlist:export', () => {
  const emulator = useEmulator();

  it('prints the Confirmed sign-ups only, oldest confirmation first, with interests and Confirmed At', async () => {
    signUp(emulator(), 'pending@x.co', 'Pending');
    signUp(emulator(), 'withdrawn@x.co', 'Withdrawn', { [W.confirmedAt.name]: '2030-01-02T10:00:00.000Z' });
    signUp(emulator(), 'legacy@x.co', undefined);
    signUp(emulator(), 'second@x.co', 'Confirmed', {
      [W.interests.name]: ['Use Podling', 'Invest in Podling'],
      [W.confirmedAt.name]: '2030-03-04T05:06:07.000Z',
    });
    signUp(emulator(), 'first@x.co', 'Confirmed', { [W.confirmedAt.name]: '2030-01-01T00:00:00.000Z' });

    const { code, csv, err } = await run(emulator());
    expect(code).toBe(0);
    expect(csv).toBe(
      HEADER +
        'first@x.co,General Waitlist,2030-01-01T00:00:00.000Z\r\n' +
        'second@x.co,Use Podling; Invest in Podling,2030-03-04T05:06:07.000Z\r\n',
    );
    expect(err).toEqual([
      expect.stringMatching(/^Exported 2 confirmed sign-ups \(1 request to Airtable\)\.$/),
    ]);
    expect(csv).not.toMatch(/pending|withdrawn|legacy/);
  });

  it('quotes by RFC 4180 and neutralises cells a spreadsheet would run as formulas', async () => {
    signUp(emulator(), 'parent@x.co', 'Confirmed', {
      [W.interests.name]: ['=HYPERLINK("http://x.example")', 'Partner, "big" one'],
      [W.confirmedAt.name]: '2030-01-01T00:00:00.000Z',
    });
    const { csv } = await run(emulator());
    const interests = ['=HYPERLINK("http://x.example")', 'Partner, "big" one'].join('; ');
    expect(csv).toBe(`${HEADER}parent@x.co,"'${interests.replace(/"/g, '""')}",2030-01-01T00:00:00.000Z\r\n`);
  });

  it('pages through more than 100 confirmed sign-ups', async () => {
    for (let i = 0; i < 130; i += 1)
      signUp(emulator(), `p${String(i).padStart(3, '0')}@x.co`, i % 10 === 0 ? 'Pending' : 'Confirmed', {
        [W.confirmedAt.name]: '2030-01-01T00:00:00.000Z',
      });
    const { code, csv, err } = await run(emulator());
    expect(code).toBe(0);
    const rows = csv.split('\r\n').slice(1, -1);
    expect(rows).toHaveLength(117);
    expect(rows[0]).toBe('p001@x.co,General Waitlist,2030-01-01T00:00:00.000Z');
    expect(err[0]).toMatch(/^Exported 117 confirmed sign-ups \(2 requests to Airtable\)\.$/);
  }, 30_000);

  it('answers missing settings with 2 and a refused token with 1, printing no CSV', async () => {
    expect((await run(emulator(), [], {} as ReturnType<typeof emulatorEnv>)).code).toBe(2);
    expect((await run(emulator(), ['--nope'])).code).toBe(2);
    const refused = await run(emulator(), ['--site-token', 'wrong']);
    expect(refused.code).toBe(1);
    expect(refused.csv).toBe('');
    expect(refused.err[0]).toMatch(/^Airtable answered 401/);
  });
});

describe('npm run waitlist:export on a base set up before consent', () => {
  let legacy: Emulator | undefined;
  afterEach(async () => {
    await legacy?.close();
    legacy = undefined;
  });

  it('fails with exit code 1 and says which fields are missing', async () => {
    legacy = await startEmulatorWithout(WAITLIST, [W.consent.name, W.consentText.name, W.confirmedAt.name]);
    legacy.seed(WAITLIST, { [W.email.name]: 'someone@x.co' });
    const { code, csv, err } = await run(legacy);
    expect(code).toBe(1);
    expect(csv).toBe('');
    expect(err[0]).toMatch(/needs the Consent and Confirmed At fields \(npm run airtable:setup\)/);
  });
});
