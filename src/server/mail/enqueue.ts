/**
 * A write's emails put on the mail queue (MAIL_JOBS), one job each, those the limits allow
 * (ledger.ts; the team inbox's ceiling, team-inbox.ts). The write is done whatever its mail does,
 * so a mail failure never writes a record twice.
 */
import type { MailContext } from './emails.ts';
import { TEAM_MAIL_LIMITS } from './ledger.ts';
import { inboxKey } from './inbox-key.ts';
import { errorMessage, type MailJob } from './message.ts';
import { confirmedChange, emailsFor, rejoinRequest, type WriteOutcome } from './plan.ts';
import type { LinkValues } from '#src/server/links/tokens.ts';
import type { WorkerMail } from './setup.ts';

/**
 * Queues the emails of one write that the recipients' limits allow (`limited`: how many they
 * dropped; `held`: team notices past the team inbox's hourly ceiling, kept for the hour's digest),
 * links signed by the current secret. Never throws on a job that cannot be queued: it is kept as
 * a dead letter (or logged lost), since the write is done and must not be retried for it.
 */
export async function queueOutcomeMail(
  mail: Pick<WorkerMail, 'settings' | 'ledger' | 'enqueue' | 'deadLetter'>,
  outcome: WriteOutcome,
  origin: string,
  options: { now?: () => number; log?: (line: string) => void } = {},
): Promise<{ queued: number; limited: number; held: number }> {
  const at = new Date((options.now ?? Date.now)());
  const log = options.log ?? ((line: string) => console.error(line));
  const { from, schoolsTeamEmail, linkSecrets } = mail.settings;
  const context: MailContext = { from, siteUrl: origin, now: at, linkSecret: linkSecrets[0] ?? '' };
  const planned = await emailsFor(outcome, context, schoolsTeamEmail, inboxKey);
  // Only a team notice needs the team inbox (its ceiling and digests), so only then is it loaded.
  const teamInbox = planned.some((email) => email.teamNotice) ? await import('./team-inbox.ts') : undefined;
  await teamInbox?.queueTeamDigests(mail, at, log);
  const counts = { queued: 0, limited: 0, held: 0 };
  const enqueue = async (job: MailJob) => {
    try {
      await mail.enqueue(job);
      counts.queued += 1;
    } catch (error) {
      const reason = `could not be queued: ${errorMessage(error)}`;
      log(`Mailer: an email ${reason}; ${mail.deadLetter ? 'kept as a dead letter' : 'lost'}`);
      await mail.deadLetter?.(job, reason).catch(() => undefined);
    }
  };
  const { email, form } = outcome;
  for (const { message, limitedInbox, limitedContact, teamNotice } of planned) {
    const allowed =
      limitedContact !== undefined
        ? await mail.ledger.reserve(`team:${limitedContact}`, at, TEAM_MAIL_LIMITS)
        : limitedInbox === undefined || (await mail.ledger.reserve(limitedInbox, at));
    if (!allowed) counts.limited += 1;
    else if (teamNotice && !(await teamInbox?.admitNotice(mail.ledger, teamNotice, at))) counts.held += 1;
    else await enqueue({ kind: 'mail', message, email, form, queuedAt: at.toISOString() });
  }
  return counts;
}

/** The mail a pressed link causes (links/link-door.ts); its emails' links lead to the site's origin. */
export function linkPressMail(
  mail: Pick<WorkerMail, 'settings' | 'ledger' | 'enqueue' | 'deadLetter'>,
  siteOrigin: string,
) {
  return {
    tellTeam: async (form: string, email: string, values: LinkValues, at: Date) =>
      void (await queueOutcomeMail(mail, confirmedChange(form, email, values, at), siteOrigin)),
    rejoinMail: (email: string, withdrawnAt: string, at: Date) =>
      queueOutcomeMail(mail, rejoinRequest(email, withdrawnAt, at), siteOrigin),
  };
}
