/**
 * The Worker's mail settings from its environment (the launch check's lines for them are in
 * scripts/launch-kit/checklist.ts). Mail leaves through the `send_email` binding (`EMAIL`) on a
 * deploy, and through the local outbox (MAIL_OUTBOX_URL, set by `vite` and `vite preview`, whose
 * stand-in writes `.eml` files to MAIL_OUTBOX_DIR) in local runs (mail-queue.ts).
 */
import { isValidEmail } from '#src/lib/email.ts';
import { linkSecretProblem } from './signed-link.ts';

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
  /** Local runs only: where the Worker posts its emails (the emulator's outbox). */
  MAIL_OUTBOX_URL?: string;
}

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
 * Reads the mail settings; throws MailSettingsError naming what is wrong. LINK_SECRET is required
 * everywhere: no secret from the repository signs a link (`vite` and `vite preview` make the
 * checkout its own, scripts/vite-plugins/worker-server.ts; a deploy sets its own).
 */
export function parseMailSettings(env: MailEnv): MailSettings {
  const from = parseMailbox(env.MAIL_FROM ?? DEFAULT_MAIL_FROM);
  if (!from)
    throw new MailSettingsError(
      `MAIL_FROM is not an address or "Name <address>": ${JSON.stringify(env.MAIL_FROM)}`,
    );
  const team = env.SCHOOLS_TEAM_EMAIL?.trim() || DEFAULT_SCHOOLS_TEAM_EMAIL;
  if (!isValidEmail(team))
    throw new MailSettingsError(`SCHOOLS_TEAM_EMAIL is not an address: ${JSON.stringify(team)}`);
  const secret = env.LINK_SECRET;
  const problem = linkSecretProblem(secret);
  if (problem || !secret) throw new MailSettingsError(problem ?? 'LINK_SECRET is not set');
  const previous =
    env.LINK_SECRET_PREVIOUS && !linkSecretProblem(env.LINK_SECRET_PREVIOUS)
      ? [env.LINK_SECRET_PREVIOUS]
      : [];
  return { from, schoolsTeamEmail: team, linkSecrets: [secret, ...previous] };
}
