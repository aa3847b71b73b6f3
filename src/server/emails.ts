/**
 * The emails the site sends, built from their words (`src/content/emails.ts`) and the signed
 * links they carry. Every value is escaped in the HTML part; header values pass through
 * `message.ts`, which keeps CR and LF out. Emails to a visitor echo none of what was typed (a
 * stranger could otherwise send anyone words of their choosing from the site's address); only
 * the schools team's notification shows the fields, escaped, to the team.
 */
import { EMAIL_COPY } from '#src/config/messages.ts';
import { escapeHtml } from '#src/lib/form-answer.ts';
import { type MailAddress, type MailMessage } from './mail.ts';
import {
  EMAIL_LINK_PATHS,
  type LinkForm,
  type LinkPurpose,
  type LinkValues,
  linkExpiry,
  signLink,
} from './links.ts';

/** What the schools team is told of: a new request, one held for a contact on record, a confirmed change. */
export type TeamNotice = 'new' | 'held' | 'confirmed-change';

/** What every email needs from the server: the sender, the site's origin, the time, the signing secret. */
export interface MailContext {
  readonly from: MailAddress;
  /** The site's own origin, e.g. `https://www.podling.app`; links never point elsewhere. */
  readonly siteUrl: string;
  readonly now: Date;
  /** The current `LINK_SECRET`. */
  readonly linkSecret: string;
}

/** The signed link for `purpose`, on the site's own origin. */
export async function signedUrl(
  context: MailContext,
  purpose: LinkPurpose,
  form: LinkForm,
  email: string,
  values?: LinkValues,
): Promise<string> {
  const token = await signLink(
    { purpose, form, email, expiresAt: linkExpiry(purpose, context.now), ...(values ? { values } : {}) },
    context.linkSecret,
  );
  const url = new URL(EMAIL_LINK_PATHS[purpose], context.siteUrl);
  url.searchParams.set('token', token);
  return url.toString();
}

/** An email's parts: paragraphs, and at most one button (a link styled as one). */
interface Body {
  readonly paragraphs: readonly string[];
  readonly action?: { readonly label: string; readonly url: string };
  /** Label/value rows (the schools team's notification). */
  readonly rows?: readonly (readonly [string, string])[];
  readonly unsubscribeUrl?: string;
}

function textOf(body: Body): string {
  const lines: string[] = [];
  for (const paragraph of body.paragraphs) lines.push(paragraph, '');
  if (body.action) lines.push(`${body.action.label}:`, body.action.url, '');
  // A value's own line breaks (typed, or pasted as U+2028 and the like) continue it, indented: a
  // stranger's text never starts a line of its own that reads as another row ('Email: …').
  for (const [label, value] of body.rows ?? [])
    lines.push(`${label}: ${value.split(/\r\n|[\r\n\v\f\u0085\u2028\u2029]/).join('\n    ')}`);
  if (body.rows?.length) lines.push('');
  lines.push(EMAIL_COPY.signOff, '', '--', EMAIL_COPY.footer);
  if (body.unsubscribeUrl) lines.push(`${EMAIL_COPY.unsubscribeLine} ${body.unsubscribeUrl}`);
  return `${lines.join('\n')}\n`;
}

function htmlOf(subject: string, body: Body): string {
  const parts = body.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`);
  if (body.action) {
    parts.push(
      `<p><a href="${escapeHtml(body.action.url)}" style="display:inline-block;padding:12px 20px;background:#4b2bbf;color:#ffffff;border-radius:8px;text-decoration:none;font-weight:bold">${escapeHtml(body.action.label)}</a></p>`,
      `<p style="font-size:14px">${escapeHtml(body.action.url)}</p>`,
    );
  }
  if (body.rows?.length) {
    const rows = body.rows
      .map(
        ([label, value]) =>
          `<tr><th scope="row" style="text-align:left;vertical-align:top;padding:4px 12px 4px 0">${escapeHtml(label)}</th><td style="padding:4px 0;white-space:pre-wrap">${escapeHtml(value)}</td></tr>`,
      )
      .join('');
    parts.push(`<table role="presentation">${rows}</table>`);
  }
  parts.push(`<p>${escapeHtml(EMAIL_COPY.signOff)}</p>`);
  const footer = [escapeHtml(EMAIL_COPY.footer)];
  if (body.unsubscribeUrl) {
    footer.push(
      `<a href="${escapeHtml(body.unsubscribeUrl)}">${escapeHtml(EMAIL_COPY.unsubscribeLine.replace(/:$/, ''))}</a>`,
    );
  }
  return `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body style="font-family:Arial,sans-serif;font-size:16px;line-height:1.5;color:#1b1530">${parts.join('')}<hr><p style="font-size:14px;color:#4a4458">${footer.join(' ')}</p></body></html>`;
}

async function compose(
  context: MailContext,
  to: string,
  subject: string,
  body: Body,
  idempotencyKey: string,
  extra: { replyTo?: string } = {},
): Promise<MailMessage> {
  return {
    from: context.from,
    to,
    ...(extra.replyTo ? { replyTo: extra.replyTo } : {}),
    subject,
    text: textOf(body),
    html: htmlOf(subject, body),
    headers: body.unsubscribeUrl
      ? {
          'List-Unsubscribe': `<${body.unsubscribeUrl}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        }
      : {},
    idempotencyKey,
  };
}

/** Every email to a visitor carries a one-click unsubscribe for its address. */
const unsubscribeFor = (context: MailContext, form: LinkForm, email: string) =>
  signedUrl(context, 'unsubscribe', form, email);

/** The one confirmation email a new waitlist address gets. */
export async function confirmationEmail(
  context: MailContext,
  email: string,
  key: string,
): Promise<MailMessage> {
  const copy = EMAIL_COPY.confirm;
  return compose(
    context,
    email,
    copy.subject,
    {
      paragraphs: [copy.intro, copy.ignore],
      action: { label: copy.action, url: await signedUrl(context, 'confirm', 'waitlist', email) },
      unsubscribeUrl: await unsubscribeFor(context, 'waitlist', email),
    },
    `confirm:${key}`,
  );
}

/** The email to the address on record when someone submits new values for it: nothing changes until its owner presses. */
export async function changeEmail(
  context: MailContext,
  form: LinkForm,
  email: string,
  values: LinkValues,
  key: string,
): Promise<MailMessage> {
  const copy = EMAIL_COPY.change;
  return compose(
    context,
    email,
    copy.subject,
    {
      paragraphs: [copy.intro, copy.ignore],
      action: { label: copy.action, url: await signedUrl(context, 'change', form, email, values) },
      unsubscribeUrl: await unsubscribeFor(context, form, email),
    },
    `change:${key}`,
  );
}

/** The contact's acknowledgement of a new quote request: none of what they typed, and the booking page. */
export async function quoteAcknowledgement(
  context: MailContext,
  email: string,
  bookingUrl: string,
  key: string,
): Promise<MailMessage> {
  const copy = EMAIL_COPY.quoteAcknowledgement;
  return compose(
    context,
    email,
    copy.subject,
    {
      paragraphs: [copy.intro, copy.ignore],
      action: { label: copy.booking.replace(/:$/, ''), url: bookingUrl },
      unsubscribeUrl: await unsubscribeFor(context, 'quote', email),
    },
    `acknowledge:${key}`,
  );
}

/**
 * The schools team's notification of a quote request (new, or changed and confirmed by the
 * contact): every field, escaped; replies go to the contact. An internal message, so it carries
 * no unsubscribe link (the team's address is on no list).
 */
export async function schoolsTeamNotification(
  context: MailContext,
  teamEmail: string,
  contactEmail: string,
  school: string,
  rows: readonly (readonly [string, string])[],
  kind: TeamNotice,
  key: string,
): Promise<MailMessage> {
  const copy = EMAIL_COPY.schoolsTeam[kind];
  return compose(
    context,
    teamEmail,
    copy.subject(school),
    { paragraphs: [copy.intro], rows },
    `team:${kind}:${key}`,
    { replyTo: contactEmail },
  );
}
