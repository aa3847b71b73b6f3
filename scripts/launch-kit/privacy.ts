/**
 * `npm run privacy:retention|erase|export` (USAGE below), with src/server/privacy/policy.ts: retention
 * deletes records past the policy's retention (--dry-run lists them); erase (Article 17) deletes
 * an email's records; export (Article 15) prints them as JSON.
 */
import { DATA_RETENTION_MONTHS, PENDING_RETENTION_DAYS } from '#src/config/constants.ts';
import { normaliseEmail } from '#src/lib/forms/submission.ts';
import {
  applyRetention,
  describeRetention,
  eraseEmail,
  exportEmail,
  privacyTables,
} from '#src/server/privacy/policy.ts';
import { runAsCommand } from '#scripts/command.ts';
import {
  deadLetterAdmin,
  failure,
  type ListedLetter,
  plural,
  readKitOptions,
  requestCount,
  siteTokenClient,
} from './options.ts';

const USAGE = [
  'Usage: npm run privacy:retention -- [--dry-run]',
  '       npm run privacy:erase -- EMAIL',
  '       npm run privacy:export -- EMAIL',
  'Airtable: AIRTABLE_API_KEY, AIRTABLE_BASE_ID, AIRTABLE_ENDPOINT_URL (or --site-token, --base, --endpoint URL).',
  "Workers deploy: SITE_URL and ADMIN_TOKEN (or --url, --admin-token) make erase and export cover the Worker's dead letters too, and erase its submissions waiting to be written, its team notices held for a digest and its emails still queued.",
].join('\n');

/** What the Worker's endpoint dropped of an erased address. */
type WorkerErasure = { erased: number; waiting?: number; stillWriting?: boolean; teamNotices?: number };

/** `now`: the retention's and the export's clock; `out`, `err`: where output goes (tests collect it). */
export async function main(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  {
    now = Date.now,
    out = (line: string) => console.log(line),
    err = (line: string) => console.error(line),
  } = {},
): Promise<number> {
  const options = readKitOptions(argv, env, USAGE, {
    err,
    positionals: true,
    extra: {
      'dry-run': { type: 'boolean', default: false },
      url: { type: 'string' },
      'admin-token': { type: 'string' },
    },
  });
  if (!options) return 2;
  const { values, positionals } = options;
  const dryRun = values['dry-run'] === true;
  const [command = '', email = '', ...extra] = positionals;
  const needsEmail = command === 'erase' || command === 'export';
  if (
    !['retention', 'erase', 'export'].includes(command) ||
    (needsEmail && !email.trim()) ||
    (!needsEmail && email) ||
    extra.length > 0 ||
    (dryRun && command !== 'retention')
  ) {
    err(USAGE);
    return 2;
  }
  const client = siteTokenClient(options, USAGE, err);
  if (!client) return 2;
  const siteUrl = (values.url as string | undefined) ?? env.SITE_URL ?? '';
  const adminToken = (values['admin-token'] as string | undefined) ?? env.ADMIN_TOKEN ?? '';
  const site = siteUrl && adminToken ? { url: siteUrl, token: adminToken } : undefined;

  try {
    if (command === 'retention') {
      const report = await applyRetention({ client, now, dryRun });
      if (report.dryRun && report.expired.length === 0) out('No record is past retention.');
      else if (report.dryRun) {
        const rows = [
          ['TABLE', 'EMAIL', 'LAST ACTIVITY', 'RULE'],
          ...report.expired.map((record) => [
            record.table,
            record.email,
            record.lastActivity,
            record.pending
              ? `unconfirmed, ${PENDING_RETENTION_DAYS} days`
              : `${DATA_RETENTION_MONTHS} months`,
          ]),
        ];
        const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
        for (const row of rows) out(row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  '));
      }
      out(`${describeRetention(report)} ${requestCount(client)}`);
      if (report.dryRun && report.expired.length > 0) out('Dry run: nothing was deleted.');
      return 0;
    }

    const target = normaliseEmail(email);
    if (command === 'export') {
      const records = await exportEmail(client, email);
      const letters = site ? (await deadLetterAdmin<{ letters: ListedLetter[] }>(site)).letters : [];
      // As the Worker lists them, without the store's key.
      const deadLetters = letters
        .filter((letter) => normaliseEmail(letter.email) === target)
        .map(({ table, email: address, reason, failedAt }) => ({ table, email: address, reason, failedAt }));
      const exportedAt = new Date(now()).toISOString();
      out(JSON.stringify({ email: target, exportedAt, records, ...(site ? { deadLetters } : {}) }, null, 2));
      const total = Object.values(records).reduce((sum, found) => sum + found.length, 0);
      err(`Exported ${plural(total, 'record')} of ${target} ${requestCount(client)}.`);
      return 0;
    }

    // The Worker first: a submission of it still waiting to be written would make its record again.
    const onWorker = site ? await deadLetterAdmin<WorkerErasure>(site, '/erase', { email }) : undefined;
    const erased = await eraseEmail(client, email);
    const tables = privacyTables();
    if (erased.length === 0) out(`Nothing found for ${target} in ${tables.join(' or ')}.`);
    else {
      for (const record of erased)
        out(`Deleted ${record.table} record ${record.id} (created ${record.createdTime ?? 'unknown'})`);
      const counts = tables
        .map((table) => `${erased.filter((record) => record.table === table).length} in ${table}`)
        .join(', ');
      out(`Erased ${target}: ${counts} ${requestCount(client)}.`);
    }
    if (onWorker) {
      out(`Dead letters of ${target} dropped on the Worker: ${onWorker.erased}.`);
      out(`Submissions of ${target} waiting to be written, dropped on the Worker: ${onWorker.waiting ?? 0}.`);
      out(`Notices of ${target} held for a team's digest, dropped: ${onWorker.teamNotices ?? 0}.`);
      out(
        `Emails to or about ${target} still queued on the Worker: stopped (one leaving within the minute may still go).`,
      );
      if (onWorker.stillWriting)
        out(
          `A write of ${target} was still under way on the Worker (Airtable is slow or refusing): run this again in a few minutes.`,
        );
    } else {
      out(
        "(On the Workers deploy, set SITE_URL and ADMIN_TOKEN to drop the Worker's dead letters, waiting submissions, held team notices and queued emails of it too.)",
      );
    }
    return 0;
  } catch (error) {
    err(failure(error, client));
    return 1;
  }
}

runAsCommand(import.meta.url, main);
