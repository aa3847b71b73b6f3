/**
 * The Worker's settings: its variables and secrets (wrangler.jsonc, `wrangler secret put`,
 * .dev.vars, the Vite plugin's stand-ins), each read by one valibot schema whose message names the
 * setting. The owner's commands (scripts/launch-kit/) read the same ones. Server side only: the
 * page's bundle never imports src/server/, so valibot never reaches it (the build's VITE_* settings
 * are src/config/settings.ts, which the page does import).
 */
import * as v from 'valibot';
import { AIRTABLE_DEFAULT_ENDPOINT } from '#src/config/constants.ts';
import { isValidEmail } from '#src/lib/email.ts';

/** The shortest `LINK_SECRET` the server accepts (32 characters: 192+ bits from a random generator). */
export const LINK_SECRET_MIN_LENGTH = 32;
/** Shortest ADMIN_TOKEN the endpoint accepts: a token a person picks is guessed, a random one is not. */
export const ADMIN_TOKEN_MIN_LENGTH = 32;
/** The sender used when MAIL_FROM is unset (local runs and tests only; launch-check fails it). */
export const DEFAULT_MAIL_FROM = 'Podling <hello@podling.app>';
/** Where quote notifications go when SCHOOLS_TEAM_EMAIL is unset (local runs and tests only). */
export const DEFAULT_SCHOOLS_TEAM_EMAIL = 'schools@podling.app';

/** The settings by their names (the owner's interface: deploys and tests set them; keep them). */
export interface WorkerSettingsEnv {
  /** The site's address (`https://podling.app`): every emailed link leads there. */
  SITE_URL?: string;
  AIRTABLE_API_KEY?: string;
  AIRTABLE_BASE_ID?: string;
  /** Airtable's API origin (or the local emulator's); Airtable's API when unset. */
  AIRTABLE_ENDPOINT_URL?: string;
  /** The sender, `Name <address>` or an address on a domain with SPF, DKIM and DMARC set up. */
  MAIL_FROM?: string;
  /** Who hears of each quote request. */
  SCHOOLS_TEAM_EMAIL?: string;
  /** Signs every link in the site's emails (32+ characters). */
  LINK_SECRET?: string;
  /** A previous LINK_SECRET still honoured after a rotation (links live 7 days). */
  LINK_SECRET_PREVIOUS?: string;
  /** Local runs only (`vite`, `vite preview`, tests): the emails go to this outbox, not EMAIL. */
  MAIL_OUTBOX_URL?: string;
}
/** The Airtable settings alone (the owner's commands also take them as flags). */
export type AirtableEnv = Pick<WorkerSettingsEnv, `AIRTABLE_${string}` & keyof WorkerSettingsEnv>;

const text = (fallback = '') => v.optional(v.string(), fallback);
const trimmed = (fallback = '') =>
  v.pipe(
    text(),
    v.trim(),
    v.transform((value) => value || fallback),
  );
const quoted = (issue: { input: unknown }) => JSON.stringify(issue.input);

const SITE_URL = v.pipe(
  trimmed(),
  v.nonEmpty('SITE_URL is not set: the address every emailed link leads to'),
  v.check(
    (value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol),
    (issue) => `SITE_URL is not an http(s) address: ${quoted(issue)}`,
  ),
  v.transform((value) => new URL(value).origin),
);

const LINK_SECRET = v.pipe(
  text(),
  v.nonEmpty('LINK_SECRET is not set: the server cannot sign confirmation links.'),
  v.minLength(
    LINK_SECRET_MIN_LENGTH,
    (issue) =>
      `LINK_SECRET is ${issue.input.length} characters; it needs at least ${LINK_SECRET_MIN_LENGTH} (for example \`openssl rand -base64 48\`).`,
  ),
);

/** Unset, the endpoint does not exist; set, it must be long enough. */
const ADMIN_TOKEN = v.pipe(
  trimmed(),
  v.check(
    (value) => value === '' || value.length >= ADMIN_TOKEN_MIN_LENGTH,
    (issue) =>
      `ADMIN_TOKEN is ${String(issue.input).length} characters; use at least ${ADMIN_TOKEN_MIN_LENGTH} random ones (openssl rand -hex 32)`,
  ),
);

const MAIL = v.object({
  MAIL_FROM: v.pipe(
    text(DEFAULT_MAIL_FROM),
    v.rawTransform(
      ({ dataset, addIssue, NEVER }) =>
        parseMailbox(dataset.value) ??
        (addIssue({
          message: `MAIL_FROM is not an address or "Name <address>": ${JSON.stringify(dataset.value)}`,
        }),
        NEVER),
    ),
  ),
  SCHOOLS_TEAM_EMAIL: v.pipe(
    trimmed(DEFAULT_SCHOOLS_TEAM_EMAIL),
    v.check(isValidEmail, (issue) => `SCHOOLS_TEAM_EMAIL is not an address: ${quoted(issue)}`),
  ),
  LINK_SECRET,
  LINK_SECRET_PREVIOUS: text(),
});

const AIRTABLE = v.object({
  AIRTABLE_ENDPOINT_URL: trimmed(AIRTABLE_DEFAULT_ENDPOINT),
  AIRTABLE_BASE_ID: trimmed(),
  AIRTABLE_API_KEY: trimmed(),
});

/** The first problem's message, or null. */
function problemOf(schema: v.GenericSchema, value: unknown): string | null {
  const result = v.safeParse(schema, value, { abortEarly: true });
  return result.success ? null : (result.issues[0]?.message ?? 'invalid');
}

/**
 * The site's own origin, from SITE_URL (in `vite` and `vite preview`, the address the server
 * serves): the one Origin a form post is taken from and the one every emailed link leads to.
 * Never taken from a request: a forged Host or an absolute request line would otherwise put a
 * stranger's address into links the site signs.
 */
export function siteOriginOf(value: string | undefined): { origin: string } | { problem: string } {
  const result = v.safeParse(SITE_URL, value, { abortEarly: true });
  return result.success ? { origin: result.output } : { problem: result.issues[0].message };
}

/** What is wrong with a `LINK_SECRET`, or null when it can sign links. */
export const linkSecretProblem = (secret: string | undefined) => problemOf(LINK_SECRET, secret);

/** Why the configured ADMIN_TOKEN is refused, or null when it is unset or strong enough. */
export const adminTokenProblem = (token: string | undefined) => problemOf(ADMIN_TOKEN, token);

/** `Name <address>` or a bare address, or null when it is neither (or holds a line break). */
export function parseMailbox(value: string): { readonly email: string; readonly name?: string } | null {
  const trimmed = value.trim();
  const named = /^(.*?)\s*<([^<>\s]+)>$/.exec(trimmed);
  const email = named ? (named[2] ?? '') : trimmed;
  const name = named?.[1]?.replace(/^"(.*)"$/, '$1').trim();
  if (!isValidEmail(email) || /[\r\n]/.test(trimmed)) return null;
  return name ? { email, name } : { email };
}

/** Where and as whom to call Airtable. A token only ever comes from the environment or a flag. */
export interface AirtableAccess {
  endpointUrl: string;
  baseId: string;
  token: string;
}

/** The server's access to its base: the site's token (AIRTABLE_API_KEY), trimmed; '' when unset. */
export function airtableAccess(env: AirtableEnv): AirtableAccess {
  const parsed = v.parse(AIRTABLE, env);
  return {
    endpointUrl: parsed.AIRTABLE_ENDPOINT_URL,
    baseId: parsed.AIRTABLE_BASE_ID,
    token: parsed.AIRTABLE_API_KEY,
  };
}

/**
 * The mail settings; throws an error naming the setting that is wrong. LINK_SECRET is required
 * everywhere: no secret from the repository signs a link (`vite` and `vite preview` make the
 * checkout its own, scripts/vite-plugins/worker-server.ts; a deploy sets its own). A previous
 * secret too short to sign is ignored.
 */
export function parseMailSettings(env: WorkerSettingsEnv) {
  const result = v.safeParse(MAIL, env, { abortEarly: true });
  if (!result.success) throw new Error(result.issues[0].message);
  const {
    MAIL_FROM,
    SCHOOLS_TEAM_EMAIL,
    LINK_SECRET: secret,
    LINK_SECRET_PREVIOUS: previous,
  } = result.output;
  return {
    from: MAIL_FROM,
    schoolsTeamEmail: SCHOOLS_TEAM_EMAIL,
    // The current secret first.
    linkSecrets: previous && !linkSecretProblem(previous) ? [secret, previous] : [secret],
  };
}
