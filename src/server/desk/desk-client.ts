/**
 * The desk (desk.ts, one Durable Object) as the Worker reaches it: submissions handed over (POST /accept),
 * an address's waiting ones erased (POST /erase), its pacer lent to another client (POST /pace, /penalise).
 */
import { AIRTABLE_RATE_LIMIT_PENALTY_MS, type Pacer } from '#src/server/airtable/pacer.ts';
import type { DeskErasure } from './erasure.ts';

/** The desk's namespace (wrangler.jsonc `durable_objects`), as this Worker reaches it. */
export interface DeskNamespace {
  idFromName(name: string): unknown;
  get(id: unknown): { fetch(input: string, init?: RequestInit): Promise<Response> };
}

/** The name of the desk's one instance: every Worker reaches the same object. */
const DESK_NAME = 'airtable';

/** POSTs `body` to the desk's `path`; its answer, or a throw when it did not succeed. */
async function askDesk(namespace: DeskNamespace, path: string, body?: unknown): Promise<Response> {
  const desk = namespace.get(namespace.idFromName(DESK_NAME));
  const answer = await desk.fetch(`https://desk${path}`, { method: 'POST', body: JSON.stringify(body) });
  if (!answer.ok) throw new Error(`The Airtable desk answered ${answer.status}`);
  return answer;
}

/** Hands queue messages to the desk; resolves once it has kept them (then they may be acked). */
export function handToDesk(namespace: DeskNamespace, messages: readonly { id: string; body: unknown }[]) {
  const handed = messages.map(({ id, body }) => ({ id, body }));
  return askDesk(namespace, '/accept', handed);
}

/** Erasure's reach into the desk (erasure.ts): the email's waiting submissions dropped. */
export const eraseWaiting = async (namespace: DeskNamespace, email: string) =>
  (await (await askDesk(namespace, '/erase', { email })).json()) as DeskErasure;

/**
 * The desk's pacer, for an Airtable client outside it (a pressed link, the retention job): a slot
 * is asked of the desk, the request then goes from the caller, and a 429 it meets shuts the desk's pacer.
 */
export function deskPacer(namespace: DeskNamespace): Pacer {
  let closedUntil = 0;
  return {
    async acquire(withinMs = Number.POSITIVE_INFINITY) {
      try {
        const answer = await askDesk(namespace, `/pace?within=${withinMs}`);
        const { ok, closedFor } = (await answer.json()) as { ok: boolean; closedFor: number };
        closedUntil = Date.now() + closedFor;
        return ok;
      } catch {
        return false;
      }
    },
    penalise() {
      closedUntil = Date.now() + AIRTABLE_RATE_LIMIT_PENALTY_MS;
      void askDesk(namespace, '/penalise').catch(() => undefined);
    },
    closedFor: () => Math.max(0, closedUntil - Date.now()),
  };
}
