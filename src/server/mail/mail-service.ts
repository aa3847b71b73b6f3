/**
 * The mail side of the write path, put together once per server: which emails a write causes
 * (outgoing.ts), within the limits (mail-limits.ts), through the host's mailer (mailer.ts),
 * with links signed by the server's secret. A failure to send never changes the visitor's answer:
 * the synchronous store logs it; the Worker's queue consumer retries it.
 */
import { CALENDAR } from '#src/config/site.ts';
import { inboxKey } from '#src/server/client-limits.ts';
import type { MailContext } from './emails.ts';
import type { MailLedger } from './mail-limits.ts';
import type { Mailer } from './mailer.ts';
import type { MailSettings } from './mail-settings.ts';
import { type DeliveryReport, deliver, emailsFor, type WriteOutcome } from './outgoing.ts';

export interface MailService {
  readonly settings: MailSettings;
  /** Sends the emails one write causes; rejects with a MailFailure when a send failed. */
  afterWrite(outcome: WriteOutcome, siteUrl: string): Promise<DeliveryReport>;
}

export function createMailService(options: {
  settings: MailSettings;
  mailer: Mailer;
  ledger: MailLedger;
  now?: () => number;
}): MailService {
  const now = options.now ?? Date.now;
  return {
    settings: options.settings,
    async afterWrite(outcome, siteUrl) {
      const at = new Date(now());
      const context: MailContext = {
        from: options.settings.from,
        siteUrl,
        now: at,
        linkSecret: options.settings.linkSecrets[0] ?? '',
      };
      const emails = await emailsFor(
        outcome,
        context,
        { schoolsTeamEmail: options.settings.schoolsTeamEmail, bookingUrl: CALENDAR.bookingUrl },
        inboxKey,
      );
      return deliver(emails, options.mailer, options.ledger, at);
    },
  };
}
