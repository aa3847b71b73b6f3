// A worker thread's entry: Node 20 does not pass tsx's loader to threads, so it registers it
// here and then loads the thread's TypeScript module (workerData.module).
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';

register();
await import(workerData.module);
