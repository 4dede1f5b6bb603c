// The messages of `evaluateRun`, shared by the workflow, the trigger relay and the tests.
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { EvaluationState, EvaluationTarget } from '../activities/types.js';
import type { MessageRole, RunEndStatus } from '../core/commands.js';
import type { RunStatus } from '../core/events.js';
import type { RunPlan } from '../evaluators/plans.js';
import type { EvaluatorRef } from '../evaluators/registry.js';

export interface EvaluateRunInput {
  workspaceId: string;
  runId: string;
  threadId: string;
  /** The evaluator versions pinned for this run when its workflow started. */
  plan: RunPlan;
  /** Evaluate each assistant message as it is posted instead of when the run ends. */
  online?: boolean;
  /** A run paused longer than this is evaluated as it stands and marked abandoned (30 days). */
  abandonAfterMs?: number;
  /** Evaluations in flight at once when the run ends (default 4). */
  concurrency?: number;
  /**
   * Past this many history events the workflow continues as new between batches of
   * evaluations (default 1,500: a batch adds at most a few hundred, and the goal is 2,000).
   */
  historyBudget?: number;
  /** State carried over continue-as-new. */
  carried?: EvaluateRunState;
}

/**
 * A fact about the run from the log, with its `seq`. They all travel as one signal because
 * signals of one name keep their order, while signals buffered before the workflow registers
 * its handlers are delivered handler by handler: an end could overtake the message before it.
 */
export type RunEvent =
  | { seq: number; type: 'started' }
  | { seq: number; type: 'paused' }
  | { seq: number; type: 'resumed' }
  | { seq: number; type: 'ended'; status: RunEndStatus }
  | { seq: number; type: 'message'; message_id: string; role: MessageRole }
  | { seq: number; type: 'artifact'; artifact_id: string; version: number };

export interface EvaluationStatus {
  target: EvaluationTarget;
  evaluator: EvaluatorRef;
  state: EvaluationState | 'pending';
  reason: string | null;
}

export interface EvaluateRunState {
  runId: string;
  status: RunStatus;
  /** Highest log seq applied. */
  lastSeq: number;
  pauses: number;
  /** Workflow time spent paused, in milliseconds. */
  pausedMs: number;
  pausedSince: number | null;
  /** Paused past `abandonAfterMs`: evaluated as it stood. */
  abandoned: boolean;
  startedAt: string;
  endedAt: string | null;
  /** The run's assistant messages and artifact versions, in the order posted. */
  messages: string[];
  artifacts: { artifact_id: string; version: number }[];
  /** Each (target, evaluator) pair's status, keyed by `{participant} {target key}`. */
  evaluations: Record<string, EvaluationStatus>;
}

/**
 * The run's events, one or more in seq order (the relay sends a page's at once); a seq already
 * applied is ignored. Histories recorded with one event per signal replay unchanged.
 */
export const runEventSignal = defineSignal<RunEvents>('runEvent');
export type RunEvents = [RunEvent, ...RunEvent[]];
export const runStateQuery = defineQuery<EvaluateRunState>('runState');

/** One workflow per run, workspace and store (`Store.id`). */
export function evaluateRunWorkflowId(storeId: string, workspaceId: string, runId: string): string {
  return `run:${storeId}:${workspaceId}:${runId}`;
}

export const DEFAULT_HISTORY_BUDGET = 1_500;
export const DEFAULT_ABANDON_AFTER_MS = 30 * 24 * 60 * 60 * 1000;
