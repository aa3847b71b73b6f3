/**
 * `npm run dead-letters -- list|replay`: what the queued deploy could not store (say, a field
 * missing from the base), kept in the Worker's DEAD_LETTERS. Fix the cause (`airtable:check`),
 * then replay: each goes back on the queue like a new submission. ADMIN_TOKEN is the Worker's
 * secret, from the environment or --token, never written anywhere.
 */
import { parseArgs } from 'node:util';
import { runAsCommand } from '#scripts/command.ts';
import { deadLetterAdmin, type ListedLetter } from './options.ts';

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { url: { type: 'string' }, token: { type: 'string' } },
  });
  const command = positionals[0] ?? 'list';
  const site = { url: values.url ?? env.SITE_URL ?? '', token: values.token ?? env.ADMIN_TOKEN ?? '' };
  if (!['list', 'replay'].includes(command) || !site.url || !site.token) {
    console.error(
      'Usage: npm run dead-letters -- list|replay --url <site origin> --token <ADMIN_TOKEN>\n(or SITE_URL and ADMIN_TOKEN in the environment)',
    );
    return 2;
  }
  try {
    if (command === 'replay') {
      const { replayed } = await deadLetterAdmin<{ replayed: number }>(site, '/replay', {});
      console.log(`Replayed ${replayed} dead letter(s): they are back on the queue.`);
      return 0;
    }
    const { count, letters } = await deadLetterAdmin<{ count: number; letters: ListedLetter[] }>(site);
    if (count === 0) {
      console.log('No dead letters: every accepted submission was stored.');
      return 0;
    }
    console.log(`${count} dead letter(s):`);
    for (const letter of letters)
      console.log(`  ${letter.failedAt}  ${letter.table}  ${letter.email}  ${letter.reason}`);
    console.log('Fix the cause (npm run airtable:check), then: npm run dead-letters -- replay');
    // Non-zero, so a scheduled check can alert on it.
    return 1;
  } catch (error) {
    console.error(`Failed: ${(error as Error).message}.`);
    return 1;
  }
}

runAsCommand(import.meta.url, main);
