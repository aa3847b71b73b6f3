/**
 * Erasure (Article 17) of the submissions the desk still keeps: `npm run privacy:erase` asks the
 * Worker (POST /api/dead-letters/erase), which asks the desk (POST /erase). The desk drops the
 * address's waiting submissions, on both forms, and waits out a round in flight holding it, so its
 * write lands before the command deletes the records. It remembers the erasure, by the address's
 * SHA-256 only, for ERASURE_MEMORY_MS: a submission the door accepted before it and handed over
 * later (from the queue, or back from a failed round for its retry) is dropped; one accepted after is new.
 */
import { normaliseEmail, type Submission } from '#src/lib/forms/submission.ts';
import { digest, ERASURE_MEMORY_MS } from '#src/server/mail/ledger.ts';
import { type Backlog, type DeskItem, type DeskState, ERASED_PREFIX } from './backlog.ts';

/** The longest an erasure waits for a round in flight holding the address (a 429's 30 s, and the writes). */
const IN_FLIGHT_WAIT_MS = 90_000;
const IN_FLIGHT_POLL_MS = 250;

/** The address part of a desk item's group (`table\naddress`). */
const addressOf = (group: string) => group.slice(group.indexOf('\n') + 1);

/** The items, less those whose address was erased after the door accepted them (`erased`: SHA-256 → when). */
export async function withoutErased(items: DeskItem[], erased: ReadonlyMap<string, number>) {
  const at = await Promise.all(items.map(async ({ group }) => erased.get(await digest(addressOf(group)))));
  // A submission without a readable time is older than any erasure: dropped.
  return items.filter(
    (item, i) => at[i] === undefined || Date.parse((item.body as Submission).acceptedAt) > at[i],
  );
}

/** An erasure's answer: the waiting submissions dropped, and whether a round still held the address. */
export type DeskErasure = { erased: number; stillWriting: boolean };

/** What of the desk an erasure reaches. */
export interface ErasableDesk {
  backlog: Backlog;
  /** The groups (`table\naddress`) of the rounds in flight. */
  busy: ReadonlySet<string>;
  /** Erased addresses' SHA-256 → when (ms since the epoch). */
  erased: Map<string, number>;
  storage: DeskState['storage'];
}

/**
 * Erases `email` from the desk; `stillWriting`: a round holding it outlasted IN_FLIGHT_WAIT_MS (its
 * record may be written after the command's deletion: run it again).
 */
export async function eraseAddress(
  desk: ErasableDesk,
  email: string,
  { now = Date.now, sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms)) } = {},
): Promise<DeskErasure> {
  const address = normaliseEmail(email);
  const key = await digest(address);
  const at = now();
  desk.erased.set(key, at);
  const forgotten = [...desk.erased].filter(([, when]) => when <= at - ERASURE_MEMORY_MS).map(([k]) => k);
  for (const old of forgotten) desk.erased.delete(old);
  await desk.storage.put({ [ERASED_PREFIX + key]: at });
  if (forgotten.length > 0) await desk.storage.delete(forgotten.map((sha) => ERASED_PREFIX + sha));
  const holds = (group: string) => addressOf(group) === address;
  let erased = 0;
  for (const deadline = at + IN_FLIGHT_WAIT_MS; ; await sleep(IN_FLIGHT_POLL_MS)) {
    // Taken from the backlog at once, so no round picks them while their storage is deleted. A
    // round's own stay with it: it writes them, or drops their retry (withoutErased).
    const waiting = desk.backlog.matching((group) => holds(group) && !desk.busy.has(group));
    for (const item of waiting) desk.backlog.delete(item.key);
    if (waiting.length > 0) await desk.storage.delete(waiting.map((item) => item.key));
    erased += waiting.length;
    const inFlight = [...desk.busy].some(holds);
    if (!inFlight || now() >= deadline) return { erased, stillWriting: inFlight };
  }
}
