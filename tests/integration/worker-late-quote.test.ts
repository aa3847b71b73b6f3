// @vitest-environment node
/** A quote whose write lands 45 s late is one record (worker-late-write.test.ts says why). */
import { describe, expect, it } from 'vitest';
import { LANDS_AFTER_MS, lateWrite } from './support/late-write.ts';
import { useWorker } from './support/worker.ts';

describe('a quote whose write lands 45 s late', () => {
  const running = useWorker();

  it(
    'is one record',
    async () => {
      const email = `late-head.${Date.now().toString(36)}@school.sch.uk`;
      const records = await lateWrite(running(), 'quote', {
        email,
        contactName: 'Ada Lovelace',
        schoolName: 'Hill School',
        useCases: ['support-learners'],
      });
      expect(records).toHaveLength(1);
      expect(records[0]?.fields).toMatchObject({
        'Email Key': email,
        'Contact Name': 'Ada Lovelace',
        Status: 'New',
      });
    },
    LANDS_AFTER_MS + 60_000,
  );
});
