/**
 * Where the Worker runs, chosen once per entry (worker.ts, the desk): Cloudflare (the `send_email`
 * binding, its transport here, the build's assets), or a local run (`vite`, `vite preview`, the tests:
 * worker-server.ts), whose stand-ins live here alone: the outbox every email goes to (MAIL_OUTBOX_URL;
 * launch-check fails a deploy setting it); on `vite`, templates rendered on each use (DEV_TEMPLATES_URL).
 */
import { errorMessage, isObject, MailFailure, type Mailer, readyToSend } from './mail/message.ts';
import type { WorkerSettingsEnv } from './settings.ts';

export interface HostEnv extends WorkerSettingsEnv {
  /** Cloudflare Email Service's `send_email` binding: with it, consent and mail are on. */
  EMAIL?: SendEmailBinding;
  /** The built site (dist/client); the page templates are read from it. */
  ASSETS?: { fetch(request: Request): Promise<Response> };
  /** `vite` only (worker-server.ts): page templates rendered from the sources; read on every use. */
  DEV_TEMPLATES_URL?: string;
}

/**
 * Cloudflare Email Service's `send_email` binding, with a structured message
 * (developers.cloudflare.com/email-service/api/send-emails/workers-api/). Custom headers must be
 * on Cloudflare's allowlist: List-Unsubscribe (with an https URI) and List-Unsubscribe-Post are.
 */
export interface SendEmailBinding {
  send(message: ReturnType<typeof readyToSend>): Promise<{ messageId: string }>;
}

/**
 * The binding's error codes no retry fixes (a bad payload, a refused recipient, an unverified
 * sender): straight to the dead letters, for the owner to replay once fixed. Any other is retried.
 */
const PERMANENT_SEND_ERRORS = new Set(
  `E_VALIDATION_ERROR E_FIELD_MISSING E_TOO_MANY_RECIPIENTS E_SENDER_NOT_VERIFIED E_RECIPIENT_NOT_ALLOWED
  E_RECIPIENT_SUPPRESSED E_SENDER_DOMAIN_NOT_AVAILABLE E_CONTENT_TOO_LARGE E_HEADER_NOT_ALLOWED
  E_HEADER_USE_API_FIELD E_HEADER_VALUE_INVALID E_HEADER_VALUE_TOO_LONG E_HEADER_NAME_INVALID
  E_HEADERS_TOO_LARGE E_HEADERS_TOO_MANY`.split(/\s+/),
);

export function cloudflareMailer(binding: SendEmailBinding): Mailer {
  return {
    async send(message) {
      const ready = readyToSend(message);
      try {
        const { messageId } = await binding.send(ready);
        return { id: messageId };
      } catch (error) {
        // `code`: the one Cloudflare's binding puts on its errors.
        const code = isObject(error) && 'code' in error && typeof error.code === 'string' ? error.code : '';
        throw new MailFailure(
          `send_email failed${code ? ` (${code})` : ''}: ${errorMessage(error)}`,
          !PERMANENT_SEND_ERRORS.has(code),
        );
      }
    },
  };
}

/** Local runs: each message to MAIL_OUTBOX_URL (one `.eml`); never on a deploy (launch-check). */
function localOutboxMailer(url: string): Mailer {
  return {
    async send(message) {
      readyToSend(message);
      const [headers, body] = [{ 'content-type': 'application/json' }, JSON.stringify(message)];
      const response = await fetch(url, { method: 'POST', headers, body }).catch((error: unknown) => {
        throw new MailFailure(`The local outbox did not answer: ${String(error)}`, true);
      });
      if (!response.ok)
        throw new MailFailure(`The local outbox answered ${response.status}`, response.status >= 500);
      const { id } = (await response.json()) as { id?: unknown };
      return { id: typeof id === 'string' ? id : '' };
    },
  };
}

/** Fills the build's template at `path`; null when there is none or it drifted: the caller answers a plain page. */
export type PageTemplates = (path: string, fill: (template: string) => string) => Promise<string | null>;

/** The build's page templates, read once per instance when `cache` is on (a deploy's never change). */
export function pageTemplates(load: (path: string) => Promise<string | null>, cache = true): PageTemplates {
  const loaded = new Map<string, Promise<string | null>>();
  return async (path, fill) => {
    const template = loaded.get(path) ?? load(path).catch(() => null);
    if (cache) loaded.set(path, template);
    const html = await template;
    if (html === null) return null;
    try {
      return fill(html);
    } catch (error) {
      // A template that drifted from its renderer: the visitor still gets the words.
      console.warn(`Page template ${path}: ${errorMessage(error)}`);
      return null;
    }
  };
}

/** The host's mail transport (none: mail is off) and page templates. */
export type Host = { readonly mailer: Mailer | undefined; readonly templates: PageTemplates };

// One host per env: Cloudflare hands an isolate's requests the same env, so its templates are read once.
const hosts = new WeakMap<HostEnv, Host>();
export function hostOf(env: HostEnv): Host {
  const known = hosts.get(env);
  if (known) return known;
  const { MAIL_OUTBOX_URL: outbox, DEV_TEMPLATES_URL: rendered } = env;
  const host = {
    mailer: outbox ? localOutboxMailer(outbox) : env.EMAIL && cloudflareMailer(env.EMAIL),
    /** The page templates, from the build's assets (clean URLs: '/x.html' is at '/x'), or on `vite` rendered. */
    templates: pageTemplates(async (path) => {
      const response = await (rendered
        ? fetch(new URL(path, rendered))
        : env.ASSETS?.fetch(new Request(new URL(path.replace(/\.html$/, ''), 'https://assets.invalid'))));
      return response?.ok ? response.text() : null;
    }, !rendered),
  };
  hosts.set(env, host);
  return host;
}
