/**
 * The local outbox: with no mail provider set (`vite`, `vite preview` without settings, every
 * test), each email is one RFC 5322 `.eml` file in `MAIL_OUTBOX_DIR` (default `.data/outbox`).
 * Any mail program opens them; the emulator's page lists them with their links, so a developer
 * walks the whole journey (sign up, confirm, unsubscribe) in `npm run dev` without sending mail.
 *
 * A file's name comes from the message's idempotency key, so sending the same message twice
 * writes one file.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Mailer, MailFailure, toRfc5322 } from '#src/server/mail.ts';

export const DEFAULT_MAIL_OUTBOX_DIR = '.data/outbox';

/** A mailer that writes each message to `directory` as `<time>-<key hash>.eml`. */
export function outboxMailer(directory: string, now: () => Date = () => new Date()): Mailer {
  return {
    async send(message) {
      const key = createHash('sha256').update(message.idempotencyKey).digest('hex').slice(0, 16);
      try {
        await mkdir(directory, { recursive: true });
        const existing = (await readdir(directory)).find((name) => name.endsWith(`-${key}.eml`));
        if (existing) return { id: path.join(directory, existing) };
        const at = now();
        const domain = message.from.email.split('@')[1] ?? 'localhost';
        const file = path.join(directory, `${at.toISOString().replace(/[:.]/g, '-')}-${key}.eml`);
        await writeFile(file, toRfc5322(message, at, `${randomUUID()}@${domain}`), { flag: 'wx' });
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

function decodeWords(value: string): string {
  return value.replace(/=\?UTF-8\?B\?([^?]*)\?=\s*/gi, (_match, encoded: string) =>
    Buffer.from(encoded, 'base64').toString('utf8'),
  );
}

function partText(raw: string, contentType: string): string {
  const start = raw.indexOf(`Content-Type: ${contentType}`);
  if (start < 0) return '';
  const body = raw.slice(raw.indexOf('\r\n\r\n', start) + 4);
  const end = body.indexOf('\r\n--');
  return Buffer.from(body.slice(0, end < 0 ? undefined : end).replace(/\s+/g, ''), 'base64').toString('utf8');
}

/** Reads one `.eml` file the outbox wrote: its headers, parts, and every http(s) link in its text, in order. */
export function parseOutboxMessage(file: string, raw: string) {
  const headerBlock = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of headerBlock.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = decodeWords(line.slice(colon + 1).trim());
  }
  const text = partText(raw, 'text/plain');
  return {
    file,
    headers,
    text,
    html: partText(raw, 'text/html'),
    links: text.match(/https?:\/\/[^\s<>"]+/g) ?? [],
  };
}

/** One message in the outbox, as the emulator's page and the tests read it. */
export type OutboxMessage = ReturnType<typeof parseOutboxMessage>;

/** The outbox's messages, oldest first; an empty list when the directory does not exist yet. */
export async function readOutbox(directory: string) {
  const files = await readdir(directory).catch(() => [] as string[]);
  const names = files.filter((name) => name.endsWith('.eml')).sort();
  return Promise.all(
    names.map(async (name) => {
      const file = path.join(directory, name);
      return parseOutboxMessage(file, await readFile(file, 'utf8'));
    }),
  );
}
