/**
 * The site's server: one door per form (its contract's `path`, /api/forms/waitlist and
 * /api/forms/quote), as one web-standard handler, `(request, client) => Promise<Response>`,
 * mounted by the Worker (worker.ts), the one server in every mode.
 *
 * Both ways a form is sent meet here with the same fields: the enhanced form (the page's script)
 * and the native post (before hydration, or without JavaScript) post the form's fields urlencoded.
 * The request check (request-check.ts) checks the request and reads the fields by the form's
 * contract; the store (stores.ts) queues it for the one paced writer. The answer is JSON when the request
 * asks for it (`Accept: application/json`, the enhanced form), else a full page (form-door.ts).
 *
 * The door answers POST; a GET (or HEAD) is sent to the form's page (303); anything else is 405.
 * The browser never speaks Airtable's protocol to this server: only direct mode does, to Airtable.
 */
import { formAtPath } from '#src/lib/forms/forms.ts';
import {
  clientLimitKey,
  createWindowLimiter,
  type Limiter,
  SUBMISSIONS_PER_CLIENT_PER_MINUTE,
} from './client-limits.ts';
import { answerEnhancedPost, answerNativePost, type FormTemplates, wantsJson } from './form-door.ts';
import { createAirtableClient } from './airtable-client.ts';
import { confirmedQuoteChange, consentRecords } from './consent.ts';
import {
  type EmailLinkOptions,
  handleEmailLink,
  isEmailLinkPath,
  linksBusyPage,
  linksUnavailablePage,
} from './mail/email-links.ts';
import type { MailService } from './mail/mail-service.ts';
import type { WriteOutcome } from './mail/outgoing.ts';
import type { Pacer } from './pacer.ts';
import { airtableAccess } from './settings.ts';
import { createRequestCheck } from './request-check.ts';
import type { AirtableEnv } from './settings.ts';
import { createQueueStore, type SubmissionQueue } from './stores.ts';

export type { SubmissionQueue } from './stores.ts';

export interface DoorsOptions {
  /** Accepted submissions go here, for the one paced writer (queue-writer.ts). */
  queue: SubmissionQueue;
  /**
   * The site's configured origin (the Worker's SITE_URL): the one Origin a post is taken from and
   * the one every emailed link leads to, whatever Host, request line or forwarding header came in.
   * Null while the deploy has none: posts are refused as failures and links answer 'unavailable'.
   */
  siteOrigin: string | null;
  /** Airtable's pace for the writes a pressed email link makes: the isolate's one pacer. */
  pacer: Pacer;
  now?: () => number;
  /** Where operational warnings go (never with a token or an email in them). */
  warn?: (message: string) => void;
  /** Per-client and per-email limits (the Worker passes its Rate Limiting bindings). */
  clientLimiter?: Limiter;
  emailLimiter?: Limiter;
  bodyTimeoutMs?: number;
  /** The built answer pages of the forms' native posts. */
  formTemplates?: FormTemplates;
  /**
   * The Worker's mail: with it, consent applies to every write (consent.ts) and the emails' links
   * are answered here (EMAIL_LINK_PATHS); `linkMail` puts the mail a pressed link causes (the
   * schools team told of a confirmed quote change) on the mail queue.
   */
  mail?: { service: MailService; linkMail: (outcome: WriteOutcome, origin: string) => Promise<void> };
  /** Injected for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
}

/** Who is asking, as the host knows it. */
export interface ClientInfo {
  /** The connecting address (CF-Connecting-IP; see client-limits.ts). */
  address?: string;
}

export type DoorsHandler = (request: Request, client?: ClientInfo) => Promise<Response>;

/** What a form's door answers: POST, and GET (or HEAD) with a redirect to the form's page. */
export const FORM_DOOR_METHODS = 'GET, HEAD, POST';

/** Builds the forms' doors for one base. */
export function createDoors(env: AirtableEnv, options: DoorsOptions): DoorsHandler {
  const warn = options.warn ?? ((message: string) => console.warn(message));
  // One per-client budget for every door that writes: the forms' and the emails' links'.
  const clientLimiter =
    options.clientLimiter ??
    createWindowLimiter({ limit: SUBMISSIONS_PER_CLIENT_PER_MINUTE, now: options.now });
  const requestCheck = createRequestCheck({
    store: createQueueStore(options.queue, warn),
    siteOrigin: options.siteOrigin,
    now: options.now,
    clientLimiter,
    emailLimiter: options.emailLimiter,
    bodyTimeoutMs: options.bodyTimeoutMs,
  });

  const { mail, siteOrigin } = options;
  const linkOptions: EmailLinkOptions | undefined =
    mail && siteOrigin !== null
      ? {
          records: consentRecords(
            createAirtableClient(airtableAccess(env), {
              pacer: options.pacer,
              fetch: options.fetch,
              now: options.now,
            }),
          ),
          linkSecrets: mail.service.settings.linkSecrets,
          siteOrigin,
          afterQuoteChange: async (email, values, at, origin) =>
            mail.linkMail(confirmedQuoteChange(email, values, at), origin),
          now: () => new Date((options.now ?? Date.now)()),
          log: warn,
        }
      : undefined;

  return async (request, client = {}) => {
    const { pathname } = new URL(request.url);
    if (mail && isEmailLinkPath(pathname)) {
      if (!linkOptions) return linksUnavailablePage();
      // Opening a link changes nothing; a press writes, so it counts against the client's
      // budget like a form's post (its body is read within the same bounds: email-links.ts).
      if (request.method === 'POST') {
        const taken = await clientLimiter.take(clientLimitKey(client.address ?? 'unknown'));
        if (!taken.ok) return linksBusyPage(taken.retryAfterSeconds);
      }
      return handleEmailLink(request, linkOptions);
    }
    const form = formAtPath(pathname);
    if (!form)
      return new Response('Not found', {
        status: 404,
        headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
      });
    // A visitor who opens the door's address is sent to the form's page.
    if (request.method === 'GET' || request.method === 'HEAD')
      return new Response(null, { status: 303, headers: { location: form.page } });
    if (request.method !== 'POST')
      return new Response('Method not allowed', {
        status: 405,
        headers: {
          allow: FORM_DOOR_METHODS,
          'content-type': 'text/plain; charset=utf-8',
          'cache-control': 'no-store',
        },
      });
    const result = await requestCheck.submit(request, { form, clientAddress: client.address ?? 'unknown' });
    return wantsJson(request)
      ? answerEnhancedPost(result)
      : answerNativePost(form.name, result, options.formTemplates);
  };
}
