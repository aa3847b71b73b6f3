import { readOutbox, type OutboxMessage } from '#scripts/airtable-emulator/outbox.ts';
import { outboxDirFor } from './config.mjs';
import { expect } from './fixtures.ts';

/**
 * The email `subject` to `to`, once a site's server (`site`: its name in E2E_SITES, or 'dev') has
 * written it to its local outbox.
 */
export async function emailed(site: string, to: string, subject: string): Promise<OutboxMessage> {
  let found: OutboxMessage | undefined;
  await expect
    .poll(
      async () => {
        found = (await readOutbox(outboxDirFor(site))).find(
          (candidate) => candidate.headers.to === to && candidate.headers.subject === subject,
        );
        return found !== undefined;
      },
      { message: `an email "${subject}" to ${to}` },
    )
    .toBe(true);
  return found as OutboxMessage;
}

/** Every email in a site's outbox to `to`, as they stand now. */
export async function emailsTo(site: string, to: string): Promise<OutboxMessage[]> {
  return (await readOutbox(outboxDirFor(site))).filter((message) => message.headers.to === to);
}

/** The link of `kind` in the email `subject` to `to` (see `emailed`). */
export async function emailedLink(
  site: string,
  to: string,
  subject: string,
  kind: 'confirm' | 'change' | 'unsubscribe',
): Promise<string> {
  const message = await emailed(site, to, subject);
  const link = message.links.find((candidate) => candidate.includes(`/api/email/${kind}?`));
  expect(link, `a ${kind} link in "${subject}" to ${to}`).toBeDefined();
  return link ?? '';
}
