/**
 * The only reader of `import.meta.env`. Everything the build can be told from outside is
 * validated and typed here once; the rest of the app imports these values.
 */

import { STORAGE_ANSWER_BOUND_MS } from '@/config/constants';

type RawEnv = Record<string, string | boolean | undefined>;

const raw: RawEnv = import.meta.env as unknown as RawEnv;

function readString(name: string): string {
  const value = raw[name];
  return typeof value === 'string' ? value.trim() : '';
}

/** Parses a 'true'/'false' build flag; anything else (or unset) gives the default. */
export function parseFlag(value: string | boolean | undefined, fallback: boolean): boolean {
  if (typeof value === 'boolean') return value;
  const normalised = (value ?? '').trim().toLowerCase();
  if (normalised === 'true' || normalised === '1' || normalised === 'on') return true;
  if (normalised === 'false' || normalised === '0' || normalised === 'off') return false;
  return fallback;
}

/**
 * Parses a build setting in milliseconds: a positive whole number no larger than `max`; anything
 * else (unset, blank, not a whole number, zero, above `max`) gives `fallback`.
 */
export function parseBoundMs(value: string | boolean | undefined, fallback: number, max = fallback): number {
  const text = typeof value === 'string' ? value.trim() : '';
  if (!/^[0-9]+$/.test(text)) return fallback;
  const ms = Number(text);
  return Number.isSafeInteger(ms) && ms > 0 && ms <= max ? ms : fallback;
}

/** The real Airtable API; the dev server and tests point the client at the local emulator instead. */
export const AIRTABLE_DEFAULT_ENDPOINT = 'https://api.airtable.com';

export const env = {
  airtableApiKey: readString('VITE_AIRTABLE_API_KEY'),
  airtableBaseId: readString('VITE_AIRTABLE_BASE_ID'),
  airtableEndpointUrl: readString('VITE_AIRTABLE_ENDPOINT_URL') || AIRTABLE_DEFAULT_ENDPOINT,
  gaMeasurementId: readString('VITE_GA_MEASUREMENT_ID'),
  /** gtag.js location; tests serve a loopback stand-in. */
  gaScriptUrl: readString('VITE_GA_SCRIPT_URL') || 'https://www.googletagmanager.com/gtag/js',
  /** Absolute origin the site is served from, for canonical links and share previews. */
  siteUrl: (readString('VITE_SITE_URL') || 'https://www.podling.app').replace(/\/+$/, ''),
  /**
   * Longest a visitor waits for a form's answer. Unset in production (the spec's 30 s); the
   * end-to-end builds shorten it so fault tests need not wait 30 s. It can only shorten the bound.
   */
  storageAnswerBoundMs: parseBoundMs(raw.VITE_STORAGE_ANSWER_BOUND_MS, STORAGE_ANSWER_BOUND_MS),
  isDev: raw.DEV === true,
  rawFlags: {
    APP_STORE_BUTTON: raw.VITE_FEATURE_APP_STORE_BUTTON,
    GOOGLE_PLAY_BUTTON: raw.VITE_FEATURE_GOOGLE_PLAY_BUTTON,
    SCHOOLS_PAGE: raw.VITE_FEATURE_SCHOOLS_PAGE,
    TEMP_ISSUE_POPUP: raw.VITE_FEATURE_TEMP_ISSUE_POPUP,
  },
} as const;
