/**
 * The Worker's settings by their deploy names (docs/deploy.md), each read by a valibot schema naming it, as the
 * owner's commands do. Server only: valibot stays out of the page's bundle (its VITE_*: src/config/settings.ts).
 */
import * as v from 'valibot';
import { AIRTABLE_DEFAULT_ENDPOINT } from '#src/config/constants.ts';
import { isValidEmail } from '#src/lib/email.ts';
import { formTeams } from '#src/lib/forms/forms.ts';

/** The shortest `LINK_SECRET` the server accepts (32 characters: 192+ bits from a random generator). */
export const LINK_SECRET_MIN_LENGTH = 32;
/** Shortest ADMIN_TOKEN the endpoint accepts: a token a person picks is guessed, a random one is not. */
export const ADMIN_TOKEN_MIN_LENGTH = 32;
/** The sender used when MAIL_FROM is unset (local runs and tests only; launch-check fails it). */
export const DEFAULT_MAIL_FROM = 'Podling <hello@podling.app>';
const NAMED = [
  'SITE_URL',
  'AIRTABLE_API_KEY',
  'AIRTABLE_BASE_ID',
  'AIRTABLE_ENDPOINT_URL',
  'LINK_SECRET',
  'LINK_SECRET_PREVIOUS',
  'MAIL_FROM',
  'ADMIN_TOKEN',
] as const;
const TEAMS = formTeams();
/** The settings a deploy (or the shell, in local runs: scripts/vite-plugins/worker-server.ts) gives, each team's address too. */
export const WORKER_SETTINGS = [...NAMED, ...TEAMS.map((team) => team.addressSetting)];
/** Each team's address, by the setting its form's conduct.tellsTeam names. */
type Teams = { readonly [setting: `${string}_EMAIL`]: string | undefined };
/** With MAIL_OUTBOX_URL, local runs only (`vite`, `vite preview`, tests): the emails go to that outbox. */
export type WorkerSettingsEnv = Partial<Record<(typeof NAMED)[number] | 'MAIL_OUTBOX_URL', string>> & Teams;
export type AirtableEnv = Pick<WorkerSettingsEnv, `AIRTABLE_${string}` & keyof WorkerSettingsEnv>;

const text = (fallback = '') => v.optional(v.string(), fallback);
/** Trimmed; blank is the fallback. */
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

/** Unset, the dead-letter endpoint does not exist; set, it must be long enough. */
const ADMIN_TOKEN = v.pipe(
  trimmed(),
  v.check(
    (value) => value === '' || value.length >= ADMIN_TOKEN_MIN_LENGTH,
    (issue) =>
      `ADMIN_TOKEN is ${issue.input.length} characters; use at least ${ADMIN_TOKEN_MIN_LENGTH} random ones (openssl rand -hex 32)`,
  ),
);

/** A team's address: the setting its form names, its default while unset. */
const address = (name: string, fallback: string) =>
  v.pipe(
    trimmed(fallback),
    v.check(isValidEmail, (issue) => `${name} is not an address: ${quoted(issue)}`),
  );

/**
 * LINK_SECRET is required everywhere: no repository's secret signs a link (`vite`, `vite preview` make the
 * checkout its own: worker-server.ts). A previous one honoured after a rotation comes second, unless too short.
 */
const MAIL = v.pipe(
  v.object({
    MAIL_FROM: v.pipe(
      text(DEFAULT_MAIL_FROM),
      v.check(
        (value) => parseMailbox(value) !== null,
        (issue) => `MAIL_FROM is not an address or "Name <address>": ${quoted(issue)}`,
      ),
    ),
    ...Object.fromEntries(
      TEAMS.map((team) => [team.addressSetting, address(team.addressSetting, team.defaultAddress)]),
    ),
    LINK_SECRET,
    LINK_SECRET_PREVIOUS: text(),
  }),
  v.transform(({ MAIL_FROM, LINK_SECRET, LINK_SECRET_PREVIOUS, ...teams }) => ({
    from: parseMailbox(MAIL_FROM) ?? { email: MAIL_FROM },
    /** Each team's address by its setting: the entries above, which valibot's type leaves out. */
    teamEmails: teams as Readonly<Record<string, string>>,
    linkSecrets: [LINK_SECRET, ...(linkSecretProblem(LINK_SECRET_PREVIOUS) ? [] : [LINK_SECRET_PREVIOUS])],
  })),
);

/** The first problem's message (in the schema's order), or null. */
const problemOf = (schema: v.GenericSchema, value: unknown) =>
  v.safeParse(schema, value, { abortEarly: true }).issues?.[0].message ?? null;

/**
 * SITE_URL's origin (under `vite`, `vite preview`: the address served): the one Origin a post is taken from
 * and every emailed link leads to. Never from a request (its Host, request line or a forwarding header): a
 * forged one would put a stranger's address into links the site signs.
 */
export function siteOriginOf(value: string | undefined): { origin: string } | { problem: string } {
  const site = v.safeParse(SITE_URL, value, { abortEarly: true });
  return site.success ? { origin: site.output } : { problem: site.issues[0].message };
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

/** Where and as whom the server calls Airtable: each trimmed, '' when unset (a token only ever from the environment or a flag). */
export const airtableAccess = (env: AirtableEnv) => ({
  endpointUrl: v.parse(trimmed(AIRTABLE_DEFAULT_ENDPOINT), env.AIRTABLE_ENDPOINT_URL),
  baseId: v.parse(trimmed(), env.AIRTABLE_BASE_ID),
  token: v.parse(trimmed(), env.AIRTABLE_API_KEY),
});
export type AirtableAccess = ReturnType<typeof airtableAccess>;

/** The mail settings: the sender, each team's address and the link secrets, current first; throws naming the setting that is wrong. */
export const parseMailSettings = (env: WorkerSettingsEnv) => v.parse(MAIL, env, { abortEarly: true });

// A problem with the settings is logged once per isolate, not once per request.
const reported = new Set<string>();
export function reportOnce(problem: string) {
  if (reported.has(problem)) return;
  reported.add(problem);
  console.error(`The Worker is set up wrongly, so it stores and sends nothing until it is fixed: ${problem}`);
}
