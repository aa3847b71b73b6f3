import { parseFlag } from '@/config/env';
import { FLAG_DEFAULTS, resolveFlags } from '@/config/flags';

describe('feature flags', () => {
  it('has the spec defaults', () => {
    expect(FLAG_DEFAULTS).toEqual({
      APP_STORE_BUTTON: true,
      GOOGLE_PLAY_BUTTON: true,
      SCHOOLS_PAGE: true,
      TEMP_ISSUE_POPUP: false,
    });
    expect(resolveFlags({})).toEqual(FLAG_DEFAULTS);
  });

  it('lets build-time values override each flag', () => {
    expect(
      resolveFlags({
        APP_STORE_BUTTON: 'false',
        GOOGLE_PLAY_BUTTON: 'FALSE',
        SCHOOLS_PAGE: 'false',
        TEMP_ISSUE_POPUP: 'true',
      }),
    ).toEqual({
      APP_STORE_BUTTON: false,
      GOOGLE_PLAY_BUTTON: false,
      SCHOOLS_PAGE: false,
      TEMP_ISSUE_POPUP: true,
    });
  });

  it('falls back to the default on anything that is not a clear yes or no', () => {
    expect(parseFlag('maybe', true)).toBe(true);
    expect(parseFlag('', false)).toBe(false);
    expect(parseFlag(undefined, true)).toBe(true);
    expect(parseFlag(' true ', false)).toBe(true);
    expect(parseFlag('0', true)).toBe(false);
  });
});
