import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import SlowestFirst from './test/support/slowest-first.js';

// Each project needs what its name says, and `npm test` runs them all side by side: one file more
// than the machine has cores, since most of a Temporal file's time is spent waiting on servers and
// processes (vitest's own default leaves a core idle, which on two cores is one file at a time).
// `npm run test:unit` runs `unit` alone: no Temporal server, no Postgres, nothing installed.
// - temporal: *.temporal.test.ts share one Temporal dev server that the global setup starts,
//   each file on a namespace of its own (test/support/temporal.ts), so they run side by side too.
// - postgres: *.postgres.test.ts and postgres*.test.ts use Postgres (DATABASE_URL, else a
//   throwaway cluster from Debian's postgresql); each file works in a schema of its own.
// - installs: tests that install packages first: the package packed and installed, a fresh
//   clone's npm install (test/package), the Python reference implementations' virtual
//   environment (test/agreement/reference.test.ts).
// The forks pool is required by the Temporal SDK's native bridge (threads break it).
const temporalFiles = 'test/**/*.temporal.test.ts';
const postgresFiles = ['test/**/*.postgres.test.ts', 'test/**/postgres*.test.ts'];
const installFiles = ['test/package/**/*.test.ts', 'test/agreement/reference.test.ts'];

// In the repository, `evalflow/...` imports resolve to the sources (package.json's
// `evalflow-source` condition), not to a `dist` that may be stale or absent.
const conditions = ['evalflow-source'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: conditions } },
  test: {
    pool: 'forks',
    maxWorkers: availableParallelism() + 1,
    sequence: { sequencer: SlowestFirst },
    teardownTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [temporalFiles, ...postgresFiles, ...installFiles],
          // A worker runs file after file without loading every module again (a third of the
          // project's time). So a unit test leaves nothing behind: it restores what it changes
          // (timers, spies, the folder, the environment) and runs the CLI on a terminal of its own.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: postgresFiles,
          exclude: [temporalFiles],
          globalSetup: ['test/support/postgres-global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'installs',
          include: installFiles,
          testTimeout: 60_000,
          hookTimeout: 300_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'temporal',
          include: [temporalFiles],
          globalSetup: ['test/support/temporal-global-setup.ts'],
          // What a test polls for crosses the API, the store and a Temporal worker: on a loaded
          // two-core machine that takes longer than expect.poll's default second.
          expect: { poll: { timeout: 15_000 } },
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
