import { env, parseFlag } from '@/config/env';

export type FeatureFlag = 'APP_STORE_BUTTON' | 'GOOGLE_PLAY_BUTTON' | 'SCHOOLS_PAGE' | 'TEMP_ISSUE_POPUP';

/** The spec's defaults (section 6); each can be overridden at build time by VITE_FEATURE_<NAME>. */
export const FLAG_DEFAULTS: Readonly<Record<FeatureFlag, boolean>> = {
  APP_STORE_BUTTON: true,
  GOOGLE_PLAY_BUTTON: true,
  SCHOOLS_PAGE: true,
  TEMP_ISSUE_POPUP: false,
};

/** Resolves every flag from raw build-time values, falling back to the spec's defaults. */
export function resolveFlags(
  rawFlags: Partial<Record<FeatureFlag, string | boolean | undefined>>,
): Readonly<Record<FeatureFlag, boolean>> {
  return {
    APP_STORE_BUTTON: parseFlag(rawFlags.APP_STORE_BUTTON, FLAG_DEFAULTS.APP_STORE_BUTTON),
    GOOGLE_PLAY_BUTTON: parseFlag(rawFlags.GOOGLE_PLAY_BUTTON, FLAG_DEFAULTS.GOOGLE_PLAY_BUTTON),
    SCHOOLS_PAGE: parseFlag(rawFlags.SCHOOLS_PAGE, FLAG_DEFAULTS.SCHOOLS_PAGE),
    TEMP_ISSUE_POPUP: parseFlag(rawFlags.TEMP_ISSUE_POPUP, FLAG_DEFAULTS.TEMP_ISSUE_POPUP),
  };
}

export const flags = resolveFlags(env.rawFlags);
