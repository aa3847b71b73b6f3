/**
 * `npm run launch-check`: everything that must be real before launch, one line each, exit 1
 * while any item fails. Placeholders are read from their marks where they are defined
 * (placeholder() in src/config/site.ts), the legal review from src/content/legal/review.ts,
 * the rest from the build's environment (.env files and the shell, as `vite build` reads them).
 * `launchChecklist(env)` is also what the production build prints as a warning.
 */
import path from 'node:path';
import { loadEnv, type Plugin } from 'vite';
import { placeholderMarks } from '../../src/config/placeholder.ts';
import { parseSiteSettings, SettingsError, type SiteSettings } from '../../src/config/settings.ts';
// Loaded for its placeholder() marks.
import '../../src/config/site.ts';
import { LEGAL_REVIEW } from '../../src/content/legal/review.ts';
import { retentionTriggerLine } from './privacy-trigger.ts';
import { ADMIN_TOKEN_MIN_LENGTH, adminTokenProblem } from '../../src/server/dead-letters.ts';

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
    `${WARN} under a rush: only the Workers deploy (wrangler.jsonc) queues and paces submissions; ` +
      'there, watch for dead letters with `npm run dead-letters -- list` (ADMIN_TOKEN) — see docs/rush.md',
  ];
  return [
    rush,
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

/** The launch checklist for a build environment: one line per item, ok when none fails. */
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
  if (settings) items.push(...storageLines(settings, env));
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

/** The environment `vite build` would see: shell variables over .env files. */
export function buildEnv(root: string, mode = 'production'): BuildEnv {
  return loadEnv(mode, root, ['VITE_', 'AIRTABLE_', 'ADMIN_']);
}

/** Vite plugin: a production build prints the checklist as a warning while any item fails. */
export function launchChecklistWarning(): Plugin {
  return {
    name: 'podling:launch-checklist',
    apply: 'build',
    // Once per build: when the client is built (not again for the SSR prerender environment).
    applyToEnvironment: (environment) => environment.name === 'client',
    buildStart() {
      const { config } = this.environment;
      if (config.mode !== 'production') return;
      const checklist = launchChecklist(buildEnv(config.envDir || config.root, config.mode), config.root);
      if (!checklist.ok) {
        config.logger.warn(
          ['', ...checklist.lines, 'Run `npm run launch-check` before going live.', ''].join('\n'),
        );
      }
    },
  };
}

/** The command: prints the checklist; exit code 1 while any item fails. */
export function main(): number {
  const checklist = launchChecklist(buildEnv(path.resolve('.')));
  for (const line of checklist.lines) console.log(line);
  return checklist.ok ? 0 : 1;
}
