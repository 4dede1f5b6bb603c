// The bench worker's bundle: evalflow's workflows plus the baseline they are measured against.
import { proxyActivities } from '@temporalio/workflow';

export * from '../src/workflows/index.js';

const { noop } = proxyActivities<{ noop(): Promise<void> }>({ startToCloseTimeout: '1 minute' });

/**
 * The baseline: a workflow of as many no-op activities as an evaluated run of 3 turn evaluators
 * has (one `evaluate` each), in the same shape: all three at once.
 */
export async function bareRun(): Promise<void> {
  await Promise.all([noop(), noop(), noop()]);
}

/**
 * The round-trip baseline: three no-op activities one after another, the critical path from a
 * run's end to its confirmed scores (judge, mirror, read back).
 */
export async function bareChain(): Promise<void> {
  for (let i = 0; i < 3; i++) await noop();
}
