/**
 * The site's server: one door per form (its contract's `path`, /api/forms/waitlist and
 * /api/forms/quote), as one web-standard handler, `(request, client) => Promise<Response>`,
 * mounted by every host (the Worker, the Netlify Function, Vite's dev and preview servers).
 *
 * Both ways a form is sent meet here with the same fields: the enhanced form (the page's script)
 * and the native post (before hydration, or without JavaScript) post the form's fields urlencoded.
 * The request check (request-check.ts) checks the request and reads the fields by the form's
 * contract; the store (stores.ts) upserts the submission by email or queues it. The answer is JSON when the request
 * asks for it (`Accept: application/json`, the enhanced form), else a full page (form-door.ts).
 *
 * The door answers POST; a GET (or HEAD) is sent to the form's page (303); anything else is 405.
 * The browser never speaks Airtable's protocol to this server: only direct mode does, to Airtable.
 */
import { formAtPath } from '#src/lib/forms/forms.ts';
import type { Limiter } from './client-limits.ts';
import { answerEnhancedPost, answerNativePost, type FormTemplates, wantsJson } from './form-door.ts';
import { createAirtableClient } from './airtable-client.ts';
import { confirmedQuoteChange, consentRecords } from './consent.ts';
import { type EmailLinkOptions, handleEmailLink, isEmailLinkPath } from './mail/email-links.ts';
import type { MailService } from './mail/mail-service.ts';
import type { WriteOutcome } from './mail/outgoing.ts';
import { createPacer, type Pacer } from './pacer.ts';
import { airtableAccess } from './settings.ts';
import { createRequestCheck } from './request-check.ts';
import type { AirtableEnv } from './settings.ts';
import { createQueueStore, createSyncStore, type KeepAlive, type SubmissionQueue } from './stores.ts';

export type { SubmissionQueue } from './stores.ts';

export interface DoorsOptions {
  /** Injected for tests and for the local servers; defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Airtable's pace, one per instance; pass a shared one when several servers write to one base. */
  pacer?: Pacer;
  answerBoundMs?: number;
  now?: () => number;
  /** Queued mode: accepted submissions are sent here instead of being written at once. */
  queue?: SubmissionQueue;
  /** Where operational warnings go (never with a token or an email in them). */
  warn?: (message: string) => void;
  /** Per-client and per-email limits (the Worker passes its Rate Limiting bindings). */
  clientLimiter?: Limiter;
  emailLimiter?: Limiter;
  bodyTimeoutMs?: number;
  /** The built answer pages of the forms' native posts. */
  formTemplates?: FormTemplates;
  /**
   * The host's mail: with it, consent applies to every write (consent.ts) and the emails' links
   * are answered here (EMAIL_LINK_PATHS); without it the spec's upsert runs unchanged.
   */
  mail?: MailService;
  /**
   * How the mail a pressed email link causes leaves (the schools team told of a confirmed quote
   * change): by default sent at once through `mail`; the Worker puts it on its mail queue.
   */
  linkMail?: (outcome: WriteOutcome, origin: string) => Promise<void>;
  /** Longest the mail of one write may take after the answer (stores.ts). */
  mailBoundMs?: number;
}

/** Who is asking, as the host knows it, and what the host offers for this request. */
export interface ClientInfo {
  /** The connecting address (see client-limits.ts for how each host finds it). */
  address?: string;
  /**
   * The host's way to keep work alive after the answer (Netlify's `context.waitUntil`): the
   * mail a write causes is handed to it. Without it the mail runs on in the process.
   */
  keepAlive?: KeepAlive;
}

export type DoorsHandler = (request: Request, client?: ClientInfo) => Promise<Response>;

/** What a form's door answers: POST, and GET (or HEAD) with a redirect to the form's page. */
export const FORM_DOOR_METHODS = 'GET, HEAD, POST';

/** Stand-in for the real base id in any upstream message a visitor could read. */
const HIDDEN_BASE_ID = 'app…';

/** Builds the forms' doors for one base. */
export function createDoors(env: AirtableEnv, options: DoorsOptions = {}): DoorsHandler {
  const baseId = env.AIRTABLE_BASE_ID?.trim() ?? '';
  const warn = options.warn ?? ((message: string) => console.warn(message));
  // Upstream messages may name the real base; a visitor never learns it.
  const scrub = (message: string) => (baseId ? message.split(baseId).join(HIDDEN_BASE_ID) : message);
  const pacer = options.pacer ?? createPacer({ now: options.now });
  const store = options.queue
    ? createQueueStore(options.queue, warn)
    : createSyncStore(env, {
        fetch: options.fetch,
        pacer,
        mail: options.mail,
        mailBoundMs: options.mailBoundMs,
        answerBoundMs: options.answerBoundMs,
        now: options.now,
        warn,
        scrub,
      });
  const requestCheck = createRequestCheck({
    store,
    now: options.now,
    clientLimiter: options.clientLimiter,
    emailLimiter: options.emailLimiter,
    bodyTimeoutMs: options.bodyTimeoutMs,
  });

  const { mail } = options;
  const linkOptions: EmailLinkOptions | undefined = mail && {
    records: consentRecords(
      createAirtableClient(airtableAccess(env), { pacer, fetch: options.fetch, now: options.now }),
    ),
    linkSecrets: mail.settings.linkSecrets,
    afterQuoteChange: async (email, values, at, origin) => {
      const outcome = confirmedQuoteChange(email, values, at);
      if (options.linkMail) await options.linkMail(outcome, origin);
      else await mail.afterWrite(outcome, origin);
    },
    now: () => new Date((options.now ?? Date.now)()),
    log: warn,
  };

  return async (request, client = {}) => {
    const { pathname } = new URL(request.url);
    if (linkOptions && isEmailLinkPath(pathname)) return handleEmailLink(request, linkOptions);
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
    const result = await requestCheck.submit(request, {
      form,
      clientAddress: client.address ?? 'unknown',
      ...(client.keepAlive ? { keepAlive: client.keepAlive } : {}),
    });
    return wantsJson(request)
      ? answerEnhancedPost(result)
      : answerNativePost(form.name, result, options.formTemplates);
  };
}
