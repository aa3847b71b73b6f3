/**
 * The server's Airtable settings, from its environment: the Worker's bindings, and the owner's
 * commands' process environment (which also take flags).
 * Everything that talks to Airtable on the server reads them here, so no module has to import
 * a store to learn where the base is.
 */
import { AIRTABLE_DEFAULT_ENDPOINT } from '#src/config/settings.ts';

/** The server's environment variables for Airtable (names kept: deploys and tests set them). */
export interface AirtableEnv {
  AIRTABLE_API_KEY?: string;
  AIRTABLE_BASE_ID?: string;
  /** Airtable's API origin (or the local emulator's); Airtable's API when unset. */
  AIRTABLE_ENDPOINT_URL?: string;
}

/** Where and as whom to call Airtable. A token only ever comes from the environment or a flag. */
export interface AirtableAccess {
  endpointUrl: string;
  baseId: string;
  token: string;
}

/** The server's access to its base: the site's token (AIRTABLE_API_KEY), trimmed; '' when unset. */
export function airtableAccess(env: AirtableEnv): AirtableAccess {
  return {
    endpointUrl: env.AIRTABLE_ENDPOINT_URL?.trim() || AIRTABLE_DEFAULT_ENDPOINT,
    baseId: env.AIRTABLE_BASE_ID?.trim() ?? '',
    token: env.AIRTABLE_API_KEY?.trim() ?? '',
  };
}

/**
 * The site's own origin, from the Worker's SITE_URL (`https://podling.app`; in `vite` and `vite
 * preview`, the address the server serves): the one Origin a form post is taken from and the one
 * every emailed link leads to. Never taken from a request: a forged Host or an absolute request
 * line would otherwise put a stranger's address into links the site signs.
 */
export function siteOriginOf(value: string | undefined): { origin: string } | { problem: string } {
  const text = value?.trim() ?? '';
  if (!text) return { problem: 'SITE_URL is not set: the address every emailed link leads to' };
  try {
    const url = new URL(text);
    if (url.protocol === 'https:' || url.protocol === 'http:') return { origin: url.origin };
  } catch {
    // Reported below.
  }
  return { problem: `SITE_URL is not an http(s) address: ${JSON.stringify(text)}` };
}
