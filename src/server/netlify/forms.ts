/**
 * The forms' doors as a Netlify Function (web-standard signature, Functions v2), at each form's
 * path on the site's own origin. Synchronous mode: each submission is upserted while the visitor
 * waits, with this instance's pacer; see docs/rush.md for what that means under a rush.
 *
 * Mail: Netlify may freeze or end the function once it has answered, so the emails a write
 * causes are not left running on their own. With `context.waitUntil` (Netlify's Functions
 * context) the function answers at once and Netlify keeps it alive until they are sent; a runtime
 * without it gets its answer once they are (bounded by MAIL_AFTER_WRITE_BOUND_MS). Either way
 * the answer is the same, and a failed send is logged, never retried into a second record.
 */
import { FORM_LIST } from '#src/lib/forms/forms.ts';
import { clientAddress, trustedProxies } from '#src/server/client-limits.ts';
import { createDoors, type DoorsHandler } from '#src/server/doors.ts';
import { formTemplatesFrom } from '#src/server/form-door.ts';
import { EMAIL_LINK_PATHS } from '#src/server/mail/emails.ts';
import { nodeMailService } from '#src/server/mail/node-mail.ts';

/** Netlify's Node runtime; the app's tsconfig has no Node typings. */
declare const process: { env: Record<string, string | undefined> };

// One server per warm instance, so its pacer and per-email order span its requests.
let doors: DoorsHandler | undefined;

/**
 * The parts of Netlify's function context used here: the client's address, as Netlify saw it,
 * and `waitUntil`, which keeps the function alive for a promise after it has answered.
 */
export interface NetlifyContext {
  ip?: string;
  waitUntil?: (promise: Promise<unknown>) => void;
}

export default async function forms(request: Request, context?: NetlifyContext): Promise<Response> {
  // The answer templates are static files of this deploy, fetched once from its own CDN.
  const origin = new URL(request.url).origin;
  doors ??= createDoors(
    {
      AIRTABLE_API_KEY: process.env.AIRTABLE_API_KEY,
      AIRTABLE_BASE_ID: process.env.AIRTABLE_BASE_ID,
      AIRTABLE_ENDPOINT_URL: process.env.AIRTABLE_ENDPOINT_URL,
    },
    {
      // Resend with RESEND_API_KEY (LINK_SECRET then required), else the function's local outbox.
      mail: nodeMailService(process.env, { local: false }),
      formTemplates: formTemplatesFrom(async (path) => {
        const response = await fetch(new URL(path, origin));
        return response.ok ? response.text() : null;
      }),
    },
  );
  // Netlify's edge reports the connecting address; a forwarded-for header is not the client's word.
  const address = clientAddress(context?.ip, null, trustedProxies(undefined));
  const waitUntil = context?.waitUntil;
  if (typeof waitUntil === 'function')
    return doors(request, { address, keepAlive: (work) => waitUntil.call(context, work) });
  // No waitUntil: the mail is sent before the answer leaves (each promise settles, never rejects).
  const mail: Promise<void>[] = [];
  const response = await doors(request, { address, keepAlive: (work) => void mail.push(work) });
  await Promise.all(mail);
  return response;
}

export const config = {
  path: [...FORM_LIST.map((form) => form.path), ...Object.values(EMAIL_LINK_PATHS)],
};
