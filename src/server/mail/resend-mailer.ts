/**
 * Netlify's and `vite preview`'s mailer with real settings: Resend, through its official client.
 * Chosen over Postmark's because it is built on fetch (no HTTP library of its own, runs in any
 * function host) and takes an idempotency key, so a retried send is never a second email.
 */
import { Resend } from 'resend';
import { type Mailer, MailFailure, readyToSend } from './mailer.ts';
import { formatAddress } from './message.ts';

/** A mailer that sends through Resend; `baseUrl` points it at a stand-in (tests). */
export function resendMailer(apiKey: string, baseUrl?: string): Mailer {
  const resend = new Resend(apiKey, baseUrl ? { baseUrl } : undefined);
  return {
    kind: 'resend',
    async send(message) {
      const { data, error } = await resend.emails.send(
        { ...readyToSend(message), from: formatAddress(message.from) },
        // Resend keeps the key 24 hours: a retried send of one message is not sent again.
        { idempotencyKey: message.idempotencyKey.slice(0, 256) },
      );
      if (error || !data) {
        const status = error?.statusCode ?? null;
        const retryable = status === null || status === 429 || status >= 500;
        throw new MailFailure(
          `Resend refused the message: ${error?.name ?? 'no answer'} ${error?.message ?? ''}`.trim(),
          retryable,
        );
      }
      return { id: data.id };
    },
  };
}
