/**
 * The one check every submission passes, enhanced or native (the same fields, the same door), trusting
 * nothing in the request:
 * 1. same site: another site's Origin, `Sec-Fetch-Site: cross-site`, or neither header: 403
 *    (isSameSite); only `application/x-www-form-urlencoded` (415);
 * 2. per client: SUBMISSIONS_PER_CLIENT_PER_MINUTE per address, IPv6 per /64 (429, Retry-After),
 *    before the body is read, so a flood never reaches the pacer;
 * 3. bounded: over REQUEST_MAX_BODY_BYTES (413) or REQUEST_BODY_TIMEOUT_MS (408), refused, not kept;
 * 4. the bot trap (honeypot); 5. the contract's fields (parsePosted): only its fields, nothing
 *    blanked, one canonical email, only offered options;
 * 6. per email: SUBMISSIONS_PER_EMAIL_PER_MINUTE writes per inbox (inboxKey); 7. queued for the writer.
 * An accepted answer never depends on what is stored: the same status, shape and receipt (fresh id,
 * acceptance time) for a stored and an unknown email.
 */
import { isRefusal, parsePosted, type Refusal, submissionKey } from '#src/lib/forms/submission.ts';
import type { FormContract } from '#src/lib/forms/contract.ts';
import { inboxKey } from '#src/server/mail/ledger.ts';
import { readBody, REQUEST_BODY_TIMEOUT_MS, REQUEST_MAX_BODY_BYTES } from './body.ts';
import {
  createWindowLimiter,
  clientLimitKey,
  type Limiter,
  SUBMISSIONS_PER_CLIENT_PER_MINUTE,
  SUBMISSIONS_PER_EMAIL_PER_MINUTE,
} from './limiters.ts';
import type { SubmissionQueue } from '#src/server/queues/messages.ts';

export type CheckRefusal = Refusal & { outcome: 'refused'; retryAfterSeconds?: number };

/** With the posted `form`, put back on a native answer page. */
export type CheckResult =
  /** Trapped: the bot trap was filled, answered like a success, nothing stored. */
  ({ outcome: 'accepted' | 'trapped'; receipt: Receipt } | CheckRefusal) & { form?: URLSearchParams };

/** What the visitor is told of an accepted submission: the same for every email. */
export type Receipt = { id: string; createdTime: string };

export interface RequestCheckOptions {
  /** Accepted submissions go here, for the one paced writer (desk/desk.ts). */
  queue: SubmissionQueue;
  /** Where operational warnings go (never with a token or an email in them). */
  warn?: (message: string) => void;
  /** SITE_URL's origin (siteOriginOf); null while unset: every post refused as a failure (503), values kept. */
  siteOrigin: string | null;
  now?: () => number;
  /** Per-client and per-email limits (the Worker passes its Rate Limiting bindings). */
  clientLimiter?: Limiter;
  emailLimiter?: Limiter;
  bodyTimeoutMs?: number;
}

const refused = (status: number, type: string, message: string, retryAfterSeconds?: number) =>
  ({ outcome: 'refused', status, type, message, retryAfterSeconds }) satisfies CheckRefusal;

/**
 * True unless the request comes, or may come, from another site: nothing else tells the site's own post
 * from another site's form posting to the same door. Every current browser sends Origin with a POST (a
 * fetch too); one with neither Origin nor Sec-Fetch-Site is refused as cross-site (OWASP's CSRF advice).
 */
function isSameSite(request: Request, siteOrigin: string): boolean {
  const fetchSite = request.headers.get('sec-fetch-site');
  if (fetchSite === 'cross-site') return false;
  const origin = request.headers.get('origin');
  return origin === null ? fetchSite !== null : origin === siteOrigin;
}

const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

/** A queued submission's receipt id, shaped like Airtable's ('rec' and 14 letters or digits). */
function randomReceiptId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(14));
  return `rec${Array.from(bytes, (byte) => (byte % 36).toString(36)).join('')}`;
}

export function createRequestCheck(options: RequestCheckOptions) {
  const { now = Date.now, bodyTimeoutMs = REQUEST_BODY_TIMEOUT_MS } = options;
  const inMemory = (limit: number) => createWindowLimiter({ limit, now });
  const clientLimiter = options.clientLimiter ?? inMemory(SUBMISSIONS_PER_CLIENT_PER_MINUTE);
  const emailLimiter = options.emailLimiter ?? inMemory(SUBMISSIONS_PER_EMAIL_PER_MINUTE);
  /** A refusal with what the visitor typed, for a native post's answer (bounded like any body). */
  const withTyped = async (request: Request, ...why: Parameters<typeof refused>): Promise<CheckResult> => {
    const refusal = refused(...why);
    const typed = await readBody(request, REQUEST_MAX_BODY_BYTES, bodyTimeoutMs);
    return 'text' in typed ? { ...refusal, form: new URLSearchParams(typed.text) } : refusal;
  };

  /** Steps 4 to 7, on the body as read. */
  async function accept(contract: FormContract, form: URLSearchParams, origin: string): Promise<CheckResult> {
    const acceptedAt = new Date(now());
    const receipt: Receipt = { id: randomReceiptId(), createdTime: acceptedAt.toISOString() };
    if ((form.get(contract.honeypot) ?? '').trim() !== '') return { outcome: 'trapped', receipt };
    const parsed = parsePosted(contract, form, acceptedAt);
    if (isRefusal(parsed)) return { outcome: 'refused', ...parsed };
    const email = await emailLimiter.take(submissionKey(parsed.table, inboxKey(parsed.email)));
    if (!email.ok) {
      const message = 'This address was sent several times just now; try again shortly';
      return refused(429, 'TOO_MANY_REQUESTS', message, email.retryAfterSeconds);
    }
    try {
      await options.queue.send({ ...parsed, origin }, { contentType: 'json' });
    } catch (error) {
      (options.warn ?? console.warn)(
        `Airtable relay: the queue refused a submission (${error instanceof Error ? error.message : 'unknown'})`,
      );
      return refused(503, 'SERVICE_UNAVAILABLE', 'Could not accept the submission; try again');
    }
    return { outcome: 'accepted', receipt };
  }

  return {
    clientLimiter,
    /** One post to `contract`'s door, from `clientAddress` (the connecting address as the host knows it). */
    async submit(request: Request, contract: FormContract, clientAddress: string): Promise<CheckResult> {
      const { siteOrigin } = options;
      if (siteOrigin === null)
        return withTyped(request, 503, 'SERVICE_UNAVAILABLE', 'The site is not set up to take submissions');
      if (!isSameSite(request, siteOrigin))
        return refused(403, 'CROSS_SITE_REQUEST', 'Submissions are only accepted from this site');
      const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
      if (type !== FORM_CONTENT_TYPE)
        return refused(415, 'UNSUPPORTED_MEDIA_TYPE', `Send ${FORM_CONTENT_TYPE}`);

      const client = await clientLimiter.take(clientLimitKey(clientAddress));
      if (!client.ok) {
        const message = 'Too many submissions from this address; try again shortly';
        return withTyped(request, 429, 'TOO_MANY_REQUESTS', message, client.retryAfterSeconds);
      }

      const body = await readBody(request, REQUEST_MAX_BODY_BYTES, bodyTimeoutMs);
      if ('problem' in body)
        return body.problem === 'too-large'
          ? refused(413, 'REQUEST_TOO_LARGE', `Request bodies are limited to ${REQUEST_MAX_BODY_BYTES} bytes`)
          : refused(408, 'REQUEST_TIMEOUT', 'The request body took too long to arrive');
      const form = new URLSearchParams(body.text);
      return { ...(await accept(contract, form, siteOrigin)), form };
    },
  };
}
