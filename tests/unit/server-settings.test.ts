import { AIRTABLE_DEFAULT_ENDPOINT } from '#src/config/constants.ts';
import {
  adminTokenProblem,
  airtableAccess,
  DEFAULT_MAIL_FROM,
  linkSecretProblem,
  parseMailSettings,
  siteOriginOf,
} from '#src/server/settings.ts';

const SECRET = 's'.repeat(32);

describe("the Worker's settings, parsed in one module", () => {
  it('SITE_URL: its origin, or a problem naming SITE_URL and the value', () => {
    expect(siteOriginOf(' https://www.example.org/path?q=1 ')).toEqual({ origin: 'https://www.example.org' });
    expect(siteOriginOf('http://127.0.0.1:5173')).toEqual({ origin: 'http://127.0.0.1:5173' });
    expect(siteOriginOf(undefined)).toEqual({
      problem: 'SITE_URL is not set: the address every emailed link leads to',
    });
    expect(siteOriginOf('  ')).toEqual({
      problem: 'SITE_URL is not set: the address every emailed link leads to',
    });
    expect(siteOriginOf('ftp://example.org')).toEqual({
      problem: 'SITE_URL is not an http(s) address: "ftp://example.org"',
    });
    expect(siteOriginOf('example.org')).toEqual({
      problem: 'SITE_URL is not an http(s) address: "example.org"',
    });
  });

  it('LINK_SECRET: set and at least 32 characters, untrimmed', () => {
    expect(linkSecretProblem(undefined)).toBe(
      'LINK_SECRET is not set: the server cannot sign confirmation links.',
    );
    expect(linkSecretProblem('short')).toBe(
      'LINK_SECRET is 5 characters; it needs at least 32 (for example `openssl rand -base64 48`).',
    );
    expect(linkSecretProblem(SECRET)).toBeNull();
  });

  it('ADMIN_TOKEN: unset is fine (the endpoint is off); set, at least 32 characters once trimmed', () => {
    expect(adminTokenProblem(undefined)).toBeNull();
    expect(adminTokenProblem('   ')).toBeNull();
    expect(adminTokenProblem(' 1234567 ')).toBe(
      'ADMIN_TOKEN is 7 characters; use at least 32 random ones (openssl rand -hex 32)',
    );
    expect(adminTokenProblem('t'.repeat(32))).toBeNull();
  });

  it("AIRTABLE_*: trimmed, '' when unset, Airtable's own API when no endpoint is given", () => {
    expect(airtableAccess({})).toEqual({ endpointUrl: AIRTABLE_DEFAULT_ENDPOINT, baseId: '', token: '' });
    expect(
      airtableAccess({
        AIRTABLE_API_KEY: ' pat.x ',
        AIRTABLE_BASE_ID: ' appX ',
        AIRTABLE_ENDPOINT_URL: ' http://127.0.0.1:9 ',
      }),
    ).toEqual({ endpointUrl: 'http://127.0.0.1:9', baseId: 'appX', token: 'pat.x' });
    expect(airtableAccess({ AIRTABLE_ENDPOINT_URL: ' ' }).endpointUrl).toBe(AIRTABLE_DEFAULT_ENDPOINT);
  });

  it('mail: each problem names its setting, in the order MAIL_FROM, SCHOOLS_TEAM_EMAIL, LINK_SECRET', () => {
    expect(() => parseMailSettings({ MAIL_FROM: 'nobody', SCHOOLS_TEAM_EMAIL: 'team' })).toThrow(
      'MAIL_FROM is not an address or "Name <address>": "nobody"',
    );
    expect(() => parseMailSettings({ MAIL_FROM: '', LINK_SECRET: SECRET })).toThrow(/^MAIL_FROM is not/);
    expect(() => parseMailSettings({ SCHOOLS_TEAM_EMAIL: ' team ' })).toThrow(
      'SCHOOLS_TEAM_EMAIL is not an address: "team"',
    );
    expect(() => parseMailSettings({})).toThrow(/^LINK_SECRET is not set/);
    expect(() => parseMailSettings({ LINK_SECRET: 'x'.repeat(31) })).toThrow(/^LINK_SECRET is 31 characters/);
  });

  it('mail: the defaults, a named sender, and the secrets current first', () => {
    const settings = parseMailSettings({ LINK_SECRET: SECRET, LINK_SECRET_PREVIOUS: 'p'.repeat(40) });
    expect(settings).toEqual({
      from: { email: 'hello@podling.app', name: 'Podling' },
      teamEmails: expect.objectContaining({ SCHOOLS_TEAM_EMAIL: 'schools@podling.app' }),
      linkSecrets: [SECRET, 'p'.repeat(40)],
    });
    expect(DEFAULT_MAIL_FROM).toBe('Podling <hello@podling.app>');
    expect(
      parseMailSettings({
        LINK_SECRET: SECRET,
        LINK_SECRET_PREVIOUS: 'short',
        MAIL_FROM: '"Podling Team" <hi@example.org>',
        SCHOOLS_TEAM_EMAIL: ' team@example.org ',
      }),
    ).toEqual({
      from: { email: 'hi@example.org', name: 'Podling Team' },
      teamEmails: expect.objectContaining({ SCHOOLS_TEAM_EMAIL: 'team@example.org' }),
      linkSecrets: [SECRET],
    });
  });
});
