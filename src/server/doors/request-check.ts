/**
 * The one check every submission passes, enhanced or posted natively (the same urlencoded fields to
 * the same door). It trusts nothing in the request:
 * 1. same site: an Origin of another site, `Sec-Fetch-Site: cross-site`, or neither header: 403
 *    (isSameSite); only `application/x-www-form-urlencoded` (415);
 * 2. per client: SUBMISSIONS_PER_CLIENT_PER_MINUTE per address, IPv6 per /64 (429, Retry-After),
 *    counted before the body is read, so a flood never reaches the pacer;
 * 3. bounded: over REQUEST_MAX_BODY_BYTES (413) or REQUEST_BODY_TIMEOUT_MS (408), refused, not kept;
 * 4. the bot trap (honeypot); 5. the contract's fields (parsePosted): only its fields, nothing
 *    blanked, one canonical email, only offered options;
 * 6. per email: SUBMISSIONS_PER_EMAIL_PER_MINUTE writes per inbox (inboxKey); 7. queued for the writer.
 * An accepted submission's answer never depends on what is stored: same status, shape and receipt
 * (fresh id, acceptance time) for a stored and an unknown email.
 */
import {
  isRefusal,
  parsePosted,
  type Refusal,
  type Submission,
  submissionKey,
} from '#src/lib/forms/submission.ts';
import type { FormContract } from '#src/lib/forms/contract.ts';
import { inboxKey } from '#src/server/mail/ledger.ts';
import ipaddr from 'ipaddr.js';

/** Largest body the check reads (a submission is under 4 KB), and longest it may take to arrive. */
export const REQUEST_MAX_BODY_BYTES = 16 * 1024;
export const REQUEST_BODY_TIMEOUT_MS = 8_000;

export interface CheckRefusal extends Refusal {
  outcome: 'refused';
  retryAfterSeconds?: number;
}

/** With what came in (`form`), for the door's answer: the posted form, put back on a native answer page. */
export type CheckResult = (
  | { outcome: 'accepted'; submission: Submission; receipt: Receipt }
  /** The bot trap was filled: answered like a success, nothing stored. */
  | { outcome: 'trapped'; receipt: Receipt }
  | CheckRefusal
) & { form?: URLSearchParams };

/** What the visitor is told of an accepted submission: the same for every email. */
export interface Receipt {
  id: string;
  createdTime: string;
}

export interface RequestCheckOptions {
  /** Accepted submissions go here, for the one paced writer (airtable-desk.ts). */
  queue: SubmissionQueue;
  /** Where operational warnings go (never with a token or an email in them). */
  warn?: (message: string) => void;
  /**
   * The site's configured origin (SITE_URL): the only Origin a post is taken from, and the one the links in
   * its emails lead to; never the request's Host, request line or a forwarding header. Null while the
   * deploy has none: every post is then refused as a failure (503), its values kept.
   */
  siteOrigin: string | null;
  now?: () => number;
  /** Per-client and per-email limits (the Worker passes its Rate Limiting bindings). */
  clientLimiter?: Limiter;
  emailLimiter?: Limiter;
  bodyTimeoutMs?: number;
}

const refused = (
  status: number,
  type: string,
  message: string,
  extra: Partial<CheckRefusal> = {},
): CheckRefusal => ({ outcome: 'refused', status, type, message, ...extra });
const tooMany = (message: string, retryAfterSeconds: number) =>
  refused(429, 'TOO_MANY_REQUESTS', message, { retryAfterSeconds });

/**
 * True unless the request comes, or may come, from another site. A form post carries nothing
 * else to tell the site's own post from another site's form posting to the same door, so it must
 * show where it comes from: every current browser sends Origin with a POST (a fetch too), and one
 * with neither Origin nor Sec-Fetch-Site is refused like a cross-site one (OWASP's advice against CSRF).
 */
function isSameSite(request: Request, siteOrigin: string): boolean {
  const fetchSite = request.headers.get('sec-fetch-site');
  if (fetchSite === 'cross-site') return false;
  const origin = request.headers.get('origin');
  if (origin === null) return fetchSite !== null;
  return origin === siteOrigin;
}

const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

export type BodyRead = { text: string } | { problem: 'too-large' | 'too-slow' };

/**
 * How much of a body is read to its end, whatever is kept of it: workerd keeps a connection whose
 * upload was left unread or cancelled open for the next request, which then fails (workerd issue
 * 1741). Under `vite`, `vite preview` and `wrangler dev` every visitor's request shares that
 * connection, so one refused post would turn an unrelated visitor's next request into a 500.
 * Only a body larger than this (no form sends one) is cut off unread.
 */
export const BODY_READ_TO_END_BYTES = 64 * 1024;

/** Every door's read; a body over `limit` is still read to its end (BODY_READ_TO_END_BYTES), discarded. */
export async function readBody(request: Request, limit: number, timeoutMs: number): Promise<BodyRead> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > BODY_READ_TO_END_BYTES) return { problem: 'too-large' };
  if (!request.body) return { text: '' };
  const reader = request.body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let size = 0;
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), timedOut]);
      if (next === 'timeout') {
        void reader.cancel().catch(() => undefined);
        return { problem: 'too-slow' };
      }
      if (next.done) break;
      size += next.value.byteLength;
      if (size > BODY_READ_TO_END_BYTES) {
        void reader.cancel().catch(() => undefined);
        return { problem: 'too-large' };
      }
      if (size <= limit) chunks.push(next.value);
    }
  } finally {
    clearTimeout(timer);
  }
  return size > limit ? { problem: 'too-large' } : { text: await new Blob(chunks).text() };
}

/** A queued submission's receipt id, shaped like Airtable's ('rec' and 14 letters or digits). */
function randomReceiptId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(14));
  return `rec${Array.from(bytes, (byte) => (byte % 36).toString(36)).join('')}`;
}

export function createRequestCheck(options: RequestCheckOptions) {
  const now = options.now ?? Date.now;
  const clientLimiter =
    options.clientLimiter ?? createWindowLimiter({ limit: SUBMISSIONS_PER_CLIENT_PER_MINUTE, now });
  const emailLimiter =
    options.emailLimiter ?? createWindowLimiter({ limit: SUBMISSIONS_PER_EMAIL_PER_MINUTE, now });
  const bodyTimeoutMs = options.bodyTimeoutMs ?? REQUEST_BODY_TIMEOUT_MS;
  /** A refusal with what the visitor typed, for a native post's answer (bounded like any body). */
  const withTyped = async (request: Request, refusal: CheckRefusal): Promise<CheckResult> => {
    const typed = await readBody(request, REQUEST_MAX_BODY_BYTES, bodyTimeoutMs);
    return 'text' in typed ? { ...refusal, form: new URLSearchParams(typed.text) } : refusal;
  };

  return {
    clientLimiter,
    /** One post to `contract`'s door, from `clientAddress` (the connecting address as the host knows it). */
    async submit(
      request: Request,
      { form: contract, clientAddress }: { form: FormContract; clientAddress: string },
    ): Promise<CheckResult> {
      const { siteOrigin } = options;
      if (siteOrigin === null)
        return withTyped(
          request,
          refused(503, 'SERVICE_UNAVAILABLE', 'The site is not set up to take submissions'),
        );
      if (!isSameSite(request, siteOrigin))
        return refused(403, 'CROSS_SITE_REQUEST', 'Submissions are only accepted from this site');
      const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
      if (type !== FORM_CONTENT_TYPE)
        return refused(415, 'UNSUPPORTED_MEDIA_TYPE', `Send ${FORM_CONTENT_TYPE}`);

      const client = await clientLimiter.take(clientLimitKey(clientAddress));
      if (!client.ok)
        return withTyped(
          request,
          tooMany('Too many submissions from this address; try again shortly', client.retryAfterSeconds),
        );

      const body = await readBody(request, REQUEST_MAX_BODY_BYTES, bodyTimeoutMs);
      if ('problem' in body) {
        return body.problem === 'too-large'
          ? refused(413, 'REQUEST_TOO_LARGE', `Request bodies are limited to ${REQUEST_MAX_BODY_BYTES} bytes`)
          : refused(408, 'REQUEST_TIMEOUT', 'The request body took too long to arrive');
      }

      const acceptedAt = new Date(now());
      const receipt: Receipt = { id: randomReceiptId(), createdTime: acceptedAt.toISOString() };
      const form = new URLSearchParams(body.text);
      if ((form.get(contract.honeypot) ?? '').trim() !== '') return { outcome: 'trapped', receipt, form };
      const parsed: Submission | Refusal = parsePosted(contract, form, acceptedAt);
      if (isRefusal(parsed))
        return {
          ...refused(parsed.status, parsed.type, parsed.message, parsed.field ? { field: parsed.field } : {}),
          form,
        };

      const email = await emailLimiter.take(submissionKey(parsed.table, inboxKey(parsed.email)));
      if (!email.ok)
        return {
          ...tooMany(
            'This address was sent several times just now; try again shortly',
            email.retryAfterSeconds,
          ),
          form,
        };

      try {
        await options.queue.send({ ...parsed, origin: siteOrigin });
      } catch (error) {
        (options.warn ?? console.warn)(
          `Airtable relay: the queue refused a submission (${error instanceof Error ? error.message : 'unknown'})`,
        );
        return { ...refused(503, 'SERVICE_UNAVAILABLE', 'Could not accept the submission; try again'), form };
      }
      return { outcome: 'accepted', submission: parsed, receipt, form };
    },
  };
}

/** One key per submission: its emails keep it, so a retried send is the same email. */
export const submissionMailKey = (submission: Submission) =>
  `${submission.table}:${submission.email}:${submission.acceptedAt}`;

/** A submission as queued: with the site's origin the visitor reached, for its emails' links. */
export interface QueuedSubmission extends Submission {
  readonly origin?: string;
}

/** The one paced writer's queue (Cloudflare Queues or its local stand-in); the door answers once sent. */
export interface SubmissionQueue {
  send(submission: QueuedSubmission): Promise<void>;
}

// The limits of steps 2 and 6 (and of link presses and the dead-letter admin): every person of a
// rush gets through, a flooding address gets a trickle. Counted by Cloudflare's Rate Limiting
// binding (wrangler.jsonc `ratelimits`; a local stand-in under `vite`) on the connecting address
// (CF-Connecting-IP); without a binding (unit tests), by an in-memory sliding window.

/**
 * Submissions one client address may make per minute: a school office or a family sends a handful;
 * ten leaves room for a staff room, while a flooding address gets 10 of Airtable's 300 writes a minute.
 */
export const SUBMISSIONS_PER_CLIENT_PER_MINUTE = 10;
/** Writes of one email address per minute: a corrected choice or two, not a rewrite loop. */
const SUBMISSIONS_PER_EMAIL_PER_MINUTE = 3;
/**
 * Dead-letter admin requests one address may make per minute: the owner makes one or two, a
 * guesser of a 32-character random token gets nowhere at 30 (each wrong one also waits a second).
 */
export const ADMIN_ATTEMPTS_PER_MINUTE = 30;
const LIMIT_WINDOW_MS = 60_000;
/** Keys an in-memory limiter remembers at most: a botnet cannot grow it without bound. */
const MAX_TRACKED_KEYS = 50_000;

export type LimitAnswer = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface Limiter {
  take(key: string): Promise<LimitAnswer>;
}

export interface RateLimitBinding {
  limit(options: { key: string }): Promise<{ success: boolean }>;
}

/** A sliding window in memory: at most `limit` attempts per key in any LIMIT_WINDOW_MS. */
export function createWindowLimiter({
  limit,
  now = Date.now,
}: {
  limit: number;
  now?: () => number;
}): Limiter {
  const windowMs = LIMIT_WINDOW_MS;
  const attempts = new Map<string, number[]>();
  // A key is put last whenever an attempt counts (Map keeps insertion order), so the keys whose
  // last attempt is oldest come first: forget those out of the window, then, still full, the oldest.
  const prune = (at: number) => {
    for (const [key, times] of attempts) {
      if (attempts.size < MAX_TRACKED_KEYS && (times.at(-1) ?? 0) > at - windowMs) break;
      attempts.delete(key);
    }
  };
  return {
    async take(key) {
      const at = now();
      const recent = (attempts.get(key) ?? []).filter((time) => time > at - windowMs);
      if (recent.length >= limit) {
        attempts.set(key, recent);
        const oldest = recent[0] ?? at;
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - at) / 1000)) };
      }
      recent.push(at);
      attempts.delete(key);
      if (attempts.size >= MAX_TRACKED_KEYS) prune(at);
      attempts.set(key, recent);
      return { ok: true };
    },
  };
}

/** The Worker's binding as a Limiter; its period is the binding's (60 s in wrangler.jsonc). */
export function bindingLimiter(binding: RateLimitBinding): Limiter {
  return {
    async take(key) {
      const { success } = await binding.limit({ key });
      return success ? { ok: true } : { ok: false, retryAfterSeconds: LIMIT_WINDOW_MS / 1000 };
    },
  };
}

/**
 * The key a per-client limit counts under: an IPv4 address as it is; an IPv6 address as its /64,
 * which one subscriber, phone or server is routed whole ('2001:db8:0:1::/64'); an IPv4-mapped one
 * as its IPv4 address; brackets and a zone id dropped; anything else ('unknown') lower-cased.
 */
export function clientLimitKey(address: string): string {
  const bare = address
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/%.*$/, '');
  if (!bare.includes(':') || !ipaddr.IPv6.isValid(bare)) return bare;
  const ip = ipaddr.IPv6.parse(bare);
  if (ip.isIPv4MappedAddress()) return ip.toIPv4Address().toString();
  return `${ip.parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}
