/**
 * The desk's waiting submissions (desk.ts keeps them in its storage; erasure.ts drops an address's):
 * each item with its address, and the next round picked from them, oldest first.
 */
import { isSubmission, normaliseEmail, type Submission } from '#src/lib/forms/submission.ts';
import { formOfTable } from '#src/lib/forms/forms.ts';

/**
 * Most addresses in a round: what one lookup formula holds (LOOKUP_FORMULA_MAX_CHARS, 300 addresses
 * of up to 42 characters on average). A rush's addresses are mostly new, so the lookup finds few
 * and is one request: 1,100 writes and 42 lookups store 11,000 (lookups of 100 took 120).
 */
export const ADDRESSES_PER_ROUND = 300;

/** The storage keys of erased addresses (erasure.ts): the prefix and the address's SHA-256. */
export const ERASED_PREFIX = 'erased:';

/** A submission (or whatever a queue message held) waiting in the desk's storage. */
export interface DeskItem {
  /** Its storage key: ITEM_PREFIX and a sequence number, so keys sort in order of acceptance. */
  key: string;
  /** The queue message's id, so a delivery handed over twice is kept once. */
  id: string;
  body: unknown;
  /** Its address (groupOf), kept so a round is picked without reading every body again. */
  group: string;
  attempts: number;
  /** Not tried again before this time (ms since the epoch). */
  notBefore: number;
}

/** The parts of a Durable Object's state and storage the desk uses. */
export interface DeskState {
  storage: {
    get<T>(key: string): Promise<T | undefined>;
    put(entries: Record<string, unknown>): Promise<void>;
    delete(keys: string[]): Promise<number>;
    list<T>(options: { prefix: string }): Promise<Map<string, T>>;
    setAlarm(at: number): Promise<void>;
  };
  blockConcurrencyWhile<T>(callback: () => Promise<T>): Promise<T>;
}

/** The address a submission is written to (table and normalised email); null: no form stores it. */
export function groupOf(body: unknown): string | null {
  return isSubmission(body) && formOfTable(body.table)
    ? `${body.table}\n${normaliseEmail(body.email)}`
    : null;
}

/** The waiting submissions in order of acceptance (an address's in order too). */
export class Backlog {
  readonly #items = new Map<string, DeskItem>();
  readonly #ids = new Set<string>();

  get size() {
    return this.#items.size;
  }
  has(id: string) {
    return this.#ids.has(id);
  }
  /** Adds an item, or puts a retried one back where it was (a Map keeps a key's place). */
  set(item: DeskItem) {
    this.#items.set(item.key, item);
    this.#ids.add(item.id);
  }
  delete(key: string) {
    const item = this.#items.get(key);
    if (item) this.#ids.delete(item.id);
    this.#items.delete(key);
  }
  /** The waiting items whose group (`table\naddress`) `holds` says yes to. */
  matching(holds: (group: string) => boolean): DeskItem[] {
    return [...this.#items.values()].filter((item) => holds(item.group));
  }
  /** When the next waiting item may be tried (Infinity: none waits). */
  earliest(): number {
    return [...this.#items.values()].reduce((at, item) => Math.min(at, item.notBefore), Infinity);
  }

  /**
   * The next round, oldest first: the oldest ready submission's form, up to ADDRESSES_PER_ROUND
   * addresses with all their ready submissions (merged by the writer), none an address a round in
   * flight holds or one whose oldest waits for its retry (an address's submissions stay in order).
   */
  pick(busy: ReadonlySet<string>, now: number): DeskItem[] {
    const round = new Map<string, DeskItem[]>();
    /** Addresses left out, or whose ready submissions ended at one that waits. */
    const skipped = new Set<string>();
    let table: string | undefined;
    for (const item of this.#items.values()) {
      if (skipped.has(item.group) || busy.has(item.group)) continue;
      const ready = item.notBefore <= now;
      const taken = round.get(item.group);
      if (taken && ready) taken.push(item);
      else if (taken) skipped.add(item.group);
      else {
        const itemTable = (item.body as Submission).table;
        table ??= ready ? itemTable : undefined;
        if (ready && itemTable === table && round.size < ADDRESSES_PER_ROUND) round.set(item.group, [item]);
        else skipped.add(item.group);
      }
    }
    return [...round.values()].flat();
  }
}
