/**
 * The links' door (EMAIL_LINK_PATHS), loaded on a link's first request (doors/routes.ts), never a sign-up's.
 * GET shows one button, changing nothing (mail scanners open links); POST (the button, a plain form, or RFC
 * 8058 one-click unsubscribe, with no Origin, cookies or page marker) does the link's one thing, and again
 * changes and sends nothing. Tampered or malformed: 400 page; expired: 410, offering to sign up again;
 * neither changes anything. The signed token is the proof (only the mailbox's owner has it): no Origin
 * check. Records via ConsentRecords (privacy/consent-records.ts, the desk's pacer), cells via the forms'
 * `applyValues`: this knows consent, not fields. Its mail is queued, its page from the build's template.
 */
import { formNamed } from '#src/lib/forms/forms.ts';
import {
  type ConsentRecords,
  consentRecords,
  type PressAccess,
} from '#src/server/privacy/consent-records.ts';
import { suppressionList } from '#src/server/privacy/consent.ts';
import { readBody, REQUEST_BODY_TIMEOUT_MS, REQUEST_MAX_BODY_BYTES } from '#src/server/doors/body.ts';
import { clientLimitKey, type Limiter } from '#src/server/doors/limiters.ts';
import type { RequestCheckOptions } from '#src/server/doors/request-check.ts';
import type { PageTemplates } from '#src/server/host.ts';
import { linkPressMail } from '#src/server/mail/plan.ts';
import type { QueueingMail } from '#src/server/mail/setup.ts';
import type { AirtableEnv } from '#src/server/settings.ts';
import { checkLink, linkPurposeAt, linkSentAt, type LinkClaims } from './tokens.ts';
import { confirmPage, donePage, refusedPage, render, UNAVAILABLE } from './page.ts';

/** linkPressMail's `tellTeam` (a change applied, conduct.tellsTeam; a failure only logged) and `rejoinMail`. */
export interface EmailLinkOptions extends Partial<ReturnType<typeof linkPressMail>> {
  readonly records: ConsentRecords;
  /** The current `LINK_SECRET` first, then any still honoured after a rotation. */
  readonly linkSecrets: readonly string[];
  readonly now: () => Date;
  readonly log?: (message: string) => void;
  /** The build's templates; without them, a minimal page. */
  readonly pages?: PageTemplates;
}

/** A pressed button: the token, where it posted, and whether it was 'join again' (the unsubscribed page's). */
type Press = { readonly token: string; readonly action: string; readonly rejoin: boolean };

/** The press, its token from the button's body (read within the doors' limits) or else the address. */
async function pressOf(request: Request, url: URL): Promise<Press | { status: 408 | 413 }> {
  const fromQuery = url.searchParams.get('token') ?? '';
  const action = url.pathname;
  if (request.method !== 'POST') return { token: fromQuery, action, rejoin: false };
  const body = await readBody(request, REQUEST_MAX_BODY_BYTES, REQUEST_BODY_TIMEOUT_MS);
  if ('problem' in body) return { status: body.problem === 'too-large' ? 413 : 408 };
  const type = request.headers.get('content-type') ?? '';
  const fields = type.startsWith('application/x-www-form-urlencoded') ? new URLSearchParams(body.text) : null;
  return { token: fields?.get('token') || fromQuery, action, rejoin: fields?.get('rejoin') === '1' };
}

/** Does the link's one thing; answers the page that says it is done. */
async function act(claims: LinkClaims, options: EmailLinkOptions, press: Press) {
  const at = options.now();
  const { records } = options;
  if (claims.purpose === 'change') {
    const values = claims.values ?? {};
    const result = await records.applyValues(claims.form, claims.email, values, at, linkSentAt(claims));
    if (result === 'superseded') return refusedPage('superseded');
    if (result === 'applied' && formNamed(claims.form)?.conduct.tellsTeam && options.tellTeam) {
      await options.tellTeam(claims.form, claims.email, values, at).catch((error: unknown) => {
        options.log?.(`The team was not told of a confirmed ${claims.form} change: ${String(error)}`);
      });
    }
    return donePage(result === 'applied' ? 'changed' : 'alreadyChanged', claims.form, press);
  }
  // A confirmation or an unsubscribe: the address's record on the suppression list.
  const list = suppressionList();
  const record = await records.find(list.form.name, claims.email);
  if (claims.purpose === 'confirm') {
    // A rejoin confirmation applies to the withdrawal it was sent for, never to a later one.
    const rejoining = record?.consent === 'Withdrawn' && claims.withdrawnAt === (record.changedAt ?? '');
    // Gone (deleted after 30 days unconfirmed) or withdrawn since: this link no longer applies.
    if (!record || (record.consent === 'Withdrawn' && !rejoining)) return refusedPage('expired');
    if (record.consent === 'Confirmed') return donePage('alreadyConfirmed', claims.form, press);
    await records.setConsent(record.id, 'Confirmed', at, rejoining ? list.statement : undefined);
    return donePage(rejoining ? 'rejoined' : 'confirmed', claims.form, press);
  }
  // Only an unsubscribe is left: a purpose added later fails to compile here, never taken for one.
  void (claims.purpose satisfies 'unsubscribe');
  const already = record?.consent === 'Withdrawn';
  if (press.rejoin) {
    // The one way back once withdrawn (the forms send a withdrawn address nothing), but the token
    // lives for years in any forwarded email: it only sends a fresh confirmation, nothing changes
    // until that is pressed. Another form's token never joins.
    if (claims.form !== list.form.name || !record) return refusedPage('invalid');
    if (record.consent === 'Confirmed') return donePage('alreadyConfirmed', list.form.name, press);
    if (!already) return refusedPage('invalid');
    const sent = await options.rejoinMail?.(claims.email, record.changedAt ?? '', at);
    if (!sent?.queued && !sent?.limited) return { status: 503, ...UNAVAILABLE };
    return donePage(sent.queued ? 'rejoinSent' : 'rejoinLimited', list.form.name, press);
  }
  if (!record) await records.createWithdrawn(claims.email, at);
  else if (!already) await records.setConsent(record.id, 'Withdrawn', at);
  return donePage(already ? 'alreadyUnsubscribed' : 'unsubscribed', claims.form, press);
}

/** Answers a request for one of the email links' paths (EMAIL_LINK_PATHS). */
export async function handleEmailLink(request: Request, options: EmailLinkOptions): Promise<Response> {
  const url = new URL(request.url);
  const purpose = linkPurposeAt(url.pathname);
  if (!purpose) return new Response('Not found', { status: 404 });
  if (!['GET', 'HEAD', 'POST'].includes(request.method))
    return new Response('Method not allowed', { status: 405, headers: { allow: 'GET, HEAD, POST' } });
  const { pages } = options;
  const pressed = await pressOf(request, url);
  if ('status' in pressed) return render(refusedPage('invalid', pressed.status), pages);
  const check = await checkLink(pressed.token, purpose, options.linkSecrets, options.now());
  if (!check.ok) return render(refusedPage(check.reason === 'expired' ? 'expired' : 'invalid'), pages);
  // The button posts back to the path alone: the token travels in the body, not in logs.
  if (request.method !== 'POST') return render(confirmPage(check.claims, pressed), pages);
  const done = await act(check.claims, options, pressed).catch((error: unknown) => {
    options.log?.(`An email link could not be applied (${purpose}): ${String(error)}`);
    return { status: 503, ...UNAVAILABLE };
  });
  return render(done, pages);
}

/** A press's Airtable access (`pacer`: the writer's one, deskPacer), the request check's `siteOrigin` and `warn`. */
export interface LinkDoorOptions extends PressAccess, Pick<RequestCheckOptions, 'siteOrigin' | 'warn'> {
  /** The build's templates: the forms' native posts' answers and the emails' links' pages. */
  templates?: PageTemplates;
  /** With it, consent applies, the emails' links are answered here (EMAIL_LINK_PATHS), their mail queued. */
  mail?: QueueingMail;
}

/** Without mail (its settings wrong: doors/routes.ts logs it) or a site origin, every link answers 'unavailable'. */
export function createLinkDoor(env: AirtableEnv, options: LinkDoorOptions, clientLimiter: Limiter) {
  const { mail, siteOrigin, templates } = options;
  if (!mail || siteOrigin === null) return () => render({ status: 503, ...UNAVAILABLE }, templates);
  const ready: EmailLinkOptions = {
    records: consentRecords(env, { pacer: options.pacer, fetch: options.fetch, now: options.now }),
    linkSecrets: mail.settings.linkSecrets,
    ...linkPressMail(mail, siteOrigin),
    now: () => new Date((options.now ?? Date.now)()),
    log: options.warn,
    pages: templates,
  };
  return async (request: Request, client: { address?: string } = {}): Promise<Response> => {
    // Opening a link changes nothing; a press writes, so it counts against the forms' posts' per-client
    // budget (its body read within the same bounds: pressOf).
    if (request.method === 'POST') {
      const taken = await clientLimiter.take(clientLimitKey(client.address ?? 'unknown'));
      if (!taken.ok) return render({ status: 429, ...UNAVAILABLE }, templates, taken.retryAfterSeconds);
    }
    return handleEmailLink(request, ready);
  };
}
