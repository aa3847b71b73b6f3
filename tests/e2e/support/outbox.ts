import { readOutbox } from '#src/server/mail/outbox.ts';
import { outboxDirFor } from './config.mjs';
import { expect } from './fixtures.ts';

/**
 * The link of `kind` in the email `subject` to `to`, once a site's server (`site`: its name in
 * E2E_SITES, or 'dev') has written it to its local outbox.
 */
export async function emailedLink(
  site: string,
  to: string,
  subject: string,
  kind: 'confirm' | 'change' | 'unsubscribe',
): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const message = (await readOutbox(outboxDirFor(site))).find(
          (candidate) => candidate.headers.to === to && candidate.headers.subject === subject,
        );
        link = message?.links.find((candidate) => candidate.includes(`/api/email/${kind}?`));
        return link;
      },
      { message: `an email "${subject}" to ${to} with a ${kind} link` },
    )
    .toBeDefined();
  return link ?? '';
}
