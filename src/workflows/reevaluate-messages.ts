// The messages of `reevaluate`, a batch re-evaluation of artifact versions.
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { ArtifactVersionKey, ArtifactVersionSelector } from '../activities/types.js';
import type { EvaluatorRef } from '../evaluators/registry.js';

export interface ReevaluateInput {
  workspaceId: string;
  /** The generation of the verdicts: the same id again records nothing twice, a new one appends. */
  batchId: string;
  selector: ArtifactVersionSelector;
  /** The evaluator versions pinned for the whole batch. */
  evaluators: EvaluatorRef[];
  /** Evaluations in flight at once (default 8). */
  concurrency?: number;
  /** Versions per page; each page is one run of the workflow (default 100). */
  pageSize?: number;
  carried?: { after: ArtifactVersionKey | null; progress: ReevaluateProgress; paused: boolean };
}

export interface ReevaluateProgress {
  /** Versions × evaluators selected when the batch started. */
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
  cancelled: boolean;
}

export const pauseBatchSignal = defineSignal('pauseBatch');
export const resumeBatchSignal = defineSignal('resumeBatch');
/** Stops scheduling, lets evaluations in flight finish, and completes with the progress. */
export const cancelBatchSignal = defineSignal('cancelBatch');
export const batchProgressQuery = defineQuery<ReevaluateProgress>('batchProgress');

/** One workflow per batch, workspace and store (`Store.id`). */
export const reevaluateWorkflowId = (storeId: string, workspaceId: string, batchId: string) =>
  `reevaluate:${storeId}:${workspaceId}:${batchId}`;
