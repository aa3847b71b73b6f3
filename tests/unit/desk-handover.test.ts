// @vitest-environment node
/**
 * The queues carry submissions to the desk, which keeps them (desk/retry-rule.ts): from
 * podling-submissions and from its dead-letter queue alike. A deploy made while the queue or the
 * desk still holds submissions in the shape the code before the one retry rule wrote (e111772's
 * DeskItem, its queue messages' bodies) loses none.
 */
import { AirtableDesk } from '#src/server/desk/desk.ts';
import type { DeskNamespace } from '#src/server/desk/desk-client.ts';
import { hostOf } from '#src/server/host.ts';
import { consume } from '#src/server/queues/consumer.ts';
import type { DeadLetter, DeadLetterStore } from '#src/server/queues/dead-letters.ts';
import { createPacer } from '#src/server/airtable/pacer.ts';
import type { MailJob } from '#src/server/mail/message.ts';
import type { Submission } from '#src/lib/forms/submission.ts';
import { airtable, ENV, letterStore, memoryState, quote, signUp } from './support/desk-fixtures.ts';
import { queueMessage } from './support/queue-message.ts';

const ORIGIN = 'https://www.podling.test';
const quick = () => createPacer({ perSecond: 1000 });

/** The desk's namespace, reaching `desk` (or, without one, a desk that answers 503). */
const namespaceOf = (desk?: AirtableDesk): DeskNamespace => ({
  idFromName: (name) => name,
  get: () => ({
    fetch: async (input, init) =>
      desk ? desk.fetch(new Request(input, init)) : new Response('Unavailable', { status: 503 }),
  }),
});

/** The queue consumer, reaching the desk `deskIn` makes in its environment (none: unreachable). */
function worker(deskIn?: (env: typeof ENV & { DEAD_LETTERS: DeadLetterStore }) => AirtableDesk) {
  const letters: DeadLetter[] = [];
  const withLetters = { ...ENV, DEAD_LETTERS: letterStore(letters) };
  const env = { ...withLetters, AIRTABLE_DESK: namespaceOf(deskIn?.(withLetters)) };
  const deliver = (queue: string, ...messages: ReturnType<typeof queueMessage>[]) =>
    consume({ queue, messages: messages.map((each) => each.msg) }, env, hostOf(env));
  return { letters, deliver };
}

describe('a deploy made while submissions wait in the shape the last code kept them', () => {
  it("writes the desk's stored items, numbering new ones after them", async () => {
    const memory = memoryState();
    // e111772's DeskItem and its sequence number, written as that code's desk kept them.
    const kept = (n: number, body: Submission, attempts: number) => {
      const key = `q:${String(n).padStart(12, '0')}`;
      const group = `${body.table}\n${body.email}`;
      memory.data.set(key, {
        key,
        id: `message-${n}`,
        body: { ...body, origin: ORIGIN },
        group,
        attempts,
        notBefore: 0,
      });
    };
    memory.data.set('seq', 7);
    kept(6, signUp('old@x.co'), 3);
    kept(7, quote('oldq@x.co'), 1);
    const base = airtable();
    const desk = new AirtableDesk(memory.state, ENV, { pacer: quick(), fetch: base.fetch });
    await desk.accept([{ id: 'message-8', body: signUp('new@x.co') }]);
    expect(memory.items()).toEqual(['q:000000000006', 'q:000000000007', 'q:000000000008']);
    await desk.alarm();
    expect([...base.stored].sort()).toEqual([
      ['School Quotes:oldq@x.co', 1],
      ['Waitlist:new@x.co', 1],
      ['Waitlist:old@x.co', 1],
    ]);
    expect(memory.items()).toEqual([]);
  });

  it("hands today's messages to the desk, from podling-submissions and from its dead-letter queue, which keeps and writes them", async () => {
    const memory = memoryState();
    const base = airtable();
    let desk: AirtableDesk | undefined;
    const { letters, deliver } = worker(
      (env) => (desk = new AirtableDesk(memory.state, env, { pacer: quick(), fetch: base.fetch })),
    );
    const live = queueMessage({ ...signUp('live@x.co'), origin: ORIGIN });
    // Moved to the dead-letter queue by the last code after its retries: a late delivery, kept.
    const late = queueMessage({ ...quote('late@x.co'), origin: ORIGIN }, 11);
    await deliver('podling-submissions', live);
    await deliver('podling-submissions-dead', late);
    expect([live.state, late.state]).toEqual([
      { acked: true, retried: undefined },
      { acked: true, retried: undefined },
    ]);
    expect(memory.items()).toHaveLength(2);
    await desk?.alarm();
    expect([...base.stored.keys()].sort()).toEqual(['School Quotes:late@x.co', 'Waitlist:live@x.co']);
    expect(memory.items()).toEqual([]);
    expect(letters).toEqual([]);
  });
});

describe('a delivery the desk cannot take', () => {
  it('is retried by the queue with backoff, never a dead letter of the submissions queue', async () => {
    const { letters, deliver } = worker();
    const first = queueMessage(signUp('a@x.co'));
    const eleventh = queueMessage(signUp('b@x.co'), 11);
    await deliver('podling-submissions', first, eleventh);
    expect([first.state, eleventh.state]).toEqual([
      { acked: false, retried: { delaySeconds: 2 } },
      { acked: false, retried: { delaySeconds: 300 } },
    ]);
    expect(letters).toEqual([]);
  });

  it("from the dead-letter queue, is retried, and on that queue's last try kept as a dead letter", async () => {
    const { letters, deliver } = worker();
    const tenth = queueMessage(signUp('a@x.co'), 10);
    const last = queueMessage({ ...signUp('b@x.co'), origin: ORIGIN }, 11);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await deliver('podling-submissions-dead', tenth, last);
    expect(tenth.state).toEqual({ acked: false, retried: { delaySeconds: 300 } });
    expect(last.state).toEqual({ acked: true, retried: undefined });
    const reason = 'the desk could not be reached in 11 deliveries from podling-submissions-dead';
    expect(letters).toEqual([
      { submission: { ...signUp('b@x.co'), origin: ORIGIN }, reason, failedAt: expect.any(String) },
    ]);
    expect(errors).toHaveBeenCalledWith(`Airtable writer: ${reason}; kept as a dead letter`);
    errors.mockRestore();
  });

  it("an email from the mail's dead-letter queue is kept as a dead letter, as before", async () => {
    const { letters, deliver } = worker();
    const job: MailJob = {
      kind: 'mail',
      email: 'a@x.co',
      form: 'waitlist',
      queuedAt: '2026-05-04T09:00:00.000Z',
      message: {
        from: { email: 'hello@podling.app', name: 'Podling' },
        to: 'a@x.co',
        subject: 'Hello',
        text: 'text',
        html: '<p>html</p>',
        headers: {},
        idempotencyKey: 'confirm:1',
      },
    };
    const unsent = queueMessage(job, 9);
    await deliver('podling-mail-dead', unsent);
    expect(unsent.state.acked).toBe(true);
    expect(letters).toEqual([{ mail: job, reason: 'retries exhausted', failedAt: expect.any(String) }]);
  });
});
