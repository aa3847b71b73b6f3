/**
 * The mail service of a Node host (Netlify, `vite`, `vite preview`): Resend when RESEND_API_KEY
 * is set, else the local outbox in MAIL_OUTBOX_DIR; the mail limits in this process's memory.
 */
import { memoryMailLedger } from './mail-limits.ts';
import { createMailService, type MailService } from './mail-service.ts';
import { type MailEnv, parseMailSettings } from './mail-settings.ts';
import { DEFAULT_MAIL_OUTBOX_DIR, outboxMailer } from './outbox.ts';
import { resendMailer } from './resend-mailer.ts';

/** `local`: no deploy settings needed (a development secret signs links). */
export function nodeMailService(env: MailEnv, { local }: { local: boolean }): MailService {
  const settings = parseMailSettings(env, { local: local || !env.RESEND_API_KEY });
  const mailer = env.RESEND_API_KEY
    ? resendMailer(env.RESEND_API_KEY)
    : outboxMailer(env.MAIL_OUTBOX_DIR || DEFAULT_MAIL_OUTBOX_DIR);
  return createMailService({ settings, mailer, ledger: memoryMailLedger() });
}
