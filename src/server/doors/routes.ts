/**
 * The Worker's `fetch`: which door answers. The forms' (each contract's `path`): POST only, a GET or HEAD
 * sent to the form's page (303), else 405; request-check.ts decides, form-answer.ts answers. The emails'
 * links (links/actions.ts, loaded on a link's first request), the owner's dead-letter endpoint (loaded when
 * asked for), the built site (the assets); every answer leaves the body read, with the security headers.
 */
import { formAtPath } from '#src/lib/forms/forms.ts';
import { type DeskNamespace, deskPacer, eraseWaiting } from '#src/server/desk/desk-client.ts';
import type { Host, HostEnv } from '#src/server/host.ts';
import { linkPurposeAt } from '#src/server/links/tokens.ts';
import type { LinkDoorOptions } from '#src/server/links/actions.ts';
import { checkedMail, mailLedgerOf, type WorkerMailEnv } from '#src/server/mail/setup.ts';
import type { DeadLetterAdminEnv } from '#src/server/queues/dead-letter-admin.ts';
import type { SubmissionQueue } from '#src/server/queues/messages.ts';
import { type AirtableEnv, siteOriginOf, reportOnce } from '#src/server/settings.ts';
import { SECURITY_HEADERS } from '#src/config/constants.ts';
import { readBody, REQUEST_BODY_TIMEOUT_MS } from './body.ts';
import { answerEnhancedPost, answerNativePost, isHiddenPath } from './form-answer.ts';
import { bindingLimiter, type RateLimitBinding } from './limiters.ts';
import { createRequestCheck, type RequestCheckOptions } from './request-check.ts';

/** The parts of Cloudflare's bindings this Worker uses (no dependency on the full typings). */
export interface WorkerEnv extends HostEnv, DeadLetterAdminEnv, WorkerMailEnv {
  ASSETS: { fetch(request: Request): Promise<Response> };
  /** The submissions' queue, drained by this Worker's one paced writer (wrangler.jsonc). */
  SUBMISSIONS?: SubmissionQueue;
  /** Cloudflare's Rate Limiting bindings (wrangler.jsonc `ratelimits`); in memory when unbound. */
  SUBMIT_LIMITER?: RateLimitBinding;
  EMAIL_LIMITER?: RateLimitBinding;
  ADMIN_LIMITER?: RateLimitBinding;
  /** The one paced writer (desk/desk.ts, wrangler.jsonc `durable_objects`). */
  AIRTABLE_DESK: DeskNamespace;
}

/** The request check's options (its `siteOrigin` is also where links lead; null: they answer 'unavailable'). */
export interface DoorsOptions extends RequestCheckOptions, LinkDoorOptions {}

/** `client.address`: the connecting address, as the host knows it (CF-Connecting-IP). */
type DoorsHandler = (request: Request, client?: { address?: string }) => Promise<Response>;

const TEXT_HEADERS = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' };
const NOT_ALLOWED = { status: 405, headers: { allow: 'GET, HEAD, POST', ...TEXT_HEADERS } };

export function createDoors(env: AirtableEnv, options: DoorsOptions): DoorsHandler {
  const warn = options.warn ?? ((message: string) => console.warn(message));
  const requestCheck = createRequestCheck({ ...options, warn });
  // A link's modules load on its first request: a sign-up never needs them.
  let links: Promise<DoorsHandler> | undefined;

  return async (request, client = {}) => {
    const { pathname } = new URL(request.url);
    if (linkPurposeAt(pathname)) {
      links ??= import('#src/server/links/actions.ts').then(({ createLinkDoor }) =>
        createLinkDoor(env, { ...options, warn }, requestCheck.clientLimiter),
      );
      return (await links)(request, client);
    }
    const form = formAtPath(pathname);
    if (!form) return new Response('Not found', { status: 404, headers: TEXT_HEADERS });
    if (request.method === 'GET' || request.method === 'HEAD')
      return new Response(null, { status: 303, headers: { location: form.page } });
    if (request.method !== 'POST') return new Response('Method not allowed', NOT_ALLOWED);
    const result = await requestCheck.submit(request, form, client.address ?? 'unknown');
    // The enhanced form's fetch asks for JSON.
    const enhanced = (request.headers.get('accept') ?? '').toLowerCase().includes('application/json');
    return enhanced ? answerEnhancedPost(result) : answerNativePost(form, result, options.templates);
  };
}

// One set of doors per isolate: its limits and per-email order hold across the isolate's requests.
let doors: { handler: DoorsHandler; env: WorkerEnv } | undefined;

function doorsFor(env: WorkerEnv, host: Host, queue: SubmissionQueue): DoorsHandler {
  if (doors?.env !== env) {
    const { mail } = checkedMail(env, host.mailer);
    const site = siteOriginOf(env.SITE_URL);
    if ('problem' in site) reportOnce(site.problem);
    doors = {
      env,
      handler: createDoors(env, {
        queue,
        siteOrigin: 'origin' in site ? site.origin : null,
        // A press writes its record via the desk's pacer as the visitor waits (decision 0013); mail is queued.
        pacer: deskPacer(env.AIRTABLE_DESK),
        mail,
        clientLimiter: env.SUBMIT_LIMITER && bindingLimiter(env.SUBMIT_LIMITER),
        emailLimiter: env.EMAIL_LIMITER && bindingLimiter(env.EMAIL_LIMITER),
        templates: host.templates,
      }),
    };
  }
  return doors.handler;
}

/**
 * For an answer that sets none: a redirect, a refusal's text or JSON loads nothing, is never framed. A page
 * without one (no `_headers`) has its own in a <meta>, which cannot say `frame-ancestors`: it gets that alone.
 */
const POLICY_FOR_AN_ANSWER =
  "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const POLICY_FOR_A_PAGE = "frame-ancestors 'none'";

/** Adds the SECURITY_HEADERS it lacks (a link's page keeps its stricter `no-referrer` and policy). */
function withSecurityHeaders(response: Response): Response {
  const isPage = response.headers.get('content-type')?.startsWith('text/html') ?? false;
  const policy = isPage ? POLICY_FOR_A_PAGE : POLICY_FOR_AN_ANSWER;
  const wanted = Object.entries({ ...SECURITY_HEADERS, 'Content-Security-Policy': policy });
  const missing = wanted.filter(([name]) => !response.headers.has(name));
  if (missing.length === 0) return response;
  // An answer from the assets (or fetch) has immutable headers: a copy takes them.
  const answer = new Response(response.body, response);
  for (const [name, value] of missing) answer.headers.set(name, value);
  return answer;
}

// Cloudflare sets it, a client cannot; `vite` and `vite preview` set it from the socket (worker-server.ts).
const connectingAddress = (request: Request) => request.headers.get('cf-connecting-ip') ?? undefined;
const startsWith = (pathname: string, prefix: string) => `${pathname}/`.startsWith(`${prefix}/`);

/** The header's promise, whatever the status: BODY_READ_TO_END_BYTES says why the body is read. */
export async function answer(request: Request, env: WorkerEnv, host: Host): Promise<Response> {
  const response = await route(request, env, host);
  if (request.body && !request.bodyUsed) await readBody(request, 0, REQUEST_BODY_TIMEOUT_MS);
  return withSecurityHeaders(response);
}

async function route(request: Request, env: WorkerEnv, host: Host): Promise<Response> {
  const { pathname } = new URL(request.url);
  const queue = env.SUBMISSIONS;
  if (formAtPath(pathname) || linkPurposeAt(pathname)) {
    if (!queue) return new Response('The SUBMISSIONS queue is not bound (wrangler.jsonc)', { status: 503 });
    // The emails' links exist only where mail is set up (its settings wrong: 'unavailable'), else not found.
    if (formAtPath(pathname) || host.mailer)
      return doorsFor(env, host, queue)(request, { address: connectingAddress(request) });
  }
  // The owner's endpoint and the dead-letter store load only when asked for (never on a sign-up).
  const admin = startsWith(pathname, '/api') ? await import('#src/server/queues/dead-letter-admin.ts') : null;
  if (admin && startsWith(pathname, admin.DEAD_LETTERS_PATH)) {
    return admin.handleDeadLetterAdmin(request, env, {
      clientAddress: connectingAddress(request) ?? 'unknown',
      limiter: env.ADMIN_LIMITER && bindingLimiter(env.ADMIN_LIMITER),
      // Beside the base and the dead letters, an erasure reaches the desk's waiting submissions, the
      // emails still queued (the ledger's erasure mark) and the notices held for a digest.
      eraseWaiting: (email) => eraseWaiting(env.AIRTABLE_DESK, email),
      eraseMail: async (email) => {
        const ledger = mailLedgerOf(env);
        const now = new Date();
        await ledger.markErased(email, now);
        const { eraseHeldNotices } = await import('#src/server/mail/team-inbox.ts');
        return { teamNotices: await eraseHeldNotices(ledger.kv, email, now) };
      },
    });
  }
  if (isHiddenPath(pathname) || startsWith(pathname, '/api')) {
    // The answer templates are the Worker's to read, not a page, however the path spells them (the assets
    // server decodes it); no other /api path exists, whatever the method: the not-found page instead.
    const notFound = await env.ASSETS.fetch(new Request(new URL('/404', request.url)));
    return new Response(notFound.body, { status: 404, headers: notFound.headers });
  }
  return env.ASSETS.fetch(request);
}
