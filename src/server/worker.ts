/**
 * The site's one server: a Cloudflare Worker run by `vite`/`vite preview` (workerd, Cloudflare's Vite
 * plugin), `wrangler dev` and Cloudflare. It serves the built site (clean URLs, 404.html as 404,
 * _headers) and the forms' doors (form-door.ts), which queue each valid submission and answer at once;
 * its queue consumer hands them to the one paced writer (airtable-desk.ts, a Durable Object), the only
 * writer to Airtable. With mail (EMAIL binding, or MAIL_OUTBOX_URL
 * locally; docs/consent.md, decision 0013), consent applies, emails go via MAIL_JOBS, links are answered.
 */
import { formAtPath } from '#src/lib/forms/forms.ts';
import {
  readBody,
  REQUEST_BODY_TIMEOUT_MS,
  type QueuedSubmission,
  type SubmissionQueue,
  bindingLimiter,
  type RateLimitBinding,
} from './doors/request-check.ts';
import { createDoors, type DoorsHandler, isHiddenPath, pageTemplates } from './doors/form-door.ts';
import { isSubmission } from '#src/lib/forms/submission.ts';
import type { DeadLetterStore, QueueBatch } from './queues/dead-letters.ts';
import { AIRTABLE_RATE_LIMIT_PENALTY_MS, type Pacer, retryDelaySeconds } from './airtable/pacer.ts';
import type { DeadLetterAdminEnv } from './queues/dead-letter-admin.ts';
import type { DeskErasure } from './desk/erasure.ts';
import { isEmailLinkPath } from './links/tokens.ts';
import { MAIL_PROBLEM_RETRY_SECONDS, mailLedgerOf, type WorkerMailEnv, workerMail } from './mail/plan.ts';
import { sendMailJobs } from './mail/message.ts';
import { isMailJob } from './mail/message.ts';
import { siteOriginOf, type WorkerSettingsEnv } from './settings.ts';
import { SECURITY_HEADERS } from '#src/config/constants.ts';

/** The parts of Cloudflare's bindings this Worker uses (no dependency on the full typings). */
export interface WorkerEnv extends WorkerSettingsEnv, DeadLetterAdminEnv, WorkerMailEnv {
  ASSETS: { fetch(request: Request): Promise<Response> };
  /** The submissions' queue, drained by this Worker's one paced writer (wrangler.jsonc). */
  SUBMISSIONS?: { send(body: QueuedSubmission, options?: { contentType?: 'json' }): Promise<void> };
  /** Cloudflare's Rate Limiting bindings (wrangler.jsonc `ratelimits`); in memory when unbound. */
  SUBMIT_LIMITER?: RateLimitBinding;
  EMAIL_LIMITER?: RateLimitBinding;
  ADMIN_LIMITER?: RateLimitBinding;
  /** The one paced writer (airtable-desk.ts, wrangler.jsonc `durable_objects`). */
  AIRTABLE_DESK: DeskNamespace;
  /** `vite` only (worker-server.ts): page templates rendered from the sources; read on every use. */
  DEV_TEMPLATES_URL?: string;
}

function queueOf(env: WorkerEnv): SubmissionQueue | undefined {
  const queue = env.SUBMISSIONS;
  return queue ? { send: (submission) => queue.send(submission, { contentType: 'json' }) } : undefined;
}

/** The one paced writer's namespace (airtable-desk.ts), as this Worker reaches it: POST /accept, /pace, /erase. */
interface DeskNamespace {
  idFromName(name: string): unknown;
  get(id: unknown): { fetch(input: string, init?: RequestInit): Promise<Response> };
}

/** The name of the desk's one instance: every Worker reaches the same object. */
const DESK_NAME = 'airtable';
const deskOf = (namespace: DeskNamespace) => namespace.get(namespace.idFromName(DESK_NAME));

/** POSTs `body` to the desk's `path`; its answer, or a throw when it did not succeed. */
async function askDesk(namespace: DeskNamespace, path: string, body: unknown): Promise<Response> {
  const answer = await deskOf(namespace).fetch(`https://desk${path}`, {
    method: 'POST',
    body: JSON.stringify(body),
  });
  if (!answer.ok) throw new Error(`The Airtable desk answered ${answer.status}`);
  return answer;
}

/** Hands queue messages to the desk; resolves once it has kept them (then they may be acked). */
async function handToDesk(
  namespace: DeskNamespace,
  messages: readonly { id: string; body: unknown }[],
): Promise<void> {
  await askDesk(
    namespace,
    '/accept',
    messages.map(({ id, body }) => ({ id, body })),
  );
}

/** Erasure's reach into the desk (desk-erasure.ts): the email's waiting submissions dropped. */
async function eraseFromDesk(namespace: DeskNamespace, email: string) {
  const answer = await askDesk(namespace, '/erase', { email });
  return (await answer.json()) as DeskErasure;
}

/**
 * The desk's pacer, for an Airtable client outside it (a pressed link, the retention job): a slot
 * is asked of the desk, the request then goes from the caller, and a 429 it meets shuts the desk's pacer.
 */
export function deskPacer(namespace: DeskNamespace): Pacer {
  let closedUntil = 0;
  return {
    async acquire(withinMs = Number.POSITIVE_INFINITY) {
      try {
        const answer = await deskOf(namespace).fetch(`https://desk/pace?within=${withinMs}`, {
          method: 'POST',
        });
        const { ok, closedFor } = (await answer.json()) as { ok: boolean; closedFor: number };
        closedUntil = Date.now() + closedFor;
        return ok;
      } catch {
        return false;
      }
    },
    penalise() {
      closedUntil = Date.now() + AIRTABLE_RATE_LIMIT_PENALTY_MS;
      void deskOf(namespace)
        .fetch('https://desk/penalise', { method: 'POST' })
        .catch(() => undefined);
    },
    closedFor: () => Math.max(0, closedUntil - Date.now()),
  };
}

// One set of doors per isolate: its limits and per-email order hold across the isolate's requests.
let doors: { handler: DoorsHandler; env: WorkerEnv } | undefined;

// A problem with the settings is logged once per isolate, not once per request.
const reported = new Set<string>();
function reportOnce(problem: string) {
  if (reported.has(problem)) return;
  reported.add(problem);
  console.error(`The Worker is set up wrongly, so it stores and sends nothing until it is fixed: ${problem}`);
}
function mailOf(env: WorkerEnv) {
  const found = workerMail(env);
  if (found.problem) reportOnce(found.problem);
  return found;
}

function doorsFor(env: WorkerEnv, queue: SubmissionQueue): DoorsHandler {
  if (doors?.env !== env) {
    const { mail } = mailOf(env);
    const site = siteOriginOf(env.SITE_URL);
    if ('problem' in site) reportOnce(site.problem);
    doors = {
      env,
      handler: createDoors(env, {
        queue,
        siteOrigin: 'origin' in site ? site.origin : null,
        // Pressing an email link writes its one record through the desk's pacer, while the
        // visitor waits for the page saying it is done (decision 0013); its mail is queued.
        pacer: deskPacer(env.AIRTABLE_DESK),
        mail,
        clientLimiter: env.SUBMIT_LIMITER && bindingLimiter(env.SUBMIT_LIMITER),
        emailLimiter: env.EMAIL_LIMITER && bindingLimiter(env.EMAIL_LIMITER),
        // Read from the assets once per isolate (on `vite`, on every use).
        templates: pageTemplates((path) => templateText(env, path), { cache: !env.DEV_TEMPLATES_URL }),
      }),
    };
  }
  return doors.handler;
}

/** A page template from the build's assets (clean URLs: '/x.html' is at '/x'), or on `vite` rendered. */
async function templateText(env: WorkerEnv, path: string): Promise<string | null> {
  const response = env.DEV_TEMPLATES_URL
    ? await fetch(new URL(path, env.DEV_TEMPLATES_URL))
    : await env.ASSETS.fetch(new Request(new URL(path.replace(/\.html$/, ''), 'https://assets.invalid')));
  return response.ok ? response.text() : null;
}

// Cloudflare sets it, a client cannot; `vite` and `vite preview` set it from the socket (worker-server.ts).
const connectingAddress = (request: Request) => request.headers.get('cf-connecting-ip') ?? undefined;
const startsWith = (pathname: string, prefix: string) =>
  pathname === prefix || pathname.startsWith(`${prefix}/`);

/**
 * The policy of an answer that sets none: a redirect or a refusal's text or JSON loads nothing and
 * is never framed. An HTML page without one (a page the host serves without `_headers`) carries
 * its own in a <meta>, which cannot say `frame-ancestors`: it gets only that.
 */
const POLICY_FOR_AN_ANSWER =
  "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const POLICY_FOR_A_PAGE = "frame-ancestors 'none'";

/** Adds the SECURITY_HEADERS it lacks (a link's page keeps its stricter `no-referrer` and policy). */
export function withSecurityHeaders(response: Response): Response {
  const isPage = response.headers.get('content-type')?.startsWith('text/html') ?? false;
  const wanted: [string, string][] = [
    ...Object.entries(SECURITY_HEADERS),
    ['Content-Security-Policy', isPage ? POLICY_FOR_A_PAGE : POLICY_FOR_AN_ANSWER],
  ];
  const missing = wanted.filter(([name]) => !response.headers.has(name));
  if (missing.length === 0) return response;
  // An answer from the assets (or fetch) has immutable headers: a copy takes them.
  const answer = new Response(response.body, response);
  for (const [name, value] of missing) answer.headers.set(name, value);
  return answer;
}

/**
 * Every answer leaves the request's body read (BODY_READ_TO_END_BYTES says why) and carries the
 * security headers, whatever its status (withSecurityHeaders).
 */
async function answerReadingTheBody(request: Request, env: WorkerEnv): Promise<Response> {
  const response = await route(request, env);
  if (request.body && !request.bodyUsed) await readBody(request, 0, REQUEST_BODY_TIMEOUT_MS);
  return withSecurityHeaders(response);
}

async function route(request: Request, env: WorkerEnv): Promise<Response> {
  const { pathname } = new URL(request.url);
  const queue = queueOf(env);
  if (formAtPath(pathname) || isEmailLinkPath(pathname)) {
    if (!queue) return new Response('The SUBMISSIONS queue is not bound (wrangler.jsonc)', { status: 503 });
    // The emails' links exist only where mail is set up (with its settings wrong, they answer
    // 'unavailable'); without it, the not-found page below.
    if (formAtPath(pathname) || env.EMAIL || env.MAIL_OUTBOX_URL)
      return doorsFor(env, queue)(request, { address: connectingAddress(request) });
  }
  // The owner's endpoint and the dead-letter store load only when asked for (never on a sign-up).
  const admin = startsWith(pathname, '/api') ? await import('./queues/dead-letter-admin.ts') : null;
  if (admin && startsWith(pathname, admin.DEAD_LETTERS_PATH)) {
    if (!queue) return new Response('Not found', { status: 404 });
    const jobs = env.MAIL_JOBS;
    return admin.handleDeadLetterAdmin(request, env, (submission) => queue.send(submission), {
      clientAddress: connectingAddress(request) ?? 'unknown',
      limiter: env.ADMIN_LIMITER && bindingLimiter(env.ADMIN_LIMITER),
      ...(jobs ? { requeueMail: (job) => jobs.send(job, { contentType: 'json' }) } : {}),
      eraseWaiting: (email) => eraseFromDesk(env.AIRTABLE_DESK, email),
      eraseMail: async (email) => {
        const ledger = mailLedgerOf(env);
        const now = new Date();
        await ledger.markErased(email, now);
        return {
          teamNotices: await (await import('./mail/team-inbox.ts')).eraseHeldNotices(ledger.kv, email, now),
        };
      },
    });
  }
  if (isHiddenPath(pathname) || startsWith(pathname, '/api')) {
    // The raw answer templates are the Worker's to read, not a page, however the path spells them (the assets
    // server decodes it); no other /api path exists, whatever the method: the not-found page instead.
    const notFound = await env.ASSETS.fetch(new Request(new URL('/404', request.url)));
    return new Response(notFound.body, { status: 404, headers: notFound.headers });
  }
  return env.ASSETS.fetch(request);
}

/** A dead-letter queue's messages, whose retries ran out: kept for the owner to list and replay. */
async function keepExhausted(batch: QueueBatch, store: DeadLetterStore | undefined): Promise<void> {
  const { keepDeadLetter } = await import('./queues/dead-letters.ts');
  for (const message of batch.messages) {
    const { body } = message;
    const letter = isMailJob(body)
      ? { mail: body }
      : isSubmission(body)
        ? { submission: body }
        : { unreadable: body };
    if (store) {
      await keepDeadLetter(store, {
        ...letter,
        reason: 'retries exhausted',
        failedAt: new Date().toISOString(),
      });
      const what = 'mail' in letter ? 'Mailer: an email' : 'Airtable writer: a queued message';
      console.log(`${what} ran out of retries; kept as a dead letter`);
    }
    message.ack();
  }
}

export { AirtableDesk } from './desk/desk.ts';

export default {
  fetch: answerReadingTheBody,

  /** Both queues' consumer; a dead-letter queue's messages are kept for the owner. */
  async queue(batch: QueueBatch, env: WorkerEnv): Promise<void> {
    // wrangler.jsonc names each dead-letter queue after its queue plus '-dead'.
    if (batch.queue.endsWith('-dead')) return keepExhausted(batch, env.DEAD_LETTERS);
    const { mail, problem } = mailOf(env);
    if (problem) {
      // Storing without consent would rewrite records on a stranger's word: every message waits
      // (then goes to the dead letters) until the mail settings are fixed.
      for (const message of batch.messages) message.retry({ delaySeconds: MAIL_PROBLEM_RETRY_SECONDS });
      return;
    }
    const log = (line: string) => console.log(line);
    const jobs = batch.messages.flatMap((message) =>
      isMailJob(message.body) ? [{ message, job: message.body }] : [],
    );
    if (jobs.length > 0 && mail) {
      const sent = await sendMailJobs(jobs, { ...mail, log });
      log(
        `Mailer: ${jobs.length} emails, ${sent.sent} sent, ${sent.alreadySent} already sent, ` +
          `${sent.erased} erased, ${sent.retried} retried, ${sent.deadLettered} dead-lettered`,
      );
    } else if (jobs.length > 0) {
      // Mail is off (EMAIL unbound): the jobs wait for it, then go to dead letters.
      for (const { message } of jobs)
        message.retry({ delaySeconds: retryDelaySeconds(message.attempts, false) });
      log(`Mailer: ${jobs.length} emails wait: mail is not set up on this Worker`);
    }
    const submissions = batch.messages.filter((message) => !isMailJob(message.body));
    if (submissions.length === 0) return;
    // Kept by the one paced writer, which acks them here once they are in its storage.
    try {
      await handToDesk(env.AIRTABLE_DESK, submissions);
      for (const message of submissions) message.ack();
    } catch (error) {
      log(`Airtable writer: ${submissions.length} submissions not handed over (${String(error)}); retried`);
      for (const message of submissions)
        message.retry({ delaySeconds: retryDelaySeconds(message.attempts, false) });
    }
  },

  /**
   * The Cron Triggers (wrangler.jsonc `triggers.crons`), told apart by `controller.cron`: hourly
   * (TEAM_DIGEST_CRON), the schools team's digests of the hours that ended (team-inbox.ts), at the trigger's
   * scheduled time; any other, the privacy policy's retention (retention-job.ts), through the same pacer as
   * the queue's writer, which logs counts, never emails. Under `wrangler dev --test-scheduled`, GET
   * /__scheduled?cron=…&time=… fires one (run_worker_first lists the path).
   */
  async scheduled(controller: { cron: string; scheduledTime: number }, env: WorkerEnv): Promise<void> {
    const teamInbox = await import('./mail/team-inbox.ts');
    if (controller.cron !== teamInbox.TEAM_DIGEST_CRON)
      return (await import('./privacy/retention-job.ts')).runRetentionJob(env, {
        pacer: deskPacer(env.AIRTABLE_DESK),
      });
    const { mail } = mailOf(env);
    if (mail) await teamInbox.queueTeamDigests(mail, new Date(controller.scheduledTime));
  },
};
