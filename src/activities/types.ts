// The activities' inputs and outputs: the only thing workflow code knows of them (types only).
// Their words are the core's and the store's, imported, never restated.
import type { RunEndStatus } from '../core/commands.js';
import type { EvaluationState } from '../core/ledger-states.js';
import type { RejectionType } from '../core/rejections.js';
import type { EvaluationTarget, Target } from '../core/targets.js';
import type { EvaluatorRef } from '../evaluators/registry.js';
import type {
  ArtifactVersionKey,
  ArtifactVersionSelector,
} from '../store/reads/artifact-versions.js';
import type {
  BackfillCountInput,
  BackfillCounts,
  BackfillPage,
  BackfillPageInput,
  BackfillSelection,
} from '../store/reads/backfill-selection.js';
import type { BackfillCursor } from '../store/reads/backfill-targets.js';

export type {
  ArtifactVersionKey,
  ArtifactVersionSelector,
  BackfillCountInput,
  BackfillCounts,
  BackfillCursor,
  BackfillPage,
  BackfillPageInput,
  BackfillSelection,
  EvaluationState,
  EvaluationTarget,
};

export interface BatchSpendInput {
  workspaceId: string;
  batchId: string;
}

export interface EvaluationKey {
  workspaceId: string;
  evaluator: EvaluatorRef;
  target: EvaluationTarget;
  /**
   * `run` for a run's own evaluation; a batch id for a re-evaluation; for a thread,
   * `thread:{seq}`, the last seq of the log its generation covers.
   */
  generation: string;
}

export interface EvaluateInput extends EvaluationKey {
  /** The evaluating workflow's id: with the rest of the key it names the verdict's envelope. */
  workflowId: string;
  /**
   * Give the verdict in the same activity (outcome `recorded`) instead of returning it for
   * `giveFeedback`: one activity per evaluation. Workflows started before it was set keep the
   * two-step path on replay.
   */
  record?: boolean;
  /** A thread's generation: its subject is the conversation up to this seq. */
  throughSeq?: number;
}

export type EvaluateResult =
  | { outcome: 'verdict'; value: Record<string, unknown> }
  /** Judged and given (`record`), settled as recorded in the ledger. */
  | { outcome: 'recorded' }
  /** Already settled in the ledger by an earlier attempt or run of this generation. */
  | { outcome: 'settled'; state: EvaluationState }
  | { outcome: 'sampled_out' }
  | { outcome: 'skipped'; reason: string }
  /** A budget in force is spent and says `defer`: judge again once `untilMs` (its next period) comes. */
  | { outcome: 'deferred'; reason: string; untilMs: number };

export interface GiveFeedbackInput extends EvaluateInput {
  value: Record<string, unknown>;
}

export interface SettleInput extends EvaluationKey {
  state: Exclude<EvaluationState, 'recorded'>;
  reason: string;
}

export interface ListVersionsInput {
  workspaceId: string;
  selector: ArtifactVersionSelector;
  /** Keyset: the last version of the previous page. */
  after: ArtifactVersionKey | null;
  limit: number;
}

export interface MirrorScoresInput {
  workspaceId: string;
  afterSeq: number;
  limit: number;
}

export interface MirrorResult {
  /** The last seq read; the next call starts after it. */
  lastSeq: number;
  /** Ids of the scores recorded, now expected to become visible. */
  recorded: string[];
  /**
   * Ids settled as failed: scores the sink refused for good, deletes it refused, and the entries
   * of feedback whose type the app does not declare.
   */
  failed: string[];
  /** Ids of the scores whose delete was sent, now expected to vanish (`reconcileDeletes`). */
  deleting?: string[];
  /** Only in results recorded before deletes were read back: ids settled as deleted at once. */
  deleted?: string[];
}

export interface ReconcileInput {
  workspaceId: string;
  ids: string[];
  /** The last check: what is still missing is marked failed instead of re-sent. */
  final: boolean;
}

/** A read-back of writes (`reconcileScores`) or of deletes (`reconcileDeletes`). */
export interface ReconcileResult {
  /** Settled: a write visible with the value sent, a delete gone. */
  confirmed: string[];
  /** Sent again (written, or deleted), to be checked at the next delay. */
  missing: string[];
  /** Settled as failed: still not as sent on the final check, or refused by the sink. */
  failed: string[];
}

export interface ThreadRef {
  workspaceId: string;
  threadId: string;
}

/** Where a thread's workflow left off, for one that starts after an earlier one closed. */
export interface ThreadProgress {
  /** The last seq an earlier workflow of the thread applied: events up to it are repeats. */
  appliedThrough: number;
  /** Its runs still open (running or paused) now, which keep the thread from being quiet. */
  openRuns: { run_id: string; paused: boolean }[];
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
  | { type: RejectionType; message: string };

export interface EvalflowActivities {
  evaluate(input: EvaluateInput): Promise<EvaluateResult>;
  giveFeedback(input: GiveFeedbackInput): Promise<{ envelopeId: string }>;
  settleEvaluation(input: SettleInput): Promise<void>;
  countArtifactVersions(input: Omit<ListVersionsInput, 'after' | 'limit'>): Promise<number>;
  listArtifactVersions(input: ListVersionsInput): Promise<ArtifactVersionKey[]>;
  countBackfillTargets(input: BackfillCountInput): Promise<BackfillCounts>;
  listBackfillTargets(input: BackfillPageInput): Promise<BackfillPage>;
  /** Nano-dollars recorded under the batch's generation. */
  batchSpend(input: BatchSpendInput): Promise<number>;
  applyReview(input: ApplyReviewInput): Promise<ReviewOutcome>;
  mirrorScores(input: MirrorScoresInput): Promise<MirrorResult>;
  reconcileScores(input: ReconcileInput): Promise<ReconcileResult>;
  reconcileDeletes(input: ReconcileInput): Promise<ReconcileResult>;
  loadThreadProgress(input: ThreadRef): Promise<ThreadProgress>;
  saveThreadProgress(input: ThreadRef & { appliedThrough: number }): Promise<void>;
  recordTrace(input: RecordTraceInput): Promise<TraceOutcome>;
}

/** Who sent a trace's spans: an agent key records as each run's thread's agent, a system key as the system. */
export type SpanReporter = 'agent' | 'system';

export interface RecordTraceInput {
  workspaceId: string;
  traceId: string;
  reporter: SpanReporter;
  /** The trace's spans stopped coming: runs whose agent span never came end `stopped`. */
  idle: boolean;
  /** Waited before the spans are read: the settle window, for the next batch's spans. */
  settleMs?: number;
  conversationAttribute?: string;
}

/** What translating a trace recorded: its runs, spans still waiting for theirs, and refusals. */
export interface TraceOutcome {
  runs: { runId: string; threadId: string; status: RunEndStatus }[];
  waiting: number;
  /** Commands the store refused, with why (a late span's message for a run already ended). */
  refused: string[];
}
