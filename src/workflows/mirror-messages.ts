// The messages of `mirror`, one workflow per workspace that turns feedback into scores.
import { defineQuery, defineSignal } from '@temporalio/workflow';

/** Re-check times after a batch is sent: Langfuse may take minutes to show (or drop) a score. */
export const RECONCILE_DELAYS_MS = [30_000, 120_000, 600_000, 3_600_000, 21_600_000];

export interface MirrorInput {
  workspaceId: string;
  /** Feedback events read per activity (default 200). */
  batchSize?: number;
  reconcileDelaysMs?: number[];
  carried?: MirrorState;
}

/** A batch of scores awaiting its next read-back: of writes, or (`deletes`) of deletes. */
export interface PendingCheck {
  ids: string[];
  /** Checks carried from before deletes were read back have none: they are writes. */
  deletes?: true;
  /** Index of the delay this check waits out; the last one is final. */
  attempt: number;
  dueAt: number;
}

/**
 * `deleted` counts deletes read back gone; `resent` counts writes and deletes sent again;
 * `failed` counts both kinds and feedback of undeclared types.
 */
export interface MirrorState {
  /** Highest feedback seq signalled. */
  seenSeq: number;
  /** Highest seq turned into scores. */
  mirroredSeq: number;
  checks: PendingCheck[];
  recorded: number;
  confirmed: number;
  resent: number;
  failed: number;
  deleted: number;
}

export const feedbackAppendedSignal = defineSignal<[{ seq: number }]>('feedbackAppended');
export const mirrorStateQuery = defineQuery<MirrorState>('mirrorState');

/** One workflow per workspace and store (`Store.id`). */
export const mirrorWorkflowId = (storeId: string, workspaceId: string) =>
  `mirror:${storeId}:${workspaceId}`;
