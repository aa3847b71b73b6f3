/**
 * Runs tasks for one key one after another; different keys never wait on each other. The storage
 * layer (one browser tab) and the server's synchronous store (one instance) both queue upserts of
 * one address this way: a lookup then a write cannot be made atomic, so two side by side would
 * both find nothing and both create.
 */
export function keyedSerialiser() {
  const tails = new Map<string, Promise<unknown>>();
  return <T>(key: string, task: () => Promise<T>): Promise<T> => {
    const previous = tails.get(key) ?? Promise.resolve();
    const run = previous.then(task, task);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };
}

/** The key records are serialised, merged and limited on: one table, one stored email. */
export function submissionKey(table: string, normalisedEmail: string): string {
  return `${table}\u0000${normalisedEmail}`;
}
