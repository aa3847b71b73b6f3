/**
 * `npm run launch-check`: what must be real before launch, a line each, exit 1 while any fails. The
 * production build prints it as a warning (vite-plugins/site-settings.ts): the one command it loads.
 */
import {
  ADMIN_TOKEN_MIN_LENGTH,
  adminTokenProblem,
  parseMailbox,
  siteOriginOf,
  type WorkerSettingsEnv,
  LINK_SECRET_MIN_LENGTH,
  linkSecretProblem,
} from '#src/server/settings.ts';
import path from 'node:path';
import { loadEnv } from 'vite';
import { placeholderMarks } from '#src/config/site.ts';
import { parseSiteSettings, SettingsError, type SiteSettings } from '#src/config/settings.ts';
import { LEGAL_REVIEW } from '#src/content/legal/review.ts';
import { cronTriggersOf, isDaily, wranglerVarOf } from './privacy-trigger.ts';
import { TEAM_DIGEST_CRON } from '#src/server/mail/team-inbox.ts';
import { isValidEmail } from '#src/lib/email.ts';
import { formTeams } from '#src/lib/forms/forms.ts';
import { runAsCommand } from '#scripts/command.ts';

export type BuildEnv = Readonly<Record<string, string | undefined>>;

export type Item = [passed: boolean, line: string];

export const pass = (text: string): Item => [true, `✓ ${text}`];
export const fail = (text: string): Item => [false, `✗ ${text}`];
/** Passes, but says what to watch. */
export const warn = (text: string): Item => [true, `! ${text}`];

function storageLines(settings: SiteSettings, env: BuildEnv): Item[] {
  if (settings.storageMode === 'direct') {
    // The spec's mode works, but every visitor can read the key: a warning, not a failure.
    return [
      warn(
        'storage: direct mode (VITE_AIRTABLE_API_KEY is set): the key is in the page and readable by every visitor; ' +
          'give it data.records scopes on this base only, or unset it to use the relay',
      ),
      warn(
        'mail: direct mode has no server, so sign-ups are not confirmed by email and nobody is told of quotes (docs/consent.md)',
      ),
    ];
  }
  const missing = ['AIRTABLE_API_KEY', 'AIRTABLE_BASE_ID'].filter((name) => !env[name]);
  const site = siteOriginOf(env.SITE_URL);
  const siteOrigin = new URL(settings.siteUrl).origin;
  return [
    warn(
      'under a rush: the Worker queues and paces submissions; ' +
        'watch for dead letters with `npm run dead-letters -- list` (ADMIN_TOKEN) — see docs/rush.md',
    ),
    'problem' in site
      ? fail(`${site.problem}. Set it in wrangler.jsonc "vars" to ${siteOrigin}`)
      : site.origin !== siteOrigin || !site.origin.startsWith('https:')
        ? fail(
            `SITE_URL is ${site.origin}: set it to the site's own https address, ${siteOrigin} (VITE_SITE_URL)`,
          )
        : pass(`SITE_URL: ${site.origin} (every emailed link leads there; posts from elsewhere are refused)`),
    missing.length === 0
      ? pass('storage: relay mode; AIRTABLE_API_KEY and AIRTABLE_BASE_ID are set (set them on the host too)')
      : fail(
          `storage: relay mode needs ${missing.join(' and ')} in the host's environment (server-side only; set them here too to check)`,
        ),
    ...mailChecklist(env),
  ];
}

function mailChecklist(env: WorkerSettingsEnv): Item[] {
  const secretProblem = linkSecretProblem(env.LINK_SECRET);
  const from = env.MAIL_FROM ? parseMailbox(env.MAIL_FROM) : null;
  const domain = from?.email.split('@')[1] ?? 'your sending domain';
  return [
    secretProblem
      ? fail(
          `${secretProblem} Set it on the host as a secret (at least ${LINK_SECRET_MIN_LENGTH} random characters).`,
        )
      : pass(`LINK_SECRET: ${env.LINK_SECRET?.length ?? 0} characters`),
    from
      ? pass(`MAIL_FROM: ${from.email}`)
      : fail(
          `MAIL_FROM is ${env.MAIL_FROM ? 'not an address' : 'not set'}: confirmation emails need a sender on your own domain`,
        ),
    ...formTeams().map(({ addressSetting: name, form }) => {
      const team = env[name]?.trim();
      const problem = team ? 'not an address' : 'not set';
      return team && isValidEmail(team)
        ? pass(`${name}: ${team}`)
        : fail(`${name} is ${problem}: nobody would hear of ${form} requests`);
    }),
    env.MAIL_OUTBOX_URL
      ? fail(
          'MAIL_OUTBOX_URL is set: the Worker would write its emails to a local outbox, not send them. Remove it from the deploy',
        )
      : pass('mail: the Worker sends through its send_email binding (wrangler.jsonc)'),
    warn(
      `DNS for ${domain}: publish SPF, DKIM and DMARC records for the provider (Cloudflare Email Service adds them when you onboard the domain), or mail lands in spam`,
    ),
    warn(
      "newsletter: send only to confirmed addresses; before each send export them with `npm run waitlist:export > confirmed.csv` and replace the tool's list with it (never Pending or Withdrawn ones) — see docs/deploy.md",
    ),
  ];
}

/** The dead-letter endpoint's token: the Worker refuses one under 32 characters, so say so first. */
function adminTokenLine(env: BuildEnv): Item {
  const problem = adminTokenProblem(env.ADMIN_TOKEN);
  if (problem) return fail(`${problem}; the Worker keeps the dead-letter endpoint off with it`);
  return env.ADMIN_TOKEN?.trim()
    ? pass(`ADMIN_TOKEN: ${env.ADMIN_TOKEN.trim().length} characters`)
    : warn(
        `ADMIN_TOKEN not set here: the Worker's dead-letter endpoint stays off until it is a secret there (at least ${ADMIN_TOKEN_MIN_LENGTH} random characters)`,
      );
}

/** Whether the privacy policy's retention is applied on the Workers deploy (by its Cron Trigger). */
export function retentionTriggerLine(root: string): Item {
  const configPath = path.join(root, 'wrangler.jsonc');
  let crons: string[] | null;
  try {
    // The team's digest has a trigger of its own; every other one applies the retention (worker.ts).
    crons = cronTriggersOf(configPath)?.filter((cron) => cron !== TEAM_DIGEST_CRON) ?? null;
  } catch (error) {
    return fail(`retention: wrangler.jsonc could not be read (${(error as Error).message})`);
  }
  if (crons === null)
    return warn(
      'retention: no wrangler.jsonc, so nothing applies the retention (24 months; 30 days for unconfirmed sign-ups) on a schedule; run `npm run privacy:retention` at least weekly',
    );
  if (crons.length === 0)
    return fail(
      'retention: wrangler.jsonc has no Cron Trigger (triggers.crons), so the Worker never applies the privacy policy’s 24-month retention; add one, e.g. "17 3 * * *"',
    );
  const daily = crons.some(isDaily);
  return (daily ? pass : warn)(
    `retention: the Worker's Cron Trigger applies the 24-month retention (${crons.join(', ')}${
      daily ? ', daily' : '; not daily: expired records wait until it fires'
    }); on other hosts run \`npm run privacy:retention\` at least weekly (unconfirmed sign-ups go after 30 days)`,
  );
}

/** The launch checklist for a build environment: one line per item, ok when none fails. */
export function launchChecklist(env: BuildEnv, root = path.resolve('.')) {
  const items: Item[] = placeholderMarks().map((mark) =>
    fail(`placeholder in src/config/site.ts: ${mark.note} (now ${mark.value})`),
  );
  let settings: SiteSettings | undefined;
  try {
    settings = parseSiteSettings(env);
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    items.push(fail(`build settings: ${error.message}`));
  }
  items.push(
    env.VITE_SITE_URL
      ? pass(`VITE_SITE_URL: ${env.VITE_SITE_URL}`)
      : fail(
          'VITE_SITE_URL is not set: canonical links, the sitemap and link previews would use a default address',
        ),
    env.VITE_GA_MEASUREMENT_ID
      ? pass(`analytics: VITE_GA_MEASUREMENT_ID ${env.VITE_GA_MEASUREMENT_ID}`)
      : fail('analytics: VITE_GA_MEASUREMENT_ID is not set, so no page views are recorded'),
  );
  // SITE_URL is the Worker's: in the shell, or as wrangler.jsonc sets it.
  if (settings) items.push(...storageLines(settings, { SITE_URL: wranglerVarOf(root, 'SITE_URL'), ...env }));
  const reviewed = LEGAL_REVIEW.status === 'reviewed' && LEGAL_REVIEW.reviewedBy && LEGAL_REVIEW.reviewedOn;
  items.push(
    adminTokenLine(env),
    retentionTriggerLine(root),
    reviewed
      ? pass(`legal texts reviewed by ${LEGAL_REVIEW.reviewedBy} on ${LEGAL_REVIEW.reviewedOn}`)
      : fail(
          'legal texts not reviewed: set LEGAL_REVIEW in src/content/legal/review.ts once a qualified person has reviewed them',
        ),
  );
  const ok = items.every(([passed]) => passed);
  const summary = ok
    ? 'Launch check: every item is real.'
    : `Launch check: ${items.filter(([passed]) => !passed).length} item(s) still to do.`;
  return { ok, lines: [...items.map(([, line]) => line), summary] };
}

/** The prefixes of the variables the checklist reads (the build's and the server's). */
export const BUILD_ENV_PREFIXES = [
  'VITE_',
  'AIRTABLE_',
  'ADMIN_',
  'MAIL_',
  'SCHOOLS_',
  'LINK_',
  'SITE_',
] as const;

/** The environment `vite build` would see: shell variables over .env files. */
export function buildEnv(root: string, mode = 'production'): BuildEnv {
  return loadEnv(mode, root, [...BUILD_ENV_PREFIXES]);
}

export function main(): number {
  const checklist = launchChecklist(buildEnv(path.resolve('.')));
  for (const line of checklist.lines) console.log(line);
  return checklist.ok ? 0 : 1;
}

runAsCommand(import.meta.url, main);
