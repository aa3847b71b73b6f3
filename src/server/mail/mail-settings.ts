/**
 * The server's mail settings from its environment, read one way on every host, and the launch
 * check's lines for them. Which transport carries mail follows from what is set:
 *
 * | host                                   | transport                                    |
 * |----------------------------------------|----------------------------------------------|
 * | the Worker                             | its `send_email` binding (`EMAIL`)            |
 * | Netlify, `vite preview`, with RESEND_API_KEY | Resend                                  |
 * | anything without a provider (`vite`, tests) | the local outbox in MAIL_OUTBOX_DIR     |
 */
import { isValidEmail } from '#src/lib/email.ts';
import { LINK_SECRET_MIN_LENGTH, linkSecretProblem } from './signed-link.ts';

/** The environment variables the mail settings read (names are the owner's interface: keep them). */
export interface MailEnv {
  /** The sender, `Name <address>` or an address on a domain with SPF, DKIM and DMARC set up. */
  MAIL_FROM?: string;
  /** Who hears of each quote request. */
  SCHOOLS_TEAM_EMAIL?: string;
  /** Signs every link in the site's emails (32+ characters). */
  LINK_SECRET?: string;
  /** A previous LINK_SECRET still honoured after a rotation (links live 7 days). */
  LINK_SECRET_PREVIOUS?: string;
  /** Resend's API key (Netlify, `vite preview`); unset: the local outbox. */
  RESEND_API_KEY?: string;
  /** Where the local outbox writes `.eml` files (default `.data/outbox`). */
  MAIL_OUTBOX_DIR?: string;
}

/** The prefixes of the mail settings' variable names (for loaders that take prefixes). */
export const MAIL_ENV_PREFIXES = ['MAIL_', 'SCHOOLS_', 'LINK_', 'RESEND_'] as const;

export interface MailSettings {
  readonly from: { readonly email: string; readonly name?: string };
  readonly schoolsTeamEmail: string;
  /** Current first. */
  readonly linkSecrets: readonly string[];
}

/** The sender used when MAIL_FROM is unset (local runs and tests only; launch-check fails it). */
export const DEFAULT_MAIL_FROM = 'Podling <hello@podling.app>';
/** Where quote notifications go when SCHOOLS_TEAM_EMAIL is unset (local runs and tests only). */
export const DEFAULT_SCHOOLS_TEAM_EMAIL = 'schools@podling.app';

/** `Name <address>` or a bare address, or null when it is neither. */
export function parseMailbox(value: string): { email: string; name?: string } | null {
  const trimmed = value.trim();
  const named = /^(.*?)\s*<([^<>\s]+)>$/.exec(trimmed);
  const email = named ? (named[2] ?? '') : trimmed;
  const name = named?.[1]?.replace(/^"(.*)"$/, '$1').trim();
  if (!isValidEmail(email) || /[\r\n]/.test(trimmed)) return null;
  return name ? { email, name } : { email };
}

export class MailSettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MailSettingsError';
  }
}

/**
 * Reads the mail settings; throws MailSettingsError naming what is wrong. In a local run
 * (`local`: `vite`, `vite preview` without settings, tests) a missing LINK_SECRET is replaced by a
 * fixed development secret, so the journey works with no setup; on a deploy it is required.
 */
export function parseMailSettings(env: MailEnv, { local }: { local: boolean }): MailSettings {
  const from = parseMailbox(env.MAIL_FROM ?? DEFAULT_MAIL_FROM);
  if (!from)
    throw new MailSettingsError(
      `MAIL_FROM is not an address or "Name <address>": ${JSON.stringify(env.MAIL_FROM)}`,
    );
  const team = env.SCHOOLS_TEAM_EMAIL?.trim() || DEFAULT_SCHOOLS_TEAM_EMAIL;
  if (!isValidEmail(team))
    throw new MailSettingsError(`SCHOOLS_TEAM_EMAIL is not an address: ${JSON.stringify(team)}`);
  const secret = env.LINK_SECRET ?? (local ? LOCAL_LINK_SECRET : undefined);
  const problem = linkSecretProblem(secret);
  if (problem || !secret) throw new MailSettingsError(problem ?? 'LINK_SECRET is not set');
  const previous =
    env.LINK_SECRET_PREVIOUS && !linkSecretProblem(env.LINK_SECRET_PREVIOUS)
      ? [env.LINK_SECRET_PREVIOUS]
      : [];
  return { from, schoolsTeamEmail: team, linkSecrets: [secret, ...previous] };
}

/** Signs links in local runs only: public, so nothing signed with it is worth anything on a deploy. */
export const LOCAL_LINK_SECRET = 'local-development-link-secret-not-for-deploys';

const PASS = '✓';
const FAIL = '✗';
const WARN = '!';

/** The launch check's lines for mail: [passed, line]. */
export function mailChecklist(env: MailEnv): [boolean, string][] {
  const lines: [boolean, string][] = [];
  const secretProblem = linkSecretProblem(env.LINK_SECRET);
  lines.push(
    secretProblem
      ? [
          false,
          `${FAIL} ${secretProblem} Set it on the host as a secret (at least ${LINK_SECRET_MIN_LENGTH} random characters).`,
        ]
      : [true, `${PASS} LINK_SECRET: ${env.LINK_SECRET?.length ?? 0} characters`],
  );
  const from = env.MAIL_FROM ? parseMailbox(env.MAIL_FROM) : null;
  lines.push(
    from
      ? [true, `${PASS} MAIL_FROM: ${from.email}`]
      : [
          false,
          `${FAIL} MAIL_FROM is ${env.MAIL_FROM ? 'not an address' : 'not set'}: confirmation emails need a sender on your own domain`,
        ],
  );
  const team = env.SCHOOLS_TEAM_EMAIL?.trim();
  lines.push(
    team && isValidEmail(team)
      ? [true, `${PASS} SCHOOLS_TEAM_EMAIL: ${team}`]
      : [
          false,
          `${FAIL} SCHOOLS_TEAM_EMAIL is ${team ? 'not an address' : 'not set'}: nobody would hear of quote requests`,
        ],
  );
  lines.push(
    env.RESEND_API_KEY
      ? [true, `${PASS} mail provider: Resend (RESEND_API_KEY is set) for Netlify and vite preview`]
      : [
          true,
          `${WARN} mail provider: on the Worker, the send_email binding (wrangler.jsonc); on Netlify or vite preview set RESEND_API_KEY, or mail only reaches the local outbox`,
        ],
  );
  const domain = from?.email.split('@')[1] ?? 'your sending domain';
  lines.push([
    true,
    `${WARN} DNS for ${domain}: publish SPF, DKIM and DMARC records for the provider (Cloudflare Email Service adds them when you onboard the domain; Resend lists them under Domains), or mail lands in spam`,
  ]);
  return lines;
}
