import { STORAGE_ANSWER_BOUND_MS, AIRTABLE_DEFAULT_ENDPOINT } from '#src/config/constants.ts';
import { FLAG_DEFAULTS, parseSiteSettings, SettingsError, SITE_DEFAULT_URL } from '#src/config/settings.ts';

function problemsOf(raw: Record<string, string>): string[] {
  try {
    parseSiteSettings(raw);
  } catch (error) {
    if (error instanceof SettingsError) return error.problems.map((problem) => problem.name);
    throw error;
  }
  return [];
}

describe('build settings', () => {
  it('has the spec defaults when nothing is set: relay mode, flags from section 6', () => {
    const settings = parseSiteSettings({});
    expect(FLAG_DEFAULTS).toEqual({
      APP_STORE_BUTTON: true,
      GOOGLE_PLAY_BUTTON: true,
      SCHOOLS_PAGE: true,
      TEMP_ISSUE_POPUP: false,
    });
    expect(settings.flags).toEqual(FLAG_DEFAULTS);
    expect(settings.storageMode).toBe('relay');
    expect(settings.siteUrl).toBe(SITE_DEFAULT_URL);
    expect(settings.storageAnswerBoundMs).toBe(STORAGE_ANSWER_BOUND_MS);
  });

  it('lets build-time values override each flag, in either case', () => {
    const settings = parseSiteSettings({
      VITE_FEATURE_APP_STORE_BUTTON: 'false',
      VITE_FEATURE_GOOGLE_PLAY_BUTTON: 'FALSE',
      VITE_FEATURE_SCHOOLS_PAGE: ' 0 ',
      VITE_FEATURE_TEMP_ISSUE_POPUP: 'true',
    });
    expect(settings.flags).toEqual({
      APP_STORE_BUTTON: false,
      GOOGLE_PLAY_BUTTON: false,
      SCHOOLS_PAGE: false,
      TEMP_ISSUE_POPUP: true,
    });
  });

  it('refuses a flag that is not a clear yes or no, naming the variable and what it accepts', () => {
    expect(() => parseSiteSettings({ VITE_FEATURE_SCHOOLS_PAGE: 'maybe' })).toThrow(
      /VITE_FEATURE_SCHOOLS_PAGE="maybe": expected 'true' or 'false'/,
    );
  });

  it('refuses URLs that are not absolute http(s) URLs', () => {
    expect(() => parseSiteSettings({ VITE_SITE_URL: 'podling.app' })).toThrow(
      /VITE_SITE_URL="podling.app": expected an absolute http\(s\) URL/,
    );
    expect(problemsOf({ VITE_GA_SCRIPT_URL: 'javascript:alert(1)' })).toEqual(['VITE_GA_SCRIPT_URL']);
    expect(parseSiteSettings({ VITE_SITE_URL: 'https://example.org/' }).siteUrl).toBe('https://example.org');
  });

  it('reports every bad setting at once', () => {
    expect(
      problemsOf({
        VITE_FEATURE_APP_STORE_BUTTON: 'yes please',
        VITE_GA_MEASUREMENT_ID: 'UA-1234',
        VITE_STORAGE_ANSWER_BOUND_MS: '4s',
      }),
    ).toEqual(['VITE_STORAGE_ANSWER_BOUND_MS', 'VITE_GA_MEASUREMENT_ID', 'VITE_FEATURE_APP_STORE_BUTTON']);
  });

  it('takes the answer bound only as a shortening of the spec’s 30 s', () => {
    expect(parseSiteSettings({ VITE_STORAGE_ANSWER_BOUND_MS: '4000' }).storageAnswerBoundMs).toBe(4000);
    for (const value of ['30001', '0', '-5', '1.5']) {
      expect(problemsOf({ VITE_STORAGE_ANSWER_BOUND_MS: value })).toEqual(['VITE_STORAGE_ANSWER_BOUND_MS']);
    }
  });

  it('is in direct mode only with a browser key, which then needs a base id', () => {
    const direct = parseSiteSettings({
      VITE_AIRTABLE_API_KEY: 'patABC.123',
      VITE_AIRTABLE_BASE_ID: 'appABC',
    });
    expect(direct).toMatchObject({
      storageMode: 'direct',
      airtableApiKey: 'patABC.123',
      airtableBaseId: 'appABC',
      airtableEndpointUrl: AIRTABLE_DEFAULT_ENDPOINT,
    });
    expect(problemsOf({ VITE_AIRTABLE_API_KEY: 'patABC.123' })).toEqual(['VITE_AIRTABLE_BASE_ID']);
  });

  it('keeps the base id and endpoint out of a relay-mode build', () => {
    const relay = parseSiteSettings({
      VITE_AIRTABLE_BASE_ID: 'appSecretBase',
      VITE_AIRTABLE_ENDPOINT_URL: 'http://127.0.0.1:9',
    });
    expect(relay).toMatchObject({
      storageMode: 'relay',
      airtableApiKey: '',
      airtableBaseId: '',
      airtableEndpointUrl: '',
    });
  });
});
