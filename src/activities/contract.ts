// The activities' inputs and outputs: the only thing workflow code knows of them (types only).
import type { Target } from '../core/targets.js';
import type { EvaluatorRef } from '../evaluators/registry.js';

/** What an evaluator judges: a run (turn), a message, or an artifact version. */
export type EvaluationTarget =
  | { kind: 'turn'; run_id: string }
  | { kind: 'message'; message_id: string; thread_id: string; run_id: string | null }
  | { kind: 'artifact'; artifact_id: string; version: number };

/** The one final state of each (target, evaluator version, generation). */
export type EvaluationState = 'recorded' | 'sampled_out' | 'failed' | 'skipped';

export interface EvaluationKey {
  workspaceId: string;
  evaluator: EvaluatorRef;
  target: EvaluationTarget;
  /** `run` for a run's own evaluation; a batch id for a re-evaluation. */
  generation: string;
}

export interface EvaluateInput extends EvaluationKey {
  /** The evaluating workflow's id: with the rest of the key it names the verdict's envelope. */
  workflowId: string;
}

export type EvaluateResult =
  | { outcome: 'verdict'; value: Record<string, unknown> }
  /** Already settled in the ledger by an earlier attempt or run of this generation. */
  | { outcome: 'settled'; state: EvaluationState }
  | { outcome: 'sampled_out' }
  | { outcome: 'skipped'; reason: string };

export interface GiveFeedbackInput extends EvaluateInput {
  value: Record<string, unknown>;
}

export interface SettleInput extends EvaluationKey {
  state: Exclude<EvaluationState, 'recorded'>;
  reason: string;
}

export interface ArtifactSelector {
  artifactIds?: string[];
  kind?: string;
  /** ISO-8601 times: versions put at or after `from` and before `to`. */
  createdFrom?: string;
  createdTo?: string;
  /** Only each artifact's latest version. */
  latestOnly?: boolean;
}

export interface ArtifactVersionRef {
  artifact_id: string;
  version: number;
}

export interface ListVersionsInput {
  workspaceId: string;
  selector: ArtifactSelector;
  /** Keyset: the last version of the previous page. */
  after: ArtifactVersionRef | null;
  limit: number;
}

export interface MirrorInput {
  workspaceId: string;
  afterSeq: number;
  limit: number;
}

export interface MirrorResult {
  /** The last seq read; the next call starts after it. */
  lastSeq: number;
  /** Ids of the scores recorded, now expected to become visible. */
  recorded: string[];
  /** Ids of the scores the sink refused for good, settled as failed. */
  failed: string[];
  deleted: string[];
}

export interface ReconcileInput {
  workspaceId: string;
  ids: string[];
  /** The last check: what is still missing is marked failed instead of re-sent. */
  final: boolean;
}

export interface ReconcileResult {
  confirmed: string[];
  /** Sent again, to be checked at the next delay. */
  missing: string[];
  /** Settled as failed: still missing on the final check, or refused by the sink. */
  failed: string[];
}

export type ReviewAction = 'submit' | 'revise' | 'withdraw';

export interface ApplyReviewInput {
  workspaceId: string;
  target: Target;
  kind: ReviewAction;
  /** The verified caller; the workflow passes it through, never a request's body. */
  reviewer: { id: string; name?: string };
  feedback_type: string;
  value: Record<string, unknown> | null;
  /** Names the store command, so a retried activity or update records once. */
  requestId: string;
}

/** The stored result of a review action: what the store recorded, or why it refused. */
export type ReviewOutcome =
  | {
      type: 'recorded';
      seq: number;
      envelope_id: string | null;
      is_update: boolean;
      removed?: boolean;
    }
  | {
      type: 'not_found' | 'invalid_state' | 'validation_failed' | 'forbidden' | 'conflict';
      message: string;
    };

export interface EvalflowActivities {
  evaluate(input: EvaluateInput): Promise<EvaluateResult>;
  giveFeedback(input: GiveFeedbackInput): Promise<{ envelopeId: string }>;
  settleEvaluation(input: SettleInput): Promise<void>;
  countArtifactVersions(input: Omit<ListVersionsInput, 'after' | 'limit'>): Promise<number>;
  listArtifactVersions(input: ListVersionsInput): Promise<ArtifactVersionRef[]>;
  applyReview(input: ApplyReviewInput): Promise<ReviewOutcome>;
  mirrorScores(input: MirrorInput): Promise<MirrorResult>;
  reconcileScores(input: ReconcileInput): Promise<ReconcileResult>;
}
