// @vitest-environment node
import path from 'node:path';
import {
  DEAD_QUEUE_SUFFIX,
  QUEUE_RETRIES,
  SUBMISSION_TRIES,
  waitSeconds,
} from '#src/server/desk/retry-rule.ts';
import { readWranglerConfig } from '#scripts/launch-kit/privacy-trigger.ts';

describe("a submission's one retry rule", () => {
  it("waits Airtable's penalty after a 429, the mail settings' wait, 2 s after a broken round, else 2, 4, 8 … up to 5 minutes", () => {
    expect(waitSeconds(1, 'rate-limited')).toBe(30);
    expect(waitSeconds(7, 'rate-limited')).toBe(30);
    expect(waitSeconds(3, 'mail-problem')).toBe(300);
    expect(waitSeconds(9, 'broke-off')).toBe(2);
    expect([1, 2, 3, 4, 8, 9, 10].map((tries) => waitSeconds(tries, 'failed'))).toEqual([
      2, 4, 8, 16, 256, 300, 300,
    ]);
  });

  it('tries a write 11 times, as many as the queue delivers one message', () => {
    expect(SUBMISSION_TRIES).toBe(QUEUE_RETRIES + 1);
    expect(SUBMISSION_TRIES).toBe(11);
  });

  it("is what wrangler.jsonc's submissions queue and its dead-letter queue are set to", () => {
    type Consumer = { queue: string; max_retries?: number; dead_letter_queue?: string };
    const config = readWranglerConfig(path.resolve(import.meta.dirname, '../../wrangler.jsonc')) as {
      queues: { producers: { binding: string; queue: string }[]; consumers: Consumer[] };
    };
    const consumerOf = (queue: string) => config.queues.consumers.find((each) => each.queue === queue);
    const submissions = config.queues.producers.find((each) => each.binding === 'SUBMISSIONS')?.queue ?? '';
    const dead = `${submissions}${DEAD_QUEUE_SUFFIX}`;
    // A handover the desk could not take is retried QUEUE_RETRIES times, then goes to the
    // dead-letter queue, whose consumer (told by its name) hands it to the desk as often again.
    expect(consumerOf(submissions)).toMatchObject({ max_retries: QUEUE_RETRIES, dead_letter_queue: dead });
    expect(consumerOf(dead)).toMatchObject({ max_retries: QUEUE_RETRIES });
    expect(consumerOf(dead)?.dead_letter_queue).toBeUndefined();
    // Every dead-letter queue is named so: the consumer tells one by its name alone.
    for (const { queue, dead_letter_queue: letters } of config.queues.consumers)
      if (letters) expect(letters).toBe(`${queue}${DEAD_QUEUE_SUFFIX}`);
  });
});
