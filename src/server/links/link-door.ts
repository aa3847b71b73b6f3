/**
 * The emails' links as a door (EMAIL_LINK_PATHS), loaded on a link's first request (form-door.ts),
 * never on a sign-up's: a link's records through the desk's pacer, its mail queued, its page from
 * the build's template (actions.ts does the link's one thing, page.ts says so).
 */
import type { PageTemplates } from '#src/server/host.ts';
import { clientLimitKey, type Limiter } from '#src/server/doors/limiters.ts';
import type { RequestCheckOptions } from '#src/server/doors/request-check.ts';
import { linkPressMail } from '#src/server/mail/plan.ts';
import type { QueueingMail } from '#src/server/mail/setup.ts';
import { consentRecords, type PressAccess } from '#src/server/privacy/consent-records.ts';
import type { AirtableEnv } from '#src/server/settings.ts';
import { type EmailLinkOptions, handleEmailLink } from './actions.ts';
import { linksUnavailablePage } from './page.ts';

/** With the request check's `siteOrigin` (null: no link can be checked), `now` and `warn`. */
export interface LinkDoorOptions extends Pick<RequestCheckOptions, 'siteOrigin' | 'now' | 'warn'> {
  /** Airtable's pace for the writes a pressed email link makes: the writer's one pacer (deskPacer). */
  pacer: PressAccess['pacer'];
  /** The build's templates: the forms' native posts' answers and the emails' links' pages. */
  templates?: PageTemplates;
  /** With it, consent applies, the emails' links are answered here (EMAIL_LINK_PATHS), their mail queued. */
  mail?: QueueingMail;
  fetch?: typeof fetch;
}

/** What a link needs, or undefined without mail (its settings are wrong: doors/routes.ts logs it) or a site origin. */
function linkOptions(env: AirtableEnv, options: LinkDoorOptions): EmailLinkOptions | undefined {
  const { mail, siteOrigin } = options;
  if (!mail || siteOrigin === null) return undefined;
  return {
    records: consentRecords(env, { pacer: options.pacer, fetch: options.fetch, now: options.now }),
    linkSecrets: mail.settings.linkSecrets,
    ...linkPressMail(mail, siteOrigin),
    now: () => new Date((options.now ?? Date.now)()),
    ...(options.warn ? { log: options.warn } : {}),
    ...(options.templates ? { pages: options.templates } : {}),
  };
}

/** The links' door; `clientLimiter` is the forms' posts' (a press counts against the same budget). */
export function createLinkDoor(env: AirtableEnv, options: LinkDoorOptions, clientLimiter: Limiter) {
  const ready = linkOptions(env, options);
  return async (request: Request, client: { address?: string } = {}): Promise<Response> => {
    if (!ready) return linksUnavailablePage(options.templates);
    // Opening a link changes nothing; a press writes, so it counts against the one per-client budget
    // of the forms' posts (its body is read within the same bounds: actions.ts).
    if (request.method === 'POST') {
      const taken = await clientLimiter.take(clientLimitKey(client.address ?? 'unknown'));
      if (!taken.ok) return linksUnavailablePage(options.templates, taken.retryAfterSeconds);
    }
    return handleEmailLink(request, ready);
  };
}
