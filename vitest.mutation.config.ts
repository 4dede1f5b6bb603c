import { relative } from 'node:path';
import { defineConfig, type Plugin } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The tests `npm run test:mutation` runs against each mutant of src/core and src/scores: the unit
// tests that exercise those folders, nothing that starts Temporal. The store's outage test is
// left out too: it crashes its own Postgres on purpose, which is slow and pins no rule of theirs.
const conditions = ['evalflow-source'];

// Stryker's vitest runner asks for the threads pool, and vitest passes that on to every project;
// the store's tests need forks, as in vitest.config.ts (one changes directory, which a worker
// thread cannot). The resolved config is the last word, so the pool is set back there.
const forksPool: Plugin = {
  name: 'evalflow:mutation-forks-pool',
  configResolved(config) {
    const resolved = config as { test?: { pool?: string } };
    resolved.test = { ...resolved.test, pool: 'forks' };
  },
};

// Stryker stops a mutant's run at its first failing test, so the cheapest files go first: the
// file that failed last (the previous mutant, often the same rule's) and then the quickest by
// their last run. Vitest's own order runs the slowest first, which for most mutants is the
// store fuzz, seconds long, whatever kills them.
class CheapestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const last = (file: TestSpecification) =>
      this.ctx.cache.getFileTestResults(
        `${file.project.name}:${relative(this.ctx.config.root, file.moduleId)}`,
      );
    // Unknown files rank as passing instantly: once run, they have a place of their own.
    const rank = (file: TestSpecification): [number, number] => {
      const result = last(file);
      return result === undefined ? [1, 0] : [result.failed ? 0 : 1, result.duration];
    };
    return [...files].sort((a, b) => {
      const [failedA, durationA] = rank(a);
      const [failedB, durationB] = rank(b);
      return failedA - failedB || durationA - durationB;
    });
  }
}

export default defineConfig({
  plugins: [forksPool],
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: conditions } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'mutation',
          include: [
            'test/core/**/*.test.ts',
            'test/scores/**/*.test.ts',
            'test/conformance/**/*.test.ts',
            'test/testing/**/*.test.ts',
            'test/store/**/*.test.ts',
          ],
          exclude: ['test/**/*.temporal.test.ts', 'test/store/postgres-outage.test.ts'],
          globalSetup: ['test/support/postgres-global-setup.ts'],
          sequence: { sequencer: CheapestFirstSequencer },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
