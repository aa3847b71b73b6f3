/**
 * The local outbox: with no mail provider (`vite`, `vite preview`, tests) each email is one `.eml`
 * file in MAIL_OUTBOX_DIR, named by its idempotency key (a resend writes no second one). MailComposer
 * writes the MIME, postal-mime reads it back (both without dependencies; docs/decisions/0016).
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import MailComposer from 'nodemailer/lib/mail-composer';
import PostalMime from 'postal-mime';
import { type Mailer, MailFailure, readyToSend } from '#src/server/mail/message.ts';

export const DEFAULT_MAIL_OUTBOX_DIR = '.data/outbox';

/** A mailer that writes each message to `directory` as `<time>-<key hash>.eml`. */
export function outboxMailer(directory: string, now: () => Date = () => new Date()): Mailer {
  return {
    async send(message) {
      const key = createHash('sha256').update(message.idempotencyKey).digest('hex').slice(0, 16);
      // An unsafe address is a MailFailure no retry fixes, before anything is written.
      const { from, ...ready } = readyToSend(message);
      try {
        await mkdir(directory, { recursive: true, mode: 0o700 });
        const existing = (await readdir(directory)).find((name) => name.endsWith(`-${key}.eml`));
        if (existing) return { id: path.join(directory, existing) };
        const at = now();
        const sender = typeof from === 'string' ? from : { address: from.email, name: from.name };
        const messageId = `<${randomUUID()}@${message.from.email.split('@')[1] ?? 'localhost'}>`;
        const raw = await new MailComposer({ ...ready, from: sender, messageId, date: at }).compile().build();
        const file = path.join(directory, `${at.toISOString().replace(/[:.]/g, '-')}-${key}.eml`);
        // Visitors' addresses and live links: this user's alone.
        await writeFile(file, raw, { flag: 'wx', mode: 0o600 });
        return { id: file };
      } catch (error) {
        throw new MailFailure(
          `Could not write to the outbox: ${error instanceof Error ? error.message : String(error)}`,
          true,
        );
      }
    },
  };
}

/** One `.eml` file the outbox wrote: its headers, parts, and every http(s) link in its text, in order. */
export async function parseOutboxMessage(file: string, raw: string) {
  const email = await PostalMime.parse(raw);
  // Each header as written, but the subject decoded.
  const headers: Record<string, string> = {
    ...Object.fromEntries(email.headers.map(({ key, value }) => [key, value])),
    subject: email.subject ?? '',
  };
  const text = email.text ?? '';
  return { file, headers, text, html: email.html ?? '', links: text.match(/https?:\/\/[^\s<>"]+/g) ?? [] };
}

export type OutboxMessage = Awaited<ReturnType<typeof parseOutboxMessage>>;

/** The outbox's messages, oldest first; an empty list when the directory does not exist yet. */
export async function readOutbox(directory: string) {
  const names = (await readdir(directory).catch(() => [] as string[])).sort();
  const files = names.filter((name) => name.endsWith('.eml')).map((name) => path.join(directory, name));
  return Promise.all(files.map(async (file) => parseOutboxMessage(file, await readFile(file, 'utf8'))));
}
