import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureTemporalBinaries } from '../../src/cli/supervision/setup.js';
import type { ResolvedBinary } from '../../src/cli/supervision/temporal-binaries.js';
import { cachedWorkflowBundle } from '../../src/worker/workflow-bundle-cache.js';
import { namespaceOf, startSharedDevServer, temporalTestFiles } from './temporal-servers.js';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalCli: ResolvedBinary;
    temporalTestServer: ResolvedBinary;
    workflowBundlePath: string;
    /** The dev server every file shares (`devServerEnvironment`), each on its own namespace. */
    sharedDevServerAddress: string;
  }
}

/**
 * Once per test run: find the Temporal servers, the workflow bundle for every worker, and
 * start the one dev server the files share (its errors in .evalflow/test/temporal-dev-server.log).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const binaries = await ensureTemporalBinaries();
  if (!('path' in binaries.cli)) throw new Error('no Temporal CLI for the shared dev server');
  const dir = resolve('.evalflow', 'test');
  mkdirSync(dir, { recursive: true });
  const bundlePath = join(dir, `workflow-bundle-${process.pid}.js`);
  // The engine's own cache under `.evalflow/`: bundled again only when a workflow source changed.
  const [bundle, devServer] = await Promise.all([
    cachedWorkflowBundle({ home: resolve('.evalflow'), tracing: false }),
    startSharedDevServer(
      binaries.cli.path,
      temporalTestFiles().map(namespaceOf),
      join(dir, 'temporal-dev-server.log'),
    ),
  ]);
  writeFileSync(bundlePath, bundle.code);
  project.provide('temporalCli', binaries.cli);
  project.provide('temporalTestServer', binaries.testServer);
  project.provide('workflowBundlePath', bundlePath);
  project.provide('sharedDevServerAddress', devServer.address);
  return async () => {
    await devServer.stop();
    rmSync(bundlePath, { force: true });
  };
}
