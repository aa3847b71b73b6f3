import { parseBoundMs, parseFlag } from '@/config/env';
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

describe('answer bound setting', () => {
  it('accepts a positive whole number of milliseconds up to the default, and nothing else', () => {
    expect(parseBoundMs('4000', 30_000)).toBe(4000);
    expect(parseBoundMs(' 30000 ', 30_000)).toBe(30_000);
    expect(parseBoundMs('30001', 30_000)).toBe(30_000);
    expect(parseBoundMs('0', 30_000)).toBe(30_000);
    expect(parseBoundMs('-5', 30_000)).toBe(30_000);
    expect(parseBoundMs('1.5', 30_000)).toBe(30_000);
    expect(parseBoundMs('4s', 30_000)).toBe(30_000);
    expect(parseBoundMs(undefined, 30_000)).toBe(30_000);
    expect(parseBoundMs(true, 30_000)).toBe(30_000);
  });
});
