/**
 * Which emails a stored submission causes, and their delivery within the mail limits. The one
 * place the consent rules meet the mail (docs/consent.md has them as a table):
 *
 * | form     | the write        | emails                                                        |
 * |----------|------------------|---------------------------------------------------------------|
 * | waitlist | created (Pending)| the confirmation                                              |
 * | any      | held (address already stored, nothing written) | one change email to the address on record |
 * | quote    | created          | the schools team's notification, the contact's acknowledgement |
 *
 * Emails to a visitor count against the inbox's limits (one per 10 minutes, 3 a day) and are
 * dropped beyond them: the visitor's answer never depends on mail. The schools team's
 * notifications are the site's own inbox and are never dropped.
 */
import type { MailContext } from './emails.ts';
import { changeEmail, confirmationEmail, quoteAcknowledgement, schoolsTeamNotification } from './emails.ts';
import type { MailMessage } from './message.ts';
import type { LinkForm, LinkValues } from './signed-link.ts';

/** What the write path did with one submission, as the mail needs it. */
export interface WriteOutcome {
  readonly form: LinkForm;
  /** The address on record (the one the email goes to). */
  readonly email: string;
  /**
   * 'created': a new record; 'held': the address was stored already and nothing was written;
   * 'confirmed-change': a held quote change its contact has just confirmed (only the team hears).
   */
  readonly outcome: 'created' | 'held' | 'confirmed-change';
  /** The submission's values by post name (a held change carries them in its link). */
  readonly values: LinkValues;
  /** A quote's fields as the schools team reads them, label and value. */
  readonly teamRows?: readonly (readonly [string, string])[];
  /** A quote's school, for the team's subject line. */
  readonly school?: string;
  /** Unique per submission (the queue message's id): a retried send is the same email. */
  readonly key: string;
}

export interface OutgoingSettings {
  readonly schoolsTeamEmail: string;
  readonly bookingUrl: string;
}

/** One email to send, and whether it counts against the recipient's limits. */
export interface Outgoing {
  readonly message: MailMessage;
  /** The inbox whose limits it counts against; none for the schools team's own inbox. */
  readonly limitedInbox?: string;
}

/** The emails one write causes. `inboxOf` gives an address's inbox (mail-limits counts per inbox). */
export async function emailsFor(
  outcome: WriteOutcome,
  context: MailContext,
  settings: OutgoingSettings,
  inboxOf: (email: string) => string,
): Promise<Outgoing[]> {
  const toVisitor = (message: MailMessage): Outgoing => ({ message, limitedInbox: inboxOf(message.to) });
  // The schools team's own inbox is on no list and never limited.
  const toTeam = async (changed: boolean): Promise<Outgoing> => ({
    message: await schoolsTeamNotification(
      context,
      settings.schoolsTeamEmail,
      outcome.email,
      outcome.school ?? '',
      outcome.teamRows ?? [],
      changed,
      outcome.key,
    ),
  });
  if (outcome.outcome === 'confirmed-change') return outcome.form === 'quote' ? [await toTeam(true)] : [];
  if (outcome.outcome === 'held') {
    return [toVisitor(await changeEmail(context, outcome.form, outcome.email, outcome.values, outcome.key))];
  }
  if (outcome.form === 'waitlist')
    return [toVisitor(await confirmationEmail(context, outcome.email, outcome.key))];
  return [
    await toTeam(false),
    toVisitor(await quoteAcknowledgement(context, outcome.email, settings.bookingUrl, outcome.key)),
  ];
}
