/**
 * The forms' doors as a Netlify Function (web-standard signature), at each form's path on the
 * site's own origin. Synchronous mode: each submission is upserted while the visitor waits, with
 * this instance's pacer; see docs/rush.md for what that means under a rush.
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

/** The parts of Netlify's function context used here: the client's address, as Netlify saw it. */
interface NetlifyContext {
  ip?: string;
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
  return doors(request, { address });
}

export const config = {
  path: [...FORM_LIST.map((form) => form.path), ...Object.values(EMAIL_LINK_PATHS)],
};
