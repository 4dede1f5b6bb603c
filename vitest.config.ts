import { defineConfig } from 'vitest/config';

// Files named *.temporal.test.ts start a Temporal server each, so they run one at a time in their
// own project; everything else runs in parallel beside them. The forks pool is required by the
// Temporal SDK's native bridge (threads break it).
const temporalFiles = 'test/**/*.temporal.test.ts';

// In the repository, `evalflow/...` imports resolve to the sources (package.json's
// `evalflow-source` condition), not to a `dist` that may be stale or absent.
const conditions = ['evalflow-source'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: conditions } },
  test: {
    pool: 'forks',
    teardownTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          globalSetup: ['test/support/postgres-global-setup.ts'],
          exclude: [temporalFiles],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'temporal',
          include: [temporalFiles],
          globalSetup: ['test/support/temporal-global-setup.ts'],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
