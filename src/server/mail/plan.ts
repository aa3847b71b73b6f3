/**
 * A write's emails (a submission's or a pressed link's) by its form's conduct, never sent in a visitor's
 * request (docs/decisions/0013): each the limits allow is a MAIL_JOBS job, for the mail consumer (send.ts).
 */
import { type FormContract, storedText } from '#src/lib/forms/contract.ts';
import { confirmingForm, formNamed } from '#src/lib/forms/forms.ts';
import { type Cells, formOf, type Submission } from '#src/lib/forms/submission.ts';
import {
  type MailContext,
  type TeamHeld,
  type TeamNotice,
  teamNotification,
  visitorEmail,
  type VisitorMail,
} from './emails.ts';
import type { LinkValues } from '#src/server/links/tokens.ts';
import { inboxKey, TEAM_MAIL_LIMITS } from './ledger.ts';
import { errorMessage, type MailJob, type MailMessage } from './message.ts';
import type { QueueingMail } from './setup.ts';
import { consentOf, isWithdrawn } from '#src/server/privacy/consent.ts';

/** What the write path did with one submission, as the mail needs it. */
export interface WriteOutcome extends Pick<MailJob, 'form' | 'email'> {
  /** 'held': stored already, nothing written; 'confirmed-change': a held change its contact confirmed. */
  readonly outcome: 'created' | 'held' | 'confirmed-change' | 'rejoin';
  /** A rejoin's: the withdrawn record's Last Updated, which its confirmation link carries. */
  readonly withdrawnAt?: string;
  /** The submission's values by Airtable field name (a held change carries them in its link; the team reads them). */
  readonly values: LinkValues;
  /** The address withdrew (it is on the suppression list): only the team hears. */
  readonly contactWithdrawn?: boolean;
  /** Unique per submission (or pressed link): a retried send is the same email. */
  readonly key: string;
}

/** What the team reads: the subject field's value, and every cell sent as rows, in contract order. */
function forTheTeam({ fields }: FormContract, subjectField: string, cells: LinkValues) {
  const subject = cells[fields[subjectField]?.airtable ?? ''];
  // Each value as its field keeps it (a single-line one on one line, an older value's too).
  const rows = Object.values(fields)
    .filter(({ airtable }) => airtable in cells)
    .map(({ airtable, type }): [string, string] => {
      const value = cells[airtable] ?? '';
      return [airtable, storedText(typeof value === 'string' ? value : value.join(', '), type)];
    });
  return { rows, subject: typeof subject === 'string' ? subject : '' };
}

/**
 * A write as the mail needs it (emailsFor), with consent: an update is a Pending sign-up's new values
 * (confirmed, within the limits, like a new one); a withdrawn address hears nothing a stranger can cause
 * (`stored`: its stored Consent; `contactWithdrawn`: another form's contact is on the suppression list).
 */
export function writeOutcome(
  submission: Submission,
  written: 'created' | 'updated' | 'held',
  { stored, contactWithdrawn = false }: { stored?: Cells; contactWithdrawn?: boolean } = {},
): WriteOutcome | null {
  if (consentOf(submission.table) && isWithdrawn(stored)) return null;
  return {
    form: formOf(submission).name,
    email: submission.email,
    outcome: written === 'updated' ? 'created' : written,
    values: submission.cells,
    key: `${submission.table}:${submission.email}:${submission.acceptedAt}`,
    ...(contactWithdrawn ? { contactWithdrawn } : {}),
  };
}

/** One email to send; with `teamNotice`, the team's, for its digest if the team's ceiling holds it back. */
interface Outgoing {
  readonly message: MailMessage;
  readonly teamNotice?: TeamHeld;
}

/** A write's emails by its form's conduct (docs/consent.md's table); a team's address is in `teamEmails`. */
export async function emailsFor(
  outcome: WriteOutcome,
  context: MailContext,
  teamEmails: Readonly<Record<string, string>>,
): Promise<Outgoing[]> {
  const { form, email, key, values, contactWithdrawn } = outcome;
  const contract = formNamed(form);
  const conduct = contract?.conduct ?? {};
  // Nothing a stranger can cause reaches an address that withdrew.
  const toVisitor = async (mail?: VisitorMail): Promise<Outgoing[]> =>
    !mail || contactWithdrawn ? [] : [{ message: await visitorEmail(context, form, email, key, mail) }];
  const toTeam = (kind: TeamNotice): Outgoing[] => {
    const told = conduct.tellsTeam;
    if (!contract || !told) return [];
    const team = { email: teamEmails[told.addressSetting] ?? '', copy: told.copy };
    const { subject, rows } = forTheTeam(contract, told.subjectField, values);
    const [id, at] = [`team:${kind}:${key}`, context.now.toISOString()];
    const notice = { id, subject, contact: email, at, kind };
    const message = teamNotification(context, team, notice, rows);
    return [{ message, teamNotice: { team: told.addressSetting, notice } }];
  };
  switch (outcome.outcome) {
    case 'confirmed-change':
      return toTeam('confirmed-change');
    case 'held':
      // The team hears at once (a contact's request is never lost behind a stranger's); the address confirms.
      return [...toTeam('held'), ...(await toVisitor({ kind: 'change', values }))];
    case 'rejoin':
      return toVisitor(conduct.confirms && { kind: 'confirm', withdrawnAt: outcome.withdrawnAt });
    case 'created':
      return [
        ...toTeam('new'),
        ...(await toVisitor(conduct.confirms && { kind: 'confirm' })),
        ...(await toVisitor(conduct.acknowledgement && { kind: 'acknowledge', ...conduct.acknowledgement })),
      ];
  }
}

/**
 * Queues on MAIL_JOBS a job per email of one write that limits allow (ledger.ts; `limited`: those dropped;
 * `held`: team notices past the hourly ceiling, kept for the digest). One not queued is a dead letter (or
 * logged lost), never thrown: the write is done whatever its mail does (retried for it, a record could double).
 */
export async function queueOutcomeMail(
  mail: QueueingMail,
  outcome: WriteOutcome,
  origin: string,
  options: { now?: () => number; log?: (line: string) => void } = {},
): Promise<{ queued: number; limited: number; held: number }> {
  const at = new Date((options.now ?? Date.now)());
  const log = options.log ?? ((line: string) => console.error(line));
  const { from, teamEmails, linkSecrets } = mail.settings;
  const context: MailContext = { from, siteUrl: origin, now: at, linkSecret: linkSecrets[0] ?? '' };
  const planned = await emailsFor(outcome, context, teamEmails);
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
  for (const { message, teamNotice } of planned) {
    // MAIL_LIMITS per visitor's inbox; TEAM_MAIL_LIMITS to the team per contact, so none floods it with one.
    const allowed = teamNotice
      ? await mail.ledger.reserve(`team:${inboxKey(email)}`, at, TEAM_MAIL_LIMITS)
      : await mail.ledger.reserve(inboxKey(email), at);
    if (!allowed) counts.limited += 1;
    else if (teamNotice && !(await teamInbox?.admitNotice(mail.ledger, teamNotice, at))) counts.held += 1;
    else await enqueue({ kind: 'mail', message, email, form, queuedAt: at.toISOString() });
  }
  return counts;
}

/**
 * The mail a pressed link (links/actions.ts) causes, keyed by its outcome and time: a confirmed held change is
 * told to its form's team, as a new request is (a quote's Status is back to 'New'); 'Join again' gets a
 * confirmation whose link confirms only the withdrawal stored at `withdrawnAt`.
 */
export function linkPressMail(mail: QueueingMail, siteOrigin: string) {
  const queue = (outcome: Omit<WriteOutcome, 'key'>, at: Date) =>
    queueOutcomeMail(mail, { ...outcome, key: `${outcome.outcome}:${at.toISOString()}` }, siteOrigin);
  return {
    tellTeam: async (form: string, email: string, values: LinkValues, at: Date) => {
      await queue({ form, email, outcome: 'confirmed-change', values }, at);
    },
    rejoinMail: (email: string, withdrawnAt: string, at: Date) =>
      queue({ form: confirmingForm()?.name ?? '', email, outcome: 'rejoin', values: {}, withdrawnAt }, at),
  };
}
