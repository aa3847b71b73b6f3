/**
 * The one paced writer, a Durable Object (decision 0018): the only thing talking to Airtable under
 * load, with the base's one pacer, and the one store a submission waits in. The queues' consumer
 * hands it each delivery of submissions, from podling-submissions or its dead-letter queue (`accept`:
 * kept in its storage, then acked); it writes them in rounds of one form and up to ADDRESSES_PER_ROUND
 * addresses (one lookup while under 100 are stored, at most 30 writes), ROUNDS_IN_FLIGHT at once on
 * disjoint addresses, so the next round's lookup waits in the pacer while this one's writes go and
 * Airtable's 5 a second stay full whatever batches Cloudflare Queues hands out. A pressed email link
 * and the retention job borrow slots of the pacer (POST /pace, desk-client.ts's deskPacer). Outcomes
 * are round-writer.ts's (#settle), waits and tries retry-rule.ts's, an erasure (POST /erase) erasure.ts's.
 */
import { Backlog, type DeskItem, type DeskState, ERASED_PREFIX, groupOf } from './backlog.ts';
import { inChunks } from '#src/server/airtable/client.ts';
import { createPacer, type Pacer, RATE_WINDOW_MS } from '#src/server/airtable/pacer.ts';
import type { createRoundWriter, RoundOutcome } from './round-writer.ts';
import { workerMail, type WorkerMailEnv } from '#src/server/mail/setup.ts';
import { hostOf, type HostEnv } from '#src/server/host.ts';
import { deadLetter, SUBMISSION_TRIES, waitSeconds } from './retry-rule.ts';

/**
 * Rounds written at once: the next one's lookup queues in the pacer behind this one's writes (a
 * full round's 30 take over 6 s, ample for a lookup's answer). Not more: a round's writes follow
 * its lookup by the writes booked ahead of them, and a record may change in between.
 */
const ROUNDS_IN_FLIGHT = 2;
/** One alarm drains at most this long (Cloudflare allows 15 minutes), then the next goes on. */
const DRAIN_BUDGET_MS = 10 * 60_000;
/** Cloudflare's most keys per storage put or delete (a put also carries the sequence number). */
const KEYS_PER_CALL = 128;
const ITEM_PREFIX = 'q:';

/** Its settings (Airtable's, mail's) and bindings (DEAD_LETTERS, the mail's, the host's). */
type DeskEnv = WorkerMailEnv & HostEnv;

/** The Durable Object class (wrangler.jsonc `durable_objects`): one instance, named DESK_NAME. */
export class AirtableDesk {
  readonly #state: DeskState;
  readonly #env: DeskEnv;
  readonly #backlog = new Backlog();
  readonly #busy = new Set<string>();
  /** Erased addresses' SHA-256 → when (desk/erasure.ts). */
  readonly #erased = new Map<string, number>();
  #seq = 0;
  #draining = false;
  #wake = () => {};
  readonly #pacer: Pacer;
  readonly #fetch: typeof fetch | undefined;
  /** The stored submissions read into memory (Cloudflare holds events until then; tests await it). */
  readonly #loaded: Promise<void>;

  /** `options` are the tests' (Cloudflare passes state and env): a quicker pacer, Airtable's stand-in. */
  constructor(state: DeskState, env: DeskEnv, options: { pacer?: Pacer; fetch?: typeof fetch } = {}) {
    this.#state = state;
    this.#env = env;
    // A new instance, not knowing what the last one sent just before, waits one window.
    this.#pacer = options.pacer ?? createPacer({ startClosedForMs: RATE_WINDOW_MS });
    this.#fetch = options.fetch;
    this.#loaded = state.blockConcurrencyWhile(async () => {
      const stored = await state.storage.list<DeskItem>({ prefix: ITEM_PREFIX });
      for (const item of stored.values()) this.#backlog.set(item);
      this.#seq = (await state.storage.get<number>('seq')) ?? 0;
      const erased = await state.storage.list<number>({ prefix: ERASED_PREFIX });
      for (const [key, at] of erased) this.#erased.set(key.slice(ERASED_PREFIX.length), at);
    });
  }

  /** POST /accept (queue messages, kept before the answer), /pace (a slot), /penalise (a 429 seen), /erase. */
  async fetch(request: Request): Promise<Response> {
    const { pathname, searchParams } = new URL(request.url);
    if (pathname === '/pace') {
      const within = Number(searchParams.get('within') ?? 'Infinity');
      // A slot lent: its request leaves once this answer has reached the caller, so the pacer
      // counts it as leaving up to a gap later (the next never follows it within the gap).
      const ok = await this.#pacer.acquire(Number.isNaN(within) ? 0 : within, { lent: true });
      return Response.json({ ok, closedFor: this.#pacer.closedFor() });
    }
    if (pathname === '/erase') {
      await this.#loaded;
      const { email } = (await request.json()) as { email: string };
      const { eraseAddress } = await import('./erasure.ts');
      const [backlog, busy, erased, storage] = [this.#backlog, this.#busy, this.#erased, this.#state.storage];
      return Response.json(await eraseAddress({ backlog, busy, erased, storage }, String(email)));
    }
    if (pathname === '/accept') await this.accept((await request.json()) as { id: string; body: unknown }[]);
    else if (pathname === '/penalise') this.#pacer.penalise();
    else return new Response('Not found', { status: 404 });
    return new Response(null, { status: 204 });
  }

  /** Keeps the messages (each id once), then wakes the writer. */
  async accept(messages: readonly { id: string; body: unknown }[]): Promise<void> {
    await this.#loaded;
    const now = Date.now();
    const fresh: DeskItem[] = [];
    for (const [id, body] of new Map(messages.map(({ id, body }) => [id, body]))) {
      if (this.#backlog.has(id)) continue;
      const group = groupOf(body);
      if (group === null) {
        const reason = 'a queued message no form of this Worker stores';
        await deadLetter(this.#env.DEAD_LETTERS, body, reason, console.log);
        continue;
      }
      this.#seq += 1;
      const key = `${ITEM_PREFIX}${String(this.#seq).padStart(12, '0')}`;
      fresh.push({ key, id, body, group, attempts: 1, notBefore: now });
    }
    const kept = await this.#withoutErased(fresh);
    await this.#store(kept);
    for (const item of kept) this.#backlog.set(item);
    if (this.#draining) this.#wake();
    else await this.#state.storage.setAlarm(now);
  }

  /** Writes rounds while any submission is ready; wakes again for the next retry's time. */
  async alarm(): Promise<void> {
    await this.#loaded;
    if (this.#draining) return;
    this.#draining = true;
    const until = Date.now() + DRAIN_BUDGET_MS;
    const rounds = new Set<Promise<void>>();
    try {
      for (;;) {
        while (rounds.size < ROUNDS_IN_FLIGHT && Date.now() < until) {
          const round = this.#backlog.pick(this.#busy, Date.now());
          if (round.length === 0) break;
          const running: Promise<void> = this.#write(round).finally(() => {
            rounds.delete(running);
            this.#wake();
          });
          rounds.add(running);
        }
        if (rounds.size === 0) break;
        await new Promise<void>((resolve) => (this.#wake = resolve));
      }
    } finally {
      this.#draining = false;
    }
    const next = this.#backlog.earliest();
    if (Number.isFinite(next)) await this.#state.storage.setAlarm(Math.max(next, Date.now()));
  }

  /** One round through the round writer: each item written (deleted), retried (kept, later) or a dead letter. */
  async #write(round: readonly DeskItem[]): Promise<void> {
    const began = Date.now();
    for (const item of round) this.#busy.add(item.group);
    const outcomes = new Map<string, RoundOutcome>();
    // The writer's dead letters, kept here once it answers; with no store bound (or kept in vain), they retry.
    let lettersKept = false;
    try {
      const { mail, problem } = (this.#mailSetup ??= workerMail(this.#env, hostOf(this.#env).mailer));
      if (problem) {
        console.log(`Airtable writer: ${round.length} submissions wait: ${problem}`);
        for (const item of round) outcomes.set(item.key, { kind: 'retry', cause: 'mail-problem' });
      } else {
        const writer = await (this.#writer ??= import('./round-writer.ts').then(({ createRoundWriter }) =>
          createRoundWriter(this.#env, { pacer: this.#pacer, fetch: this.#fetch, mail }),
        ));
        const { report, brokeOff, letters } = await writer.writeRound(round, outcomes);
        const store = this.#env.DEAD_LETTERS;
        for (const { body, reason } of letters) await deadLetter(store, body, reason);
        lettersKept = store !== undefined;
        if (brokeOff !== undefined) throw brokeOff;
        console.log(
          `Airtable writer: a round of ${round.length}, ${report.stored} records stored ` +
            `(${report.created} new, ${report.updated} updated, ${report.held} held), ${report.retried} retried, ` +
            `${letters.length} dead-lettered, ${this.#backlog.size} waiting, in ${((Date.now() - began) / 1000).toFixed(1)} s` +
            (mail
              ? `; ${report.emailsQueued} emails queued, ${report.emailsLimited} held back by limits`
              : ''),
        );
      }
    } catch (error) {
      // Unexpected (the writer gives every item its outcome): what had none is tried again shortly.
      console.error(
        `Airtable writer: a round broke off (${String(error)}); what it had not stored is tried again`,
      );
    } finally {
      await this.#settle(round, outcomes, lettersKept);
      for (const item of round) this.#busy.delete(item.group);
    }
  }

  /** The mail settings, read once: an instance's env never changes (a new deploy is a new instance). */
  #mailSetup?: ReturnType<typeof workerMail>;
  #writer?: Promise<ReturnType<typeof createRoundWriter>>;

  /** Writes items to storage (the last sequence number with them). */
  async #store(items: readonly DeskItem[]): Promise<void> {
    for (const part of inChunks(items, KEYS_PER_CALL - 1))
      await this.#state.storage.put({
        ...Object.fromEntries(part.map((item) => [item.key, item])),
        seq: this.#seq,
      });
  }

  /** The items, less those of an address erased after the door accepted them (desk/erasure.ts). */
  async #withoutErased(items: DeskItem[]): Promise<DeskItem[]> {
    if (this.#erased.size === 0) return items;
    return (await import('./erasure.ts')).withoutErased(items, this.#erased);
  }

  /**
   * Deletes what was written, dead-lettered (`lettersKept`) or erased, keeps what waits (one without
   * an outcome: the round broke off) for its wait, and dead-letters what ran out of tries.
   */
  async #settle(
    round: readonly DeskItem[],
    outcomes: ReadonlyMap<string, RoundOutcome>,
    lettersKept: boolean,
  ): Promise<void> {
    const again = round.flatMap((item) => {
      const outcome = outcomes.get(item.key) ?? ({ kind: 'retry', cause: 'broke-off' } as const);
      if (outcome.kind === 'written' || (outcome.kind === 'dead-letter' && lettersKept)) return [];
      const wait = waitSeconds(item.attempts, outcome.kind === 'retry' ? outcome.cause : 'failed');
      return [{ ...item, attempts: item.attempts + 1, notBefore: Date.now() + wait * 1000 }];
    });
    const later: DeskItem[] = [];
    for (const item of await this.#withoutErased(again))
      if (item.attempts <= SUBMISSION_TRIES) later.push(item);
      else await deadLetter(this.#env.DEAD_LETTERS, item.body, 'retries exhausted', console.log);
    const kept = new Set(later.map((item) => item.key));
    const gone = round.map((item) => item.key).filter((key) => !kept.has(key));
    for (const key of gone) this.#backlog.delete(key);
    for (const item of later) this.#backlog.set(item);
    for (const keys of inChunks(gone, KEYS_PER_CALL)) await this.#state.storage.delete(keys);
    await this.#store(later);
  }
}
