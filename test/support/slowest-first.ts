import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Files run side by side, one per core, so the run lasts at least as long as its slowest file
// plus whatever started before it on its worker: the slowest start first. vitest orders by the
// last run's durations when it has them (its cache under node_modules), and a fresh clone has
// none, so these, measured on a two-core machine (`vitest run --reporter=json`), go first there
// too, in this order. A file missing here only starts later; a stale entry only costs order.
const SLOWEST = [
  'test/clients/python.temporal.test.ts',
  'test/cli/commands.temporal.test.ts',
  'test/workflows/thread-time-skipping.temporal.test.ts',
  'test/cli/api-process.temporal.test.ts',
  'test/chaos/thread-worker-kills.temporal.test.ts',
  'test/ui/workbench.temporal.test.ts',
  'test/package/pack.test.ts',
  'test/package/fresh-clone.test.ts',
  'test/agreement/reference.test.ts',
  'test/workflows/evaluation-dev-server.temporal.test.ts',
  'test/chaos/worker-kills.temporal.test.ts',
  'test/clients/typescript-host.temporal.test.ts',
  'test/chaos/api-boundaries.temporal.test.ts',
  'test/api/review-queues-load.temporal.test.ts',
];

export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const at = SLOWEST.indexOf(relative(this.ctx.config.root, file.moduleId));
      return at === -1 ? SLOWEST.length : at;
    };
    // Array.prototype.sort is stable: the rest keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
