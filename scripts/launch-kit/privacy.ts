/**
 * The owner's privacy commands, with the server's own Airtable client (src/server/privacy.ts):
 *
 *   npm run privacy:retention -- --dry-run     # lists records past retention (table, email, last activity)
 *   npm run privacy:retention                  # deletes them; prints how many per table
 *   npm run privacy:erase -- parent@example.com   # Article 17: every record of that email
 *   npm run privacy:export -- parent@example.com  # Article 15: every record of that email, as JSON
 *
 * They read AIRTABLE_API_KEY, AIRTABLE_BASE_ID and AIRTABLE_ENDPOINT_URL (the relay's names; or
 * --base, --endpoint) and work against the local emulator with no account. On the Worker, erase
 * also drops the email's dead letters when SITE_URL and ADMIN_TOKEN (or --site, --admin-token)
 * are given.
 */
import { parseArgs } from 'node:util';
import { normaliseEmail } from '../../src/lib/airtable/fields.ts';
import { createAirtableUpstream } from '../../src/server/airtable-upstream.ts';
import { DEAD_LETTERS_PATH } from '../../src/server/dead-letters.ts';
import { upstreamSettings } from '../../src/server/gate.ts';
import {
  applyRetention,
  describeRetention,
  eraseEmail,
  exportEmail,
  PRIVACY_TABLES,
} from '../../src/server/privacy.ts';
import { createRateGate } from '../../src/server/rate-gate.ts';

const USAGE = [
  'Usage: npm run privacy:retention -- [--dry-run]',
  '       npm run privacy:erase -- EMAIL [--site URL --admin-token TOKEN]',
  '       npm run privacy:export -- EMAIL',
  'Options: --endpoint URL, --base appXXXX (else AIRTABLE_ENDPOINT_URL, AIRTABLE_BASE_ID); AIRTABLE_API_KEY from the environment.',
].join('\n');

/** Drops the email's dead letters through the Worker's admin endpoint; null when not asked to. */
async function eraseDeadLetters(site: string, token: string, email: string): Promise<number | string | null> {
  if (!site || !token) return null;
  const response = await fetch(`${site.replace(/\/+$/, '')}${DEAD_LETTERS_PATH}/erase`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  if (!response.ok) return `the site answered ${response.status}`;
  return ((await response.json()) as { erased: number }).erased;
}

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        'dry-run': { type: 'boolean', default: false },
        endpoint: { type: 'string' },
        base: { type: 'string' },
        site: { type: 'string' },
        'admin-token': { type: 'string' },
      },
    });
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, email = ''] = positionals;
  const settings = upstreamSettings({
    AIRTABLE_API_KEY: env.AIRTABLE_API_KEY,
    AIRTABLE_BASE_ID: values.base ?? env.AIRTABLE_BASE_ID,
    AIRTABLE_ENDPOINT_URL: values.endpoint ?? env.AIRTABLE_ENDPOINT_URL,
  });
  if (
    !['retention', 'erase', 'export'].includes(command ?? '') ||
    (command !== 'retention' && !email.trim())
  ) {
    console.error(USAGE);
    return 2;
  }
  if (!settings.apiKey || !settings.baseId) {
    console.error('Set AIRTABLE_API_KEY and AIRTABLE_BASE_ID (or --base) first.');
    return 2;
  }
  const upstream = createAirtableUpstream(settings, { gate: createRateGate() });

  if (command === 'retention') {
    const report = await applyRetention({ upstream, dryRun: values['dry-run'] });
    if (report.dryRun) {
      for (const record of report.expired)
        console.log(`${record.table}\t${record.email}\t${record.lastActivity}`);
    }
    console.log(describeRetention(report));
    return 0;
  }

  if (command === 'export') {
    const found = await exportEmail({ upstream }, email);
    console.log(
      JSON.stringify(
        { email: normaliseEmail(email), exportedAt: new Date().toISOString(), records: found },
        null,
        2,
      ),
    );
    return 0;
  }

  const deleted = await eraseEmail({ upstream }, email);
  const total = PRIVACY_TABLES.reduce((sum, table) => sum + (deleted[table] ?? 0), 0);
  console.log(
    total === 0
      ? `Nothing found for ${normaliseEmail(email)}.`
      : `Deleted ${PRIVACY_TABLES.map((table) => `${deleted[table] ?? 0} in ${table}`).join(', ')} for ${normaliseEmail(email)}.`,
  );
  const letters = await eraseDeadLetters(
    values.site ?? env.SITE_URL ?? '',
    values['admin-token'] ?? env.ADMIN_TOKEN ?? '',
    email,
  );
  if (typeof letters === 'number')
    console.log(`Dead letters of that email dropped on the Worker: ${letters}.`);
  else if (typeof letters === 'string') {
    console.error(`Could not drop the Worker's dead letters: ${letters}.`);
    return 1;
  }
  return 0;
}
