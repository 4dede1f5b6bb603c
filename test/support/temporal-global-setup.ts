import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureTemporalBinaries } from '../../src/cli/supervision/setup.js';
import type { ResolvedBinary } from '../../src/cli/supervision/temporal-binaries.js';
import { bundleWorkflows } from '../../src/worker/create-worker.js';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalCli: ResolvedBinary;
    temporalTestServer: ResolvedBinary;
    workflowBundlePath: string;
  }
}

/** Once per test run: find the Temporal servers and bundle the workflow code for every worker. */
export default async function setup(project: TestProject): Promise<() => void> {
  const binaries = await ensureTemporalBinaries();
  const dir = resolve('.evalflow', 'test');
  mkdirSync(dir, { recursive: true });
  const bundlePath = join(dir, `workflow-bundle-${process.pid}.js`);
  writeFileSync(bundlePath, (await bundleWorkflows()).code);
  project.provide('temporalCli', binaries.cli);
  project.provide('temporalTestServer', binaries.testServer);
  project.provide('workflowBundlePath', bundlePath);
  return () => rmSync(bundlePath, { force: true });
}
