/**
 * The emails the site sends: their words (EMAIL_COPY) and signed links. The HTML part escapes every value;
 * header values pass message.ts's readyToSend. Emails to a visitor echo nothing typed (or a stranger could
 * send anyone their words from the site's address); only the team's notification shows the fields.
 */
import { EMAIL_COPY } from '#src/config/messages.ts';
import { escapeHtml } from '#src/lib/page-templates.ts';
import { storedText, withoutBidiControls } from '#src/lib/forms/contract.ts';
import type { AcknowledgementCopy, TeamCopy } from '#src/lib/forms/contract.ts';
import type { MailAddress, MailMessage } from './message.ts';
import {
  EMAIL_LINK_PATHS,
  type LinkClaims,
  type LinkValues,
  linkExpiry,
  signLink,
} from '#src/server/links/tokens.ts';

/** What the team is told of: a new request, one held for a contact on record, a confirmed change. */
export type TeamNotice = 'new' | 'held' | 'confirmed-change';

/** A team notice as a digest lists it (team-inbox.ts): `id`, its idempotency key; `at`, ISO 8601. */
export type HeldNotice = Readonly<Record<'id' | 'subject' | 'contact' | 'at', string> & { kind: TeamNotice }>;

/** A team notice and its team (the address setting its form names), as the team's ceiling admits or holds it. */
export type TeamHeld = Readonly<{ team: string; notice: HeldNotice }>;

/** One hour's held notices: those listed, and how many more. */
export type HeldHour = Readonly<{ notices: readonly HeldNotice[]; more: number }>;

/** What every email needs from the server: the sender, the site's origin, the time, the signing secret. */
export interface MailContext {
  readonly from: MailAddress;
  /** The site's own origin, e.g. `https://www.podling.app`; links never point elsewhere. */
  readonly siteUrl: string;
  readonly now: Date;
  /** The current `LINK_SECRET`. */
  readonly linkSecret: string;
}

/** The signed link of `link` (expiring by its purpose from the context's time), on the site's own origin. */
export async function signedUrl(context: MailContext, link: Omit<LinkClaims, 'expiresAt'>) {
  const expiresAt = linkExpiry(link.purpose, context.now);
  const token = await signLink({ ...link, expiresAt }, context.linkSecret);
  return `${new URL(EMAIL_LINK_PATHS[link.purpose], context.siteUrl)}?token=${encodeURIComponent(token)}`;
}

/** An email's parts: paragraphs, and at most one button (a link styled as one). */
interface Body {
  readonly paragraphs: readonly string[];
  readonly action?: { readonly label: string; readonly url: string };
  /** Label/value rows (the team's notification). */
  readonly rows?: readonly (readonly [string, string])[];
  readonly unsubscribeUrl?: string;
}

/** The plain-text part: the same words, links and order as the HTML part, under the product's name. */
function textOf(body: Body): string {
  const lines: string[] = [EMAIL_COPY.senderName, EMAIL_COPY.tagline, '', ''];
  for (const paragraph of body.paragraphs) lines.push(paragraph, '');
  if (body.action) lines.push(`${body.action.label}:`, body.action.url, '');
  // A value's line breaks (U+2028 and kin too) continue it, indented: none starts a fake row ('Email: …').
  for (const [label, value] of body.rows ?? [])
    lines.push(`${label}: ${value.split(/\r\n|[\r\n\v\f\u0085\u2028\u2029]/).join('\n    ')}`);
  if (body.rows?.length) lines.push('');
  lines.push(EMAIL_COPY.signOff, '', '--', EMAIL_COPY.footer);
  if (body.unsubscribeUrl) lines.push(`${EMAIL_COPY.unsubscribeLine} ${body.unsubscribeUrl}`);
  return `${lines.join('\n')}\n`;
}

/**
 * The emails' colours: the site's (src/styles/global.css), light, and dark for the clients that honour
 * `prefers-color-scheme` (Apple Mail, iOS Mail, Outlook on the web and on Mac). Clients that invert colours
 * themselves (Gmail's apps, Outlook on Windows) get the light ones to invert: every text sits on a colour of
 * its own (white on the brand purple in the button and the mark), so the inverted pairs keep their contrast.
 */
const COLOURS = {
  page: '#f4f1fb',
  card: '#ffffff',
  text: '#1b1530',
  muted: '#4a4560',
  brand: '#5b2ee0',
  onBrand: '#ffffff',
} as const;
const DARK = { page: '#120e1a', card: '#1f1830', text: '#f3f0fa', muted: '#c9c2dc', link: '#c7b6ff' };

const FONT = "-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif";

/** The styles in the head, for clients that read them; everything else is inline. */
const HEAD_STYLES = `:root{color-scheme:light dark;supported-color-schemes:light dark}
body{margin:0;padding:0;-webkit-text-size-adjust:100%}
@media (prefers-color-scheme:dark){
.email-page{background:${DARK.page}!important}
.email-card{background:${DARK.card}!important;color:${DARK.text}!important}
.email-muted{color:${DARK.muted}!important}
.email-link{color:${DARK.link}!important}
.email-wordmark{color:${DARK.text}!important}
}`;

/** The name and mark at the top: text and a coloured box, so it reads with images off and loads nothing. */
function wordmark(): string {
  const mark = `<td aria-hidden="true" style="width:40px;height:40px;border-radius:12px;background:${COLOURS.brand};color:${COLOURS.onBrand};font-family:${FONT};font-size:22px;font-weight:bold;line-height:40px;text-align:center">${escapeHtml(EMAIL_COPY.senderName.charAt(0))}</td>`;
  const name = `<td style="padding-left:12px;font-family:${FONT}"><div class="email-wordmark" style="font-size:24px;font-weight:bold;line-height:1.2;color:${COLOURS.brand}">${escapeHtml(EMAIL_COPY.senderName)}</div><div class="email-muted" style="font-size:14px;line-height:1.4;color:${COLOURS.muted}">${escapeHtml(EMAIL_COPY.tagline)}</div></td>`;
  return `<table role="presentation" cellpadding="0" cellspacing="0" border="0"><tr>${mark}${name}</tr></table>`;
}

/** A link styled as a button (a table cell, so Outlook on Windows paints its background too). */
function button(label: string, url: string): string {
  return `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 16px"><tr><td style="border-radius:999px;background:${COLOURS.brand}"><a href="${escapeHtml(url)}" style="display:inline-block;padding:14px 28px;border-radius:999px;background:${COLOURS.brand};color:${COLOURS.onBrand};font-family:${FONT};font-size:17px;font-weight:bold;line-height:1.2;text-decoration:none">${escapeHtml(label)}</a></td></tr></table>`;
}

function htmlOf(subject: string, body: Body): string {
  const linkStyle = `color:${COLOURS.brand};text-decoration:underline`;
  const parts = body.paragraphs.map((paragraph) => `<p style="margin:0 0 16px">${escapeHtml(paragraph)}</p>`);
  // A long signed address (the button's fallback) breaks anywhere rather than run past a phone's edge.
  const action = body.action
    ? `${button(body.action.label, body.action.url)}<p class="email-muted" style="margin:0 0 4px;font-size:14px;color:${COLOURS.muted}">${escapeHtml(EMAIL_COPY.fallbackLink)}</p><p style="margin:0 0 16px;font-size:14px;word-break:break-all;overflow-wrap:anywhere"><a class="email-link" href="${escapeHtml(body.action.url)}" style="${linkStyle};word-break:break-all">${escapeHtml(body.action.url)}</a></p>`
    : '';
  const rows = body.rows?.length
    ? `<table role="presentation" style="margin:0 0 16px;font-size:15px">${body.rows.map(([label, value]) => `<tr><th scope="row" style="text-align:left;vertical-align:top;padding:4px 12px 4px 0">${escapeHtml(label)}</th><td style="padding:4px 0;white-space:pre-wrap;overflow-wrap:anywhere">${escapeHtml(value)}</td></tr>`).join('')}</table>`
    : '';
  const unsubscribe = body.unsubscribeUrl
    ? ` <a class="email-link" href="${escapeHtml(body.unsubscribeUrl)}" style="${linkStyle}">${escapeHtml(EMAIL_COPY.unsubscribeLine.replace(/:$/, ''))}</a>`
    : '';
  // The first paragraph as the inbox's preview line, hidden in the message itself.
  const preview = body.paragraphs[0]
    ? `<div style="display:none;max-height:0;overflow:hidden;mso-hide:all">${escapeHtml(body.paragraphs[0])}</div>`
    : '';
  return `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><meta name="supported-color-schemes" content="light dark"><title>${escapeHtml(subject)}</title><style>${HEAD_STYLES}</style></head><body class="email-page" style="margin:0;padding:0;background:${COLOURS.page}">${preview}<table role="presentation" class="email-page" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:${COLOURS.page}"><tr><td align="center" style="padding:24px 12px"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px"><tr><td style="padding:0 4px 16px">${wordmark()}</td></tr><tr><td class="email-card" style="padding:28px 24px;border-radius:16px;background:${COLOURS.card};color:${COLOURS.text};font-family:${FONT};font-size:16px;line-height:1.5">${parts.join('')}${action}${rows}<p style="margin:0">${escapeHtml(EMAIL_COPY.signOff)}</p></td></tr><tr><td class="email-muted" style="padding:16px 4px;color:${COLOURS.muted};font-family:${FONT};font-size:13px;line-height:1.5">${escapeHtml(EMAIL_COPY.footer)}${unsubscribe}</td></tr></table></td></tr></table></body></html>`;
}

function compose(
  { from }: Pick<MailContext, 'from'>,
  to: string,
  subject: string,
  body: Body,
  idempotencyKey: string,
  replyTo?: string,
): MailMessage {
  const unsubscribe = body.unsubscribeUrl;
  const headers: Record<string, string> = unsubscribe
    ? { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
    : {};
  const [text, html] = [textOf(body), htmlOf(subject, body)];
  return { from, to, ...(replyTo ? { replyTo } : {}), subject, text, html, headers, idempotencyKey };
}

/**
 * Which email a visitor gets (its key's prefix): 'confirm', a new address's (with `withdrawnAt`, a withdrawn
 * one's rejoining: its link confirms only that withdrawal); 'change', the stored address's when new `values`
 * come for it (nothing changes until its owner presses); 'acknowledge', conduct.acknowledgement's.
 */
export type VisitorMail =
  | { readonly kind: 'confirm' | 'change'; readonly values?: LinkValues; readonly withdrawnAt?: string }
  | { readonly kind: 'acknowledge'; readonly copy: AcknowledgementCopy; readonly url: string };

/** Intro, what to do if not them, a button, and a one-click unsubscribe (all visitor emails have one). */
export async function visitorEmail(
  context: MailContext,
  form: string,
  email: string,
  key: string,
  mail: VisitorMail,
): Promise<MailMessage> {
  const [copy, url] =
    mail.kind === 'acknowledge'
      ? [EMAIL_COPY[mail.copy], mail.url]
      : [
          EMAIL_COPY[mail.withdrawnAt === undefined ? mail.kind : 'rejoin'],
          await signedUrl(context, { ...mail, purpose: mail.kind, form, email }),
        ];
  const unsubscribeUrl = await signedUrl(context, { purpose: 'unsubscribe', form, email });
  const body = { paragraphs: [copy.intro, copy.ignore], action: { label: copy.action, url }, unsubscribeUrl };
  return compose(context, email, copy.subject, body, `${mail.kind}:${key}`);
}

/**
 * The team's notification of a request (`notice`, of a TeamNotice kind) in its words: every field (`rows`),
 * escaped; its subject names the notice's (conduct.tellsTeam.subjectField's value); replies go to the
 * contact. Internal: no unsubscribe link (the team's address is on no list).
 */
export function teamNotification(
  context: Pick<MailContext, 'from'>,
  team: { readonly email: string; readonly copy: TeamCopy },
  { id, subject, contact, kind }: HeldNotice,
  rows: readonly (readonly [string, string])[],
): MailMessage {
  const copy = EMAIL_COPY[team.copy][kind];
  // Stored values are clean already (the forms' parser); an older held change's may not be.
  const shown = rows.map(([label, value]) => [label, withoutBidiControls(value)] as const);
  const body = { paragraphs: [copy.intro], rows: shown };
  return compose(context, team.email, copy.subject(withoutBidiControls(subject)), body, id, contact);
}

/**
 * The digest of one hour's notices the ceiling (`perHour`; team-inbox.ts) held back: a row each (when,
 * subject, contact, kind), how many more did not fit; `key` names those listed, so a retry is the same email.
 */
export function teamDigest(
  context: Pick<MailContext, 'from'>,
  team: { readonly email: string; readonly copy: TeamCopy },
  { notices, more }: HeldHour,
  perHour: number,
  key: string,
): MailMessage {
  const copy = EMAIL_COPY[team.copy].digest;
  const rows = notices.map((notice): [string, string] => [
    `${notice.at.slice(0, 16).replace('T', ' ')} UTC`,
    `${storedText(notice.subject)}, ${storedText(notice.contact)} (${copy.kinds[notice.kind]})`,
  ]);
  const paragraphs = [copy.intro(perHour), ...(more > 0 ? [copy.more(more)] : [])];
  const subject = copy.subject(notices.length + more);
  return compose(context, team.email, subject, { paragraphs, rows }, key);
}
