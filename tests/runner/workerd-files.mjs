// @ts-check
import { readFileSync } from 'node:fs';

/**
 * What marks a test file that runs the Worker in workerd (`wrangler dev`): it starts one itself
 * (`startWorker`, `useWorker`) or runs the rush in queued mode. Such a file spends most of its
 * time waiting on the Worker's queues, and runs on the real clock.
 */
export const RUNS_WORKERD = /\b(startWorker|useWorker)\(|mode: 'queued'/;

/** Whether the test file at `path` runs the Worker in workerd. @param {string} path */
export function runsWorkerd(path) {
  return RUNS_WORKERD.test(readFileSync(path, 'utf8'));
}
