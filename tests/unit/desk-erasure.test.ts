// @vitest-environment node
/**
 * Erasure (Article 17) reaching the submissions the Airtable desk still keeps (desk-erasure.ts):
 * POST /erase on the desk, as `npm run privacy:erase` reaches it through the Worker.
 */
import { AirtableDesk } from '#src/server/desk/desk.ts';
import { Backlog } from '#src/server/desk/backlog.ts';
import { eraseAddress } from '#src/server/desk/erasure.ts';
import { createPacer } from '#src/server/airtable/pacer.ts';
import type { Submission } from '#src/lib/forms/submission.ts';
import type { DeadLetter } from '#src/server/queues/dead-letters.ts';
import { accepted, airtable, ENV, letterStore, memoryState, quote, signUp } from './support/desk-fixtures.ts';

const fastPacer = () => createPacer({ perSecond: 1000 });
const erase = async (desk: AirtableDesk, email: string) =>
  (
    await desk.fetch(new Request('https://desk/erase', { method: 'POST', body: JSON.stringify({ email }) }))
  ).json() as Promise<{ erased: number; stillWriting: boolean }>;
const at = (ms: number) => new Date(ms).toISOString();
const bodies = (memory: ReturnType<typeof memoryState>) =>
  memory.items().map((key) => (memory.data.get(key) as { body: Submission }).body);

describe('erasure on the Airtable desk', () => {
  it("drops the address's waiting submissions on both forms, and keeps every other address's", async () => {
    const memory = memoryState();
    const desk = new AirtableDesk(memory.state, ENV, { pacer: fastPacer(), fetch: airtable().fetch });
    await desk.accept(accepted([signUp('Jane@X.co'), quote('jane@x.co'), signUp('other@x.co')]));

    expect(await erase(desk, '  JANE@x.co ')).toEqual({ erased: 2, stillWriting: false });
    expect(bodies(memory).map((body) => body.email)).toEqual(['other@x.co']);
    // Nothing of it is left to write: the round writes the other address only.
    await desk.alarm();
    expect(memory.items()).toEqual([]);
  });

  it('drops a submission handed over later that the door accepted before the erasure, and keeps one accepted after, across a restart', async () => {
    const memory = memoryState();
    const desk = new AirtableDesk(memory.state, ENV, { pacer: fastPacer() });
    const before = Date.now();
    expect(await erase(desk, 'jane@x.co')).toEqual({ erased: 0, stillWriting: false });
    // The address is remembered by its SHA-256 only.
    const remembered = [...memory.data.keys()].filter((key) => key.startsWith('erased:'));
    expect(remembered).toEqual([expect.stringMatching(/^erased:[0-9a-f]{64}$/)]);
    expect(JSON.stringify([...memory.data])).not.toContain('jane');

    const restarted = new AirtableDesk(memory.state, ENV, { pacer: fastPacer() });
    const late = { ...signUp('Jane@x.co'), acceptedAt: at(before - 1_000) };
    const again = { ...signUp('jane@x.co', 'B'), acceptedAt: at(before + 60_000) };
    await restarted.accept(accepted([late, { ...quote('jane@x.co'), acceptedAt: 'never' }, again]));
    expect(bodies(memory)).toEqual([again]);
  });

  it('drops the retry of a round that was writing the address as it was erased, never a dead letter', async () => {
    const memory = memoryState();
    const letters: DeadLetter[] = [];
    const base = airtable();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let writing = () => {};
    const written = new Promise<void>((resolve) => (writing = resolve));
    // The write is held until released, then answered 503: the round keeps it for a retry.
    const fetchStub: typeof fetch = async (input, init) => {
      if (init?.method !== 'PATCH') return base.fetch(input, init);
      writing();
      await held;
      return Response.json({ error: 'SERVER_ERROR' }, { status: 503 });
    };
    const desk = new AirtableDesk(
      memory.state,
      { ...ENV, DEAD_LETTERS: letterStore(letters) },
      { pacer: fastPacer(), fetch: fetchStub },
    );
    await desk.accept(accepted([signUp('jane@x.co'), signUp('other@x.co')]));
    const round = desk.alarm();
    await written;
    const erasure = erase(desk, 'jane@x.co');
    await expect.poll(() => [...memory.data.keys()].some((key) => key.startsWith('erased:'))).toBe(true);
    release();
    await round;
    expect(await erasure).toEqual({ erased: 0, stillWriting: false });
    expect(bodies(memory).map((body) => body.email)).toEqual(['other@x.co']);
    expect(letters).toEqual([]);
  });
});

describe('eraseAddress', () => {
  const deskHolding = (group: string) => ({
    backlog: new Backlog(),
    busy: new Set([group]),
    erased: new Map<string, number>(),
    storage: memoryState().state.storage,
    erasedKey: (sha: string) => `erased:${sha}`,
  });

  it('answers once no round in flight holds the address', async () => {
    const desk = deskHolding('School Quotes\njane@x.co');
    let sleeps = 0;
    const answer = await eraseAddress(desk, 'Jane@x.co', {
      sleep: async () => {
        sleeps += 1;
        desk.busy.clear();
      },
    });
    expect(answer).toEqual({ erased: 0, stillWriting: false });
    expect(sleeps).toBe(1);
  });

  it('says a write is still under way when a round holds the address past its wait', async () => {
    let now = 0;
    const answer = await eraseAddress(deskHolding('Waitlist\njane@x.co'), 'jane@x.co', {
      now: () => now,
      sleep: async (ms) => void (now += ms),
    });
    expect(answer).toEqual({ erased: 0, stillWriting: true });
    expect(now).toBeGreaterThanOrEqual(90_000);
  });
});
