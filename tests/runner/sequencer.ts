import type { TestSequencer, TestSpecification, Vitest } from 'vitest/node';
import { runsWorkerd } from './workerd-files.mjs';

/**
 * Vitest's own order (failed first, then longest first from its cache, else largest file first),
 * with the files that run the Worker in workerd moved to the front. They spend most of their time
 * waiting on the Worker's queues, so started first they run beside the rest of the integration
 * suite instead of making its tail (on a fresh clone, with no cache, they would start last).
 */
export class WorkerdFirstSequencer implements TestSequencer {
  private base: Promise<TestSequencer>;

  constructor(ctx: Vitest) {
    // Loaded here, not at the top: vite.config.ts is also what `vite build` reads.
    this.base = import('vitest/node').then(({ BaseSequencer }) => new BaseSequencer(ctx));
  }

  async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    return (await this.base).shard(files);
  }

  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await (await this.base).sort(files);
    const workerd = sorted.filter((file) => runsWorkerd(file.moduleId));
    return [...workerd, ...sorted.filter((file) => !workerd.includes(file))];
  }
}
