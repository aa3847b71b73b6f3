/**
 * The mail side of the write path, put together once per server: which emails a write causes
 * (outgoing.ts), within the limits (mail-limits.ts), with links signed by the
 * server's secret. The Worker's queue writer reserves the emails (`reserveEmails`) and hands them
 * to its mail queue, which sends and retries them (mail-queue.ts): a failure to send never
 * changes the visitor's answer.
 */
import { CALENDAR } from '#src/config/site.ts';
import { inboxKey } from '#src/server/client-limits.ts';
import type { MailContext } from './emails.ts';
import type { MailLedger } from './mail-limits.ts';
import type { MailSettings } from './mail-settings.ts';
import type { MailMessage } from './message.ts';
import { emailsFor, type WriteOutcome } from './outgoing.ts';

export interface MailService {
  readonly settings: MailSettings;
  /**
   * The emails one write causes that the limits allow, counted against them now and sent later
   * by the caller (the Worker's mail queue); `limited`: how many the limits held back.
   */
  reserveEmails(
    outcome: WriteOutcome,
    siteUrl: string,
  ): Promise<{ messages: MailMessage[]; limited: number }>;
}

export function createMailService(options: {
  settings: MailSettings;
  ledger: MailLedger;
  now?: () => number;
}): MailService {
  const now = options.now ?? Date.now;
  const plan = (outcome: WriteOutcome, siteUrl: string, at: Date) => {
    const context: MailContext = {
      from: options.settings.from,
      siteUrl,
      now: at,
      linkSecret: options.settings.linkSecrets[0] ?? '',
    };
    return emailsFor(
      outcome,
      context,
      { schoolsTeamEmail: options.settings.schoolsTeamEmail, bookingUrl: CALENDAR.bookingUrl },
      inboxKey,
    );
  };
  return {
    settings: options.settings,
    async reserveEmails(outcome, siteUrl) {
      const at = new Date(now());
      const messages: MailMessage[] = [];
      let limited = 0;
      for (const { message, limitedInbox } of await plan(outcome, siteUrl, at)) {
        if (limitedInbox !== undefined && !(await options.ledger.reserve(limitedInbox, at))) limited += 1;
        else messages.push(message);
      }
      return { messages, limited };
    },
  };
}
