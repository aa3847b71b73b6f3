/**
 * The dead letters, in the KV namespace bound as DEAD_LETTERS: submissions not stored (a field the
 * base lacks, a token without write access) or out of retries, kept by the desk (desk/retry-rule.ts's
 * deadLetter), and emails not sent (a refused sender or recipient, out of retries), kept by the mail
 * consumer or from the mail's dead-letter queue. The owner lists and replays them (`npm run
 * dead-letters`) through dead-letter-admin.ts, which answers nothing without ADMIN_TOKEN as they hold
 * emails; a replayed letter is deleted. Only types reach a sign-up's path (the store loads on a failure).
 */
import type { Submission } from '#src/lib/forms/submission.ts';
import type { MailJob } from '#src/server/mail/message.ts';

const KEY_PREFIX = 'dead:';

/**
 * What a dead letter holds: a submission that was not stored, an email that was not sent (its
 * record was), or a queued message no consumer could read (kept as it came, never replayed).
 */
export type DeadLetterBody = { submission: Submission } | { mail: MailJob } | { unreadable: unknown };
export type DeadLetter = DeadLetterBody & { reason: string; failedAt: string };

/** The parts of a Cloudflare KV namespace used here. */
export interface DeadLetterStore {
  put(key: string, value: string): Promise<void>;
  get(key: string): Promise<string | null>;
  delete(key: string): Promise<void>;
  list(options?: { prefix?: string; cursor?: string }): Promise<{
    keys: { name: string }[];
    list_complete: boolean;
    cursor?: string;
  }>;
}

/** Keeps a letter, failed now unless it says when. */
export async function keepDeadLetter(
  store: DeadLetterStore,
  { failedAt = new Date().toISOString(), ...letter }: DeadLetterBody & { reason: string; failedAt?: string },
): Promise<void> {
  await store.put(`${KEY_PREFIX}${failedAt}:${crypto.randomUUID()}`, JSON.stringify({ ...letter, failedAt }));
}

export async function listDeadLetters(store: DeadLetterStore) {
  const found: { key: string; letter: DeadLetter }[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.list({ prefix: KEY_PREFIX, cursor });
    for (const { name } of page.keys) {
      const value = await store.get(name);
      if (value) found.push({ key: name, letter: JSON.parse(value) as DeadLetter });
    }
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return found;
}
