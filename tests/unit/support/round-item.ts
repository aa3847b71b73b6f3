import type { createRoundWriter, RoundOutcome } from '#src/server/desk/round-writer.ts';
import type { RoundItem } from '#src/server/desk/submission-upsert.ts';
import type { DeadLetterBody } from '#src/server/queues/dead-letters.ts';
import { isSubmission } from '#src/lib/forms/submission.ts';
import { waitSeconds } from '#src/server/desk/retry-rule.ts';

/** A submission of a round as the desk keeps it, recording whether it was written (acked) or retried. */
export function roundItem(body: unknown, attempts = 1) {
  const state = { acked: false, retried: undefined as undefined | { delaySeconds?: number } };
  const msg: RoundItem = { key: Math.random().toString(36), body, attempts };
  return { msg, state };
}

/**
 * Writes the items as one round and records each outcome as the desk settles it, as it comes:
 * written, acked; retried after its wait; a dead letter, kept by `keep` (then acked) or, with none, retried.
 */
export async function writeRound(
  writer: ReturnType<typeof createRoundWriter>,
  entries: readonly ReturnType<typeof roundItem>[],
  keep?: (letter: DeadLetterBody, reason: string) => void,
) {
  const states = new Map(entries.map(({ msg, state }) => [msg.key, { msg, state }]));
  const record = (key: string, outcome: RoundOutcome) => {
    const entry = states.get(key);
    if (!entry) return;
    const { msg, state } = entry;
    if (outcome.kind === 'written' || (outcome.kind === 'dead-letter' && keep)) state.acked = true;
    else if (outcome.kind === 'retry')
      state.retried = { delaySeconds: waitSeconds(msg.attempts, outcome.cause) };
    else state.retried = { delaySeconds: waitSeconds(msg.attempts, 'failed') };
  };
  class Recording extends Map<string, RoundOutcome> {
    override set(key: string, outcome: RoundOutcome) {
      record(key, outcome);
      return super.set(key, outcome);
    }
  }
  const { report, letters } = await writer.writeRound(
    entries.map((entry) => entry.msg),
    new Recording(),
  );
  for (const { body, reason } of letters)
    keep?.(isSubmission(body) ? { submission: body } : { unreadable: body }, reason);
  // Its dead letters counted from the letters, as the desk's log counts them.
  return { ...report, deadLettered: letters.length };
}
