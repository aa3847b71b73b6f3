/** The deployed transport: Cloudflare Email Service's `send_email` binding (local runs: host.ts). */
import { errorMessage, isObject, MailFailure, type Mailer, readyToSend } from './message.ts';

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

/** The Worker's mailer: Cloudflare Email Service through the `send_email` binding. */
export function cloudflareMailer(binding: SendEmailBinding): Mailer {
  return {
    async send(message) {
      const ready = readyToSend(message);
      try {
        const { messageId } = await binding.send(ready);
        return { id: messageId };
      } catch (error) {
        // `code`: the one Cloudflare's binding puts on its errors.
        const found: unknown = isObject(error) && 'code' in error ? error.code : undefined;
        const code = typeof found === 'string' ? found : undefined;
        throw new MailFailure(
          `send_email failed${code ? ` (${code})` : ''}: ${errorMessage(error)}`,
          !(code && PERMANENT_SEND_ERRORS.has(code)),
        );
      }
    },
  };
}
