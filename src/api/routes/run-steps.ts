import { stepsOfRun } from '../../traces/index.js';
import { wireSteps } from '../../wire/entities.js';
import type { RouteDeps } from './context.js';

/** A run's steps from its stored traces, as a run's read and a trace's list of runs answer them. */
export async function runStepsOf(
  deps: RouteDeps,
  workspaceId: string,
  run: { run_id: string; trace_ids: readonly string[] },
) {
  return wireSteps(await stepsOfRun(deps.store.traceSpans, workspaceId, run));
}
