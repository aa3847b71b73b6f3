import { expect } from 'vitest';
import { FORMS, type FormName } from '#src/lib/forms/forms.ts';
import { enhancedPost } from './door.ts';
import type { WorkerUnderTest } from './worker.ts';

/** Past the writer's 30 s bound on one request (queue-writer.ts). */
export const LANDS_AFTER_MS = 45_000;

/**
 * Posts one submission whose first write Airtable applies LANDS_AFTER_MS late, waits until that
 * late write has landed, and answers the records stored for the address.
 */
export async function lateWrite(
  { worker, emulator }: WorkerUnderTest,
  form: FormName,
  values: Record<string, string | readonly string[]>,
) {
  const email = String(values.email);
  const table = FORMS[form].table;
  emulator.addFaults({
    kind: 'delay',
    delayMs: LANDS_AFTER_MS,
    count: 1,
    table,
    method: 'PATCH',
    match: email,
  });
  expect((await enhancedPost(`${worker.url}${FORMS[form].path}`, values)).status).toBe(200);
  // The first write (the late one) is applied once its delay is over; by then the writer gave up
  // on it (30 s) and tried again, and the retry's lookup found nothing yet.
  const patches = () =>
    emulator.requests().filter((entry) => entry.method === 'PATCH' && entry.table === table);
  await expect
    .poll(() => patches().map((entry) => entry.status), { timeout: LANDS_AFTER_MS + 30_000, interval: 500 })
    .toEqual([200, 200]);
  return emulator.records(table).filter((record) => record.fields.Email === email);
}
