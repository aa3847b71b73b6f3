import { type QueueMessage } from '#src/server/queues/messages.ts';

/** A queue message as the runtime hands it over, recording whether it was acked or retried. */
export function queueMessage(body: unknown, attempts = 1) {
  const state = { acked: false, retried: undefined as undefined | { delaySeconds?: number } };
  const msg: QueueMessage = {
    id: Math.random().toString(36),
    body,
    attempts,
    ack: () => {
      state.acked = true;
    },
    retry: (options) => {
      state.retried = options ?? {};
    },
  };
  return { msg, state };
}
