// The messages of `reevaluate`, a batch re-evaluation: of artifact versions, or a backfill of
// runs (turns), messages or threads.
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type {
  ArtifactVersionKey,
  ArtifactVersionSelector,
  BackfillCursor,
  BackfillSelection,
} from '../activities/types.js';
import type { EvaluatorRef } from '../evaluators/registry.js';

export interface ReevaluateInput {
  workspaceId: string;
  /** The generation of the verdicts: the same id again records nothing twice, a new one appends. */
  batchId: string;
  /** Artifact versions to judge again (a batch names this or `selection`). */
  selector?: ArtifactVersionSelector;
  /** Runs (turns), messages or threads to judge: a backfill. */
  selection?: BackfillSelection;
  /** The evaluator versions pinned for the whole batch. */
  evaluators: EvaluatorRef[];
  /** Evaluations in flight at once (default 8). */
  concurrency?: number;
  /** Versions per page; each page is one run of the workflow (default 100). */
  pageSize?: number;
  /** The batch's budget in nano-dollars: it pauses when its spend reaches it. */
  maxCostNanos?: number;
  carried?: {
    after: ArtifactVersionKey | BackfillCursor | null;
    progress: ReevaluateProgress;
    paused: boolean;
    /** A backfill's targets taken so far, for its limit. */
    selected?: number;
  };
}

/** Why a batch is paused: asked to (`pauseBatch`), or its spend reached its budget. */
export const batchPauseReasons = ['request', 'budget'] as const;
export type BatchPauseReason = (typeof batchPauseReasons)[number];

export interface ReevaluateProgress {
  /** Targets × evaluators selected when the batch started. */
  total: number;
  /** Settled pairs: recorded, sampled out, failed or skipped. */
  done: number;
  recorded: number;
  sampledOut: number;
  failed: number;
  skipped: number;
  /** Evaluations started and not yet settled (0 in a progress carried from an earlier page). */
  inFlight: number;
  paused: boolean;
  /** Why it is paused; null while it runs (absent in a progress from before budgets). */
  pausedBy?: BatchPauseReason | null;
  /** Nano-dollars recorded under the batch's generation, as last read (read with a budget). */
  spentNanos?: number;
  /** The budget now, in nano-dollars; null for none. */
  maxCostNanos?: number | null;
  cancelled: boolean;
}

export const pauseBatchSignal = defineSignal('pauseBatch');
export const resumeBatchSignal = defineSignal('resumeBatch');
/** Sets the batch's budget (nano-dollars); a batch paused by its budget resumes when it is above the spend. */
export const setBatchBudgetSignal = defineSignal<[maxCostNanos: number]>('setBatchBudget');
/** Stops scheduling, lets evaluations in flight finish, and completes with the progress. */
export const cancelBatchSignal = defineSignal('cancelBatch');
export const batchProgressQuery = defineQuery<ReevaluateProgress>('batchProgress');

/** One workflow per batch, workspace and store (`Store.id`). */
export const reevaluateWorkflowId = (storeId: string, workspaceId: string, batchId: string) =>
  `reevaluate:${storeId}:${workspaceId}:${batchId}`;
