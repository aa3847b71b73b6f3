// @vitest-environment node
/**
 * A sign-up whose write Airtable applies after the Worker's writer gave up on it (issue 40): the
 * writer tries again while the first write is still on its way, then the first lands too. Each
 * write is Airtable's upsert on the email's key, so they make one record. Under workerd (wrangler
 * dev) in front of the emulator's 'delay' fault; the quote's twin is its own file, so the two
 * 45 s waits run side by side.
 */
import { describe, expect, it } from 'vitest';
import { LANDS_AFTER_MS, lateWrite } from './support/late-write.ts';
import { useWorker } from './support/worker.ts';

describe('a sign-up whose write lands 45 s late', () => {
  const running = useWorker();

  it(
    'is one record',
    async () => {
      const email = `late-parent.${Date.now().toString(36)}@example.com`;
      const records = await lateWrite(running(), 'waitlist', { email, interests: ['use'] });
      expect(records).toHaveLength(1);
      expect(records[0]?.fields).toMatchObject({ 'Email Key': email, Interests: ['Use Podling'] });
    },
    LANDS_AFTER_MS + 60_000,
  );
});
