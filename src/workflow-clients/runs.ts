import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import type { StoreIdentity } from '../store/index.js';
import {
  type EvaluateRunState,
  evaluateRunWorkflowId,
  runStateQuery,
} from '../workflows/evaluate-run-messages.js';

/**
 * A run's evaluation as its workflow holds it: status, pauses, and each (target, evaluator
 * version)'s state and reason. Null when the run has no workflow (yet, or any more).
 */
export async function runEvaluationState(
  client: Client,
  /** The store the run is recorded in (its id scopes the workflow ids). */
  store: StoreIdentity,
  workspaceId: string,
  runId: string,
): Promise<EvaluateRunState | null> {
  try {
    return await client.workflow
      .getHandle(evaluateRunWorkflowId(store.id, workspaceId, runId))
      .query(runStateQuery);
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return null;
    throw error;
  }
}
