import {
  allHandlersFinished,
  condition,
  continueAsNew,
  type Workflow,
  workflowInfo,
} from '@temporalio/workflow';

// How a long-lived workflow carries its state into a new run before its history grows past what
// replays quickly: the one way every workflow here continues as new.

/** Temporal suggests continuing as new (at thousands of events, or a large history). */
export const suggested = (): boolean => workflowInfo().continueAsNewSuggested;

/** Whether the history should move on: Temporal suggests it, or it holds more than `budget` events. */
export const historyIsLong = (budget = Number.POSITIVE_INFINITY): boolean =>
  suggested() || workflowInfo().historyLength > budget;

/** Continues as new once every signal and update handler has finished, so none is cut short. */
export async function carryOver<W extends Workflow>(...args: Parameters<W>): Promise<never> {
  await condition(allHandlersFinished);
  return continueAsNew<W>(...args);
}
