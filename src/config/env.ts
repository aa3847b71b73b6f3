/**
 * The only reader of `import.meta.env`. Everything the build can be told from outside is
 * validated and typed here once; the rest of the app imports these values.
 */

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
  isDev: raw.DEV === true,
  rawFlags: {
    APP_STORE_BUTTON: raw.VITE_FEATURE_APP_STORE_BUTTON,
    GOOGLE_PLAY_BUTTON: raw.VITE_FEATURE_GOOGLE_PLAY_BUTTON,
    SCHOOLS_PAGE: raw.VITE_FEATURE_SCHOOLS_PAGE,
    TEMP_ISSUE_POPUP: raw.VITE_FEATURE_TEMP_ISSUE_POPUP,
  },
} as const;
