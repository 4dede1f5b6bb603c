// The bench worker's bundle: evalflow's workflows plus the baseline they are measured against.
import { proxyActivities } from '@temporalio/workflow';

export * from '../src/workflows/index.js';

const { noop } = proxyActivities<{ noop(): Promise<void> }>({ startToCloseTimeout: '1 minute' });

/** The baseline: a workflow that runs three no-op activities one after another. */
export async function bareRun(): Promise<void> {
  for (let i = 0; i < 3; i++) await noop();
}
