// The messages of `evaluateThread`, shared by the workflow, the trigger relay and the tests.
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { EvaluationState } from '../activities/types.js';
import type { ThreadEvaluatorRef } from '../evaluators/registry.js';

export interface EvaluateThreadInput {
  workspaceId: string;
  threadId: string;
  /** A run paused longer than this no longer keeps its thread from being quiet (30 days). */
  abandonAfterMs?: number;
  /** Evaluations in flight at once when a generation is judged (default 4). */
  concurrency?: number;
  /** Past this many history events the workflow continues as new while it waits (default 500). */
  historyBudget?: number;
  /** State carried over continue-as-new. */
  carried?: EvaluateThreadState;
}

/**
 * A fact about the thread from the log, with its `seq`. A run starting (or resuming) and a
 * message are activity: they carry the thread evaluators live at their seq (each with its
 * `idleForMs`), which a generation opened by them pins. All travel as one signal, in seq order.
 */
export type ThreadEvent =
  | { seq: number; type: 'run_started'; run_id: string; plan: ThreadEvaluatorRef[] }
  | { seq: number; type: 'run_paused'; run_id: string }
  | { seq: number; type: 'run_ended'; run_id: string }
  | { seq: number; type: 'message'; plan: ThreadEvaluatorRef[] }
  /** The host ended the thread (`end_thread`): what is open is judged at once. */
  | { seq: number; type: 'ended' };

/** One evaluator's generation of the thread, opened by activity and waiting to be judged. */
export interface OpenGeneration {
  evaluator: ThreadEvaluatorRef;
  /** The seq of the activity that opened it. */
  openedSeq: number;
}

/** How an evaluator's latest generation of the thread ended. */
export interface ThreadVerdictStatus {
  generation: string;
  throughSeq: number;
  state: EvaluationState;
  reason: string | null;
}

export interface EvaluateThreadState {
  threadId: string;
  /** The last seq an earlier workflow of the thread applied; null until it has been read. */
  appliedThrough: number | null;
  /** Highest log seq applied. */
  lastSeq: number;
  /** Events received but not applied yet: before the progress is read, or behind an end. */
  inbox: ThreadEvent[];
  /** The thread's open runs, with when each paused (workflow time), null while running. */
  runs: Record<string, { pausedAt: number | null }>;
  /** Workflow time of the last activity: the quiet is measured from it. */
  lastActivityAt: number;
  /** The host ended the thread while generations were open: they are judged now. */
  ended: boolean;
  /** Open generations, by evaluator version (`name@version`). */
  open: Record<string, OpenGeneration>;
  /** Each evaluator version's latest judged generation. */
  latest: Record<string, ThreadVerdictStatus>;
}

/** The thread's events; a seq already applied is ignored. */
export const threadEventSignal = defineSignal<[ThreadEvent]>('threadEvent');
export const threadStateQuery = defineQuery<EvaluateThreadState>('threadState');

/** One workflow per thread, workspace and store (`Store.id`); a new one after each closes. */
export function evaluateThreadWorkflowId(
  storeId: string,
  workspaceId: string,
  threadId: string,
): string {
  return `thread:${storeId}:${workspaceId}:${threadId}`;
}

export const DEFAULT_THREAD_HISTORY_BUDGET = 500;
