// @vitest-environment node
import { AirtableDesk } from '#src/server/desk/desk.ts';
import { SUBMISSION_TRIES } from '#src/server/desk/retry-rule.ts';
import { ADDRESSES_PER_ROUND, Backlog, type DeskItem, groupOf } from '#src/server/desk/backlog.ts';
import { createPacer } from '#src/server/airtable/pacer.ts';
import { deskPacer } from '#src/server/desk/desk-client.ts';
import type { Submission } from '#src/lib/forms/submission.ts';
import type { DeadLetter } from '#src/server/queues/dead-letters.ts';
import { accepted, airtable, ENV, letterStore, memoryState, quote, signUp } from './support/desk-fixtures.ts';

let seq = 0;
const item = (body: Submission, notBefore = 0): DeskItem => {
  seq += 1;
  const key = `q:${String(seq).padStart(12, '0')}`;
  return { key, id: `m${seq}`, body, group: groupOf(body) ?? '', attempts: 1, notBefore };
};
const backlogOf = (items: DeskItem[]) => {
  const backlog = new Backlog();
  for (const each of items) backlog.set(each);
  return backlog;
};
const emailsOf = (round: DeskItem[]) => round.map((each) => (each.body as Submission).email);

describe('a round of the desk', () => {
  it("is the oldest ready submission's form, up to 300 addresses, with their repeats", () => {
    expect(ADDRESSES_PER_ROUND).toBe(300);
    const items = [
      item(signUp('a@x.co')),
      item(quote('q@x.co')),
      ...Array.from({ length: 320 }, (_, i) => item(signUp(`p${i}@x.co`))),
      item(signUp('A@x.co', 'later')),
    ];
    const round = backlogOf(items).pick(new Set(), 0);
    // An address's submissions together, in order (the writer merges them, the later winning).
    expect(emailsOf(round)).toEqual([
      'a@x.co',
      'A@x.co',
      ...Array.from({ length: 299 }, (_, i) => `p${i}@x.co`),
    ]);
  });

  it('leaves out an address a round in flight holds, or one waiting for its retry, and everything after them', () => {
    const items = [
      item(signUp('busy@x.co')),
      item(signUp('waits@x.co'), 5_000),
      item(signUp('free@x.co')),
      item(signUp('waits@x.co', 'later')),
      item(signUp('busy@x.co', 'later')),
    ];
    const round = backlogOf(items).pick(new Set(['Waitlist\nbusy@x.co']), 1_000);
    expect(round.map((each) => each.body)).toEqual([signUp('free@x.co')]);
    expect(emailsOf(backlogOf(items).pick(new Set(), 6_000))).toEqual([
      'busy@x.co',
      'busy@x.co',
      'waits@x.co',
      'waits@x.co',
      'free@x.co',
    ]);
  });

  it("stops an address's submissions at the first that waits for its retry", () => {
    const items = [
      item(signUp('a@x.co')),
      item(signUp('a@x.co', 'retried'), 5_000),
      item(signUp('a@x.co', 'latest')),
    ];
    expect(
      backlogOf(items)
        .pick(new Set(), 1_000)
        .map((each) => each.body),
    ).toEqual([signUp('a@x.co')]);
  });
});

describe('the Airtable desk', () => {
  it('keeps what it is handed before answering (a delivery handed over twice once) and wakes its writer', async () => {
    const memory = memoryState();
    const desk = new AirtableDesk(memory.state, ENV, { pacer: createPacer({ perSecond: 1000 }) });
    const answer = await desk.fetch(
      new Request('https://desk/accept', {
        method: 'POST',
        body: JSON.stringify(accepted([signUp('a@x.co'), signUp('b@x.co')])),
      }),
    );
    expect(answer.status).toBe(204);
    await desk.accept(accepted([signUp('a@x.co')]));
    expect(memory.items()).toHaveLength(2);
    const twice = { id: 'twice', body: signUp('c@x.co') };
    await desk.accept([twice, twice]); // one delivery twice in one handover
    expect(memory.items()).toHaveLength(3);
    expect(memory.alarm()).not.toBeNull();
    // A new instance (the object restarted) finds them in its storage.
    const again = new AirtableDesk(memory.state, ENV, {
      pacer: createPacer({ perSecond: 1000 }),
      fetch: airtable().fetch,
    });
    await again.alarm();
    expect(memory.items()).toEqual([]);
  });

  it('keeps a message no form stores as a dead letter at once, never waiting in its storage', async () => {
    const memory = memoryState();
    const letters: DeadLetter[] = [];
    const desk = new AirtableDesk(memory.state, { ...ENV, DEAD_LETTERS: letterStore(letters) });
    const tutors = { ...signUp('t@x.co'), table: 'Tutors' };
    await desk.accept(accepted([{ not: 'a submission' }, tutors]));
    const reason = 'a queued message no form of this Worker stores';
    expect(letters).toMatchObject([
      { unreadable: { not: 'a submission' }, reason },
      { submission: tutors, reason },
    ]);
    expect(memory.items()).toEqual([]);
  });

  it('writes one form per round, 300 addresses a lookup and 10 a write, the next lookup before this round ends', async () => {
    const memory = memoryState();
    const base = airtable();
    const desk = new AirtableDesk(memory.state, ENV, {
      pacer: createPacer({ perSecond: 1000 }),
      fetch: base.fetch,
    });
    const bodies = Array.from({ length: 900 }, (_, i) =>
      i % 11 === 10 ? quote(`q${i}@x.co`) : signUp(`p${i}@x.co`),
    );
    await desk.accept(accepted(bodies));
    await desk.alarm();

    const lookups = base.calls.filter((call) => call.kind === 'lookup');
    const writes = base.calls.filter((call) => call.kind === 'write');
    // 819 sign-ups: 3 lookups, 82 writes; 81 quotes: 1 lookup, 9 writes (no mail: no suppression list).
    expect(lookups.map((call) => call.table).sort()).toEqual([
      'School Quotes',
      'Waitlist',
      'Waitlist',
      'Waitlist',
    ]);
    expect(writes).toHaveLength(91);
    expect(writes.every((call) => call.records <= 10)).toBe(true);
    expect(base.stored.size).toBe(900);
    expect([...base.stored.values()].every((count) => count === 1)).toBe(true);
    // Rounds overlap: the second round's lookup goes before the first round's tenth write.
    const secondLookup = base.calls.findIndex((call, i) => call.kind === 'lookup' && i > 0);
    const tenthWrite = base.calls.flatMap((call, i) => (call.kind === 'write' ? [i] : []))[9] ?? -1;
    expect(secondLookup).toBeLessThan(tenthWrite);
    expect(memory.items()).toEqual([]);
  });

  it('keeps a submission Airtable failed for its retry, wakes for it, and makes it a dead letter after its last try', async () => {
    const memory = memoryState();
    const letters: DeadLetter[] = [];
    const store = letterStore(letters);
    const base = airtable(1);
    const desk = new AirtableDesk(
      memory.state,
      { ...ENV, DEAD_LETTERS: store },
      { pacer: createPacer({ perSecond: 1000 }), fetch: base.fetch },
    );
    const before = Date.now();
    await desk.accept(accepted([signUp('retry@x.co')]));
    await desk.alarm();
    const [kept] = [...memory.data.values()].filter((value): value is DeskItem => typeof value === 'object');
    expect(kept).toMatchObject({ attempts: 2, body: signUp('retry@x.co') });
    expect(kept?.notBefore).toBeGreaterThanOrEqual(before + 2_000);
    expect(memory.alarm()).toBe(kept?.notBefore);

    // Its last try fails too: a dead letter, and nothing left.
    const key = memory.items()[0] ?? '';
    memory.data.set(key, { ...kept, attempts: SUBMISSION_TRIES, notBefore: 0 });
    const last = airtable(1);
    await new AirtableDesk(
      memory.state,
      { ...ENV, DEAD_LETTERS: store },
      { pacer: createPacer({ perSecond: 1000 }), fetch: last.fetch },
    ).alarm();
    expect(letters).toMatchObject([{ submission: signUp('retry@x.co'), reason: 'retries exhausted' }]);
    expect(memory.items()).toEqual([]);
  });

  it("gives a pressed link or the retention job its slot from the desk's pacer, and a 429 they meet shuts it", async () => {
    const pacer = createPacer({ perSecond: 1000 });
    const desk = new AirtableDesk(memoryState().state, ENV, { pacer });
    const asked: string[] = [];
    const remote = deskPacer({
      idFromName: (name) => name,
      get: () => ({
        fetch: (input, init) => {
          asked.push(new URL(input).pathname);
          return desk.fetch(new Request(input, init));
        },
      }),
    });
    expect(await remote.acquire(1_000)).toBe(true);
    expect(remote.closedFor()).toBe(0);
    // A given-away slot is one slot, lent: the caller's request leaves after the answer.
    const taken: unknown[] = [];
    const counting = new AirtableDesk(memoryState().state, ENV, {
      pacer: { ...pacer, acquire: async (within, how) => (taken.push([within, how]), true) },
    });
    await counting.fetch(new Request('https://desk/pace?within=500', { method: 'POST' }));
    expect(taken).toEqual([[500, { lent: true }]]);
    remote.penalise();
    await expect.poll(() => pacer.closedFor()).toBeGreaterThan(29_000);
    expect(await remote.acquire(1_000)).toBe(false);
    expect(remote.closedFor()).toBeGreaterThan(29_000);
    expect(asked).toEqual(['/pace', '/penalise', '/pace']);
  });

  it('deletes what was written and keeps the rest when a round breaks off (the dead letters could not be kept)', async () => {
    const memory = memoryState();
    const base = airtable(0, 'bad@x.co');
    const broken = { ...letterStore([]), put: () => Promise.reject(new Error('KV is down')) };
    const desk = new AirtableDesk(
      memory.state,
      { ...ENV, DEAD_LETTERS: broken },
      { pacer: createPacer({ perSecond: 1000 }), fetch: base.fetch },
    );
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await desk.accept(accepted([signUp('good@x.co'), signUp('bad@x.co')]));
    await desk.alarm();
    expect(errors).toHaveBeenCalledWith(
      'Airtable writer: a round broke off (Error: KV is down); what it had not stored is tried again',
    );
    errors.mockRestore();
    expect([...base.stored.keys()]).toEqual(['Waitlist:good@x.co']);
    const kept = [...memory.data.values()].filter((value): value is DeskItem => typeof value === 'object');
    expect(kept).toMatchObject([{ body: signUp('bad@x.co'), attempts: 2 }]);
  });
});
