/**
 * What an erasure (POST /api/dead-letters/erase, the owner's `npm run privacy:erase`) reaches
 * beside the base and the dead letters: the desk's waiting submissions, the emails still queued
 * (the ledger's erasure mark) and the team notices held for a digest.
 */
import { type DeskNamespace, eraseWaiting } from '#src/server/desk/desk-client.ts';
import { mailLedgerOf, type WorkerMailEnv } from '#src/server/mail/setup.ts';
import type { DeadLetterAdminOptions } from '#src/server/queues/dead-letter-admin.ts';

export function erasureReach(
  env: WorkerMailEnv & { AIRTABLE_DESK: DeskNamespace },
): Pick<DeadLetterAdminOptions, 'eraseWaiting' | 'eraseMail'> {
  return {
    eraseWaiting: (email) => eraseWaiting(env.AIRTABLE_DESK, email),
    eraseMail: async (email) => {
      const ledger = mailLedgerOf(env);
      const now = new Date();
      await ledger.markErased(email, now);
      const { eraseHeldNotices } = await import('#src/server/mail/team-inbox.ts');
      return { teamNotices: await eraseHeldNotices(ledger.kv, email, now) };
    },
  };
}
