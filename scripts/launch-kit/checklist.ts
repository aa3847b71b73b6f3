/**
 * Everything that must be real before launch, one line each: placeholders (from their marks in
 * src/config/site.ts), the build's settings, storage, the admin token, the retention trigger and
 * the legal review. Shared by `npm run launch-check` (launch-check.ts) and the production build's
 * warning (scripts/vite-plugins/launch-checklist.ts): the one module of the owner's commands
 * the build loads.
 */
import { siteOriginOf } from '#src/server/airtable-client.ts';
import path from 'node:path';
import { loadEnv } from 'vite';
import { placeholderMarks } from '#src/config/site.ts';
import { parseSiteSettings, SettingsError, type SiteSettings } from '#src/config/settings.ts';
// Loaded for its placeholder() marks.
import '#src/config/site.ts';
import { LEGAL_REVIEW } from '#src/content/legal/review.ts';
import { retentionTriggerLine, wranglerVarOf } from './privacy-trigger.ts';
import { ADMIN_TOKEN_MIN_LENGTH, adminTokenProblem } from '#src/server/queues.ts';
import { type MailEnv, parseMailbox } from '#src/server/mail.ts';
import { LINK_SECRET_MIN_LENGTH, linkSecretProblem } from '#src/server/links.ts';
import { isValidEmail } from '#src/lib/email.ts';

export type BuildEnv = Readonly<Record<string, string | undefined>>;

export interface Checklist {
  ok: boolean;
  lines: string[];
}

const PASS = '✓';
const FAIL = '✗';
const WARN = '!';

function storageLines(settings: SiteSettings, env: BuildEnv): [boolean, string][] {
  if (settings.storageMode === 'direct') {
    // The spec's mode works, but every visitor can read the key: a warning, not a failure.
    return [
      [
        true,
        `${WARN} storage: direct mode (VITE_AIRTABLE_API_KEY is set): the key is in the page and readable by every visitor; ` +
          'give it data.records scopes on this base only, or unset it to use the relay',
      ],
    ];
  }
  const missing = ['AIRTABLE_API_KEY', 'AIRTABLE_BASE_ID'].filter((name) => !env[name]);
  const rush: [boolean, string] = [
    true,
    `${WARN} under a rush: the Worker queues and paces submissions; ` +
      'watch for dead letters with `npm run dead-letters -- list` (ADMIN_TOKEN) — see docs/rush.md',
  ];
  const site = siteOriginOf(env.SITE_URL);
  const siteOrigin = new URL(settings.siteUrl).origin;
  const siteLine: [boolean, string] =
    'problem' in site
      ? [false, `${FAIL} ${site.problem}. Set it in wrangler.jsonc "vars" to ${siteOrigin}`]
      : site.origin !== siteOrigin || !site.origin.startsWith('https:')
        ? [
            false,
            `${FAIL} SITE_URL is ${site.origin}: set it to the site's own https address, ${siteOrigin} (VITE_SITE_URL)`,
          ]
        : [
            true,
            `${PASS} SITE_URL: ${site.origin} (every emailed link leads there; posts from elsewhere are refused)`,
          ];
  return [
    rush,
    siteLine,
    missing.length === 0
      ? [
          true,
          `${PASS} storage: relay mode; AIRTABLE_API_KEY and AIRTABLE_BASE_ID are set (set them on the host too)`,
        ]
      : [
          false,
          `${FAIL} storage: relay mode needs ${missing.join(' and ')} in the host's environment (server-side only; set them here too to check)`,
        ],
  ];
}

/** The launch check's lines for mail: [passed, line]. */
function mailChecklist(env: MailEnv): [boolean, string][] {
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
    env.MAIL_OUTBOX_URL
      ? [
          false,
          `${FAIL} MAIL_OUTBOX_URL is set: the Worker would write its emails to a local outbox, not send them. Remove it from the deploy`,
        ]
      : [true, `${PASS} mail: the Worker sends through its send_email binding (wrangler.jsonc)`],
  );
  const domain = from?.email.split('@')[1] ?? 'your sending domain';
  lines.push([
    true,
    `${WARN} DNS for ${domain}: publish SPF, DKIM and DMARC records for the provider (Cloudflare Email Service adds them when you onboard the domain), or mail lands in spam`,
  ]);
  lines.push([
    true,
    `${WARN} newsletter: send only to confirmed addresses; before each send export them with \`npm run waitlist:export > confirmed.csv\` and replace the tool's list with it (never Pending or Withdrawn ones) — see docs/deploy.md`,
  ]);
  return lines;
}
/** The dead-letter endpoint's token: the Worker refuses one under 32 characters, so say so first. */
function adminTokenLine(env: BuildEnv): [boolean, string] {
  const problem = adminTokenProblem(env.ADMIN_TOKEN);
  if (problem) return [false, `${FAIL} ${problem}; the Worker keeps the dead-letter endpoint off with it`];
  return env.ADMIN_TOKEN?.trim()
    ? [true, `${PASS} ADMIN_TOKEN: ${env.ADMIN_TOKEN.trim().length} characters`]
    : [
        true,
        `${WARN} ADMIN_TOKEN not set here: the Worker's dead-letter endpoint stays off until it is a secret there (at least ${ADMIN_TOKEN_MIN_LENGTH} random characters)`,
      ];
}

/** The launch checklist for a build environment: one line per item, ok when none fails. */
export function launchChecklist(env: BuildEnv, root = path.resolve('.')): Checklist {
  const items: [boolean, string][] = [];
  for (const mark of placeholderMarks()) {
    items.push([false, `${FAIL} placeholder in src/config/site.ts: ${mark.note} (now ${mark.value})`]);
  }
  let settings: SiteSettings | undefined;
  try {
    settings = parseSiteSettings(env);
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    items.push([false, `${FAIL} build settings: ${error.message}`]);
  }
  items.push(
    env.VITE_SITE_URL
      ? [true, `${PASS} VITE_SITE_URL: ${env.VITE_SITE_URL}`]
      : [
          false,
          `${FAIL} VITE_SITE_URL is not set: canonical links, the sitemap and link previews would use a default address`,
        ],
  );
  items.push(
    env.VITE_GA_MEASUREMENT_ID
      ? [true, `${PASS} analytics: VITE_GA_MEASUREMENT_ID ${env.VITE_GA_MEASUREMENT_ID}`]
      : [false, `${FAIL} analytics: VITE_GA_MEASUREMENT_ID is not set, so no page views are recorded`],
  );
  // SITE_URL is the Worker's: in the shell, or as wrangler.jsonc sets it.
  if (settings) items.push(...storageLines(settings, { SITE_URL: wranglerVarOf(root, 'SITE_URL'), ...env }));
  if (settings?.storageMode === 'relay') items.push(...mailChecklist(env));
  else if (settings) {
    items.push([
      true,
      `${WARN} mail: direct mode has no server, so sign-ups are not confirmed by email and nobody is told of quotes (docs/consent.md)`,
    ]);
  }
  items.push(adminTokenLine(env));
  items.push(retentionTriggerLine(root));
  const reviewed = LEGAL_REVIEW.status === 'reviewed' && LEGAL_REVIEW.reviewedBy && LEGAL_REVIEW.reviewedOn;
  items.push(
    reviewed
      ? [true, `${PASS} legal texts reviewed by ${LEGAL_REVIEW.reviewedBy} on ${LEGAL_REVIEW.reviewedOn}`]
      : [
          false,
          `${FAIL} legal texts not reviewed: set LEGAL_REVIEW in src/content/legal/review.ts once a qualified person has reviewed them`,
        ],
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
