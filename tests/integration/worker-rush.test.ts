// @vitest-environment node
/**
 * The launch rush in small, on the reference deploy in its real runtime: the Worker under
 * workerd through `wrangler dev`, its relay in queued mode and the queue's paced consumer writing
 * to the emulator with a rate limit and Airtable's 30 s penalty on (the full rush, at Airtable's
 * own limit, is `npm run loadtest`). Its own file, so the rush's queue runs beside the other
 * Worker suites.
 */
import { describe, expect, it } from 'vitest';
import { AIRTABLE_RATE_LIMIT_PER_SECOND } from '#scripts/airtable-emulator/emulator.ts';
import { runRush } from '#scripts/loadtest/rush.ts';

describe('the launch rush, small', () => {
  // What the code controls: every visitor answered success, every address stored once. The
  // writer's own pacing is proven on a fake clock (tests/unit/pacer.test.ts, queue-writer), and
  // the 429 count at Airtable's limit is a figure `npm run loadtest` prints.
  //
  // The emulator allows twice Airtable's 5 requests a second here. It shares this test's process,
  // and while Vitest's other files starve that process it handled paced requests sent 1.2 s apart
  // closer together: at Airtable's own limit it met a 429, and the Worker then waited out the
  // 30 s penalty, in more than half of the full runs measured (the file took 64-76 s, not 14 s).
  it.each([
    ['', false],
    [', with the desk and the mail in a workerd of their own (--desk-apart)', true],
  ])(
    '150 sign-ups, 15 quotes and 15 repeats in 1.5 s%s: all answered success, none lost or doubled',
    async (_, deskApart) => {
      const report = await runRush({
        mode: 'queued',
        deskApart,
        signups: 150,
        quotes: 15,
        repeats: 15,
        overMs: 1_500,
        penaltyMs: 30_000,
        rateLimitPerSecond: 2 * AIRTABLE_RATE_LIMIT_PER_SECOND,
        // A loaded machine only makes the queue slower: the wait goes on while it stores, and
        // ends after 90 s in which it stored nothing (three of the emulator's penalties).
        settleTimeoutMs: 480_000,
        settleStallMs: 90_000,
      });
      expect(report).toMatchObject({
        submitted: 180,
        succeeded: 180,
        failed: 0,
        lost: 0,
        duplicates: 0,
      });
      expect(report.stored).toBe(165);
      expect(report.workerProcesses).toBe(deskApart ? 2 : 1);
      // As production: no wrangler proxy between the visitors and the Worker (where /proc shows it).
      expect(report.visitorsPastProxy).toBe(process.platform === 'linux');
      expect(report.settledMs).not.toBeNull();
      // Mail: every new address got exactly one first email through the send_email binding (a
      // confirmation, or a quote's acknowledgement), and the team one notice per new quote.
      expect(report.mail).toMatchObject({ confirmationsMissing: 0, confirmationsDoubled: 0, unsent: 0 });
      expect(report.mail?.sent).toBeGreaterThanOrEqual(150 + 2 * 15);
    },
    600_000,
  );
});
