import type { Actor } from './actors.js';
import type { MessageRole, RunEndStatus, RunStatus } from './commands.js';
import type { JudgeVersionData } from './judge-versions.js';
import type { PromotionEvidence } from './promotions.js';
import type { ReviewQueue } from './review-queues.js';
import type { EvaluationRule } from './rules.js';
import type { ScoreSource } from './sources.js';
import type { EvaluatedKind, Target } from './targets.js';

// Event bodies, `{type, ...fields}`, in the log's wire names (docs/specification.md#event-shape).
// Every run, message and feedback event names its thread and run so a consumer never needs
// another event to place it.

export type { RunStatus };

export interface ThreadCreated {
  type: 'thread_created';
  thread_id: string;
  title: string | null;
}
/** The host ended the conversation; a later run or message reopens it. */
export interface ThreadEnded {
  type: 'thread_ended';
  thread_id: string;
}
/** A new run, or a paused one resumed (`resumed: true`); `trace_id` is appended to its traces. */
export interface RunStarted {
  type: 'run_started';
  run_id: string;
  thread_id: string;
  trace_id: string | null;
  resumed: boolean;
  /** The reported time it started or resumed at (as recorded); absent: the envelope's ts. */
  started_at?: string;
}
export interface RunPaused {
  type: 'run_paused';
  run_id: string;
  thread_id: string;
  reason: string | null;
}
export interface RunEnded {
  type: 'run_ended';
  run_id: string;
  thread_id: string;
  status: RunEndStatus;
  /** The reported time it ended at (as recorded); absent: the envelope's ts. */
  ended_at?: string;
}
export interface MessagePosted {
  type: 'message_posted';
  message_id: string;
  thread_id: string;
  run_id: string | null;
  role: MessageRole;
  content: string;
  /** The reported time it was sent at (as recorded); absent: the envelope's ts. */
  posted_at?: string;
}
export interface ArtifactPut {
  type: 'artifact_put';
  artifact_id: string;
  kind: string;
  version: number;
  data: unknown;
  /** The trace that produced this version: scores on it attach there. */
  trace_id: string | null;
  /** The run that produced this version, if named; a running or paused run of its thread. */
  run_id: string | null;
  /**
   * The thread it was produced in: the run's, else the author's when an agent put it, else null.
   * The envelope stays workspace-scoped (artifacts are), so these fields are where a consumer
   * such as the trigger relay finds the run to tell.
   */
  thread_id: string | null;
}
export interface ArtifactArchived {
  type: 'artifact_archived';
  artifact_id: string;
}

/**
 * The identity replaceable feedback's scores keep across replacements (a user's rating, a
 * reviewer's feedback): the id and ts of the envelope that first recorded it.
 */
export interface ScoreIdentity {
  id: string;
  ts: string;
}

export interface FeedbackGiven {
  type: 'feedback_given';
  feedback_type: string;
  target: Target;
  /** The validated value: defaults filled in. */
  value: Record<string, unknown>;
  /** The scope: a turn's or message's thread and run, a thread, or neither for an artifact. */
  thread_id: string | null;
  run_id: string | null;
  source: ScoreSource;
  source_label?: string;
  /** Present, true, on a shadow version's verdict; absent on every other feedback. */
  shadow?: true;
  /**
   * Present on replaceable feedback (a user's message rating, a reviewer's feedback), absent on
   * any other: null when it is the participant's first of this type on this target; otherwise
   * the first one's identity, which the replacement's scores keep so they upsert in place.
   */
  replaces?: ScoreIdentity | null;
}

/** A reviewer withdrew their feedback; `identity` is the one its scores were recorded under. */
export interface FeedbackWithdrawn {
  type: 'feedback_withdrawn';
  feedback_type: string;
  target: Target;
  /** The withdrawn feedback's scope, as its feedback_given had it. */
  thread_id: string | null;
  run_id: string | null;
  identity: ScoreIdentity;
}

/** A rater withdrew their rating; `rating` is the identity its scores were recorded under. */
export interface RatingDeleted {
  type: 'rating_deleted';
  feedback_type: string;
  message_id: string;
  thread_id: string;
  run_id: string | null;
  rating: ScoreIdentity;
}

/** A score written directly on a trace; its rater is the envelope's actor. */
export interface ScoreRecorded {
  type: 'score_recorded';
  trace_id: string;
  name: string;
  value: number | boolean;
  source: 'HARNESS' | 'HUMAN';
  config_id: string | null;
  source_label: string | null;
  comment: string | null;
}

/** A workspace's rule for one evaluator version was set; later runs' plans follow it. */
export interface EvaluationRuleSet extends EvaluationRule {
  type: 'evaluation_rule_set';
}

/**
 * An evaluator version was promoted on evidence: `rules` are the rules it set (the promoted
 * version's, live, and the replaced version's, disabled), which later runs' plans follow.
 */
export interface EvaluatorPromoted {
  type: 'evaluator_promoted';
  evaluator: string;
  replacing: string | null;
  rules: EvaluationRule[];
  min_kappa: number;
  min_matched: number;
  evidence: PromotionEvidence;
  /** Why the evidence fell short of the thresholds; empty when it met them. */
  shortfalls: string[];
  /** Promoted although the evidence fell short (`force`). */
  forced: boolean;
}

/** A workspace's review queue was set (or archived); routing and claims follow it. */
export interface ReviewQueueSet extends ReviewQueue {
  type: 'review_queue_set';
}

/** A judge version was recorded; who and when are the envelope's actor and ts. */
export interface JudgeVersionRecorded {
  type: 'judge_version_recorded';
  judge_version: JudgeVersionData;
  /**
   * The kinds it judges, its base's when it was recorded: a rule may name it for these. Absent
   * from versions recorded before it was kept, which no rule can name.
   */
  targets?: EvaluatedKind[];
}

export type Event =
  | ThreadCreated
  | ThreadEnded
  | RunStarted
  | RunPaused
  | RunEnded
  | MessagePosted
  | ArtifactPut
  | ArtifactArchived
  | FeedbackGiven
  | FeedbackWithdrawn
  | RatingDeleted
  | EvaluationRuleSet
  | EvaluatorPromoted
  | ScoreRecorded
  | ReviewQueueSet
  | JudgeVersionRecorded;
export type EventType = Event['type'];

/** An event as stored and sent: `seq` is gap-free per workspace, `id` unique, `ts` ISO-8601. */
export interface Envelope<E extends Event = Event> {
  seq: number;
  id: string;
  ts: string;
  workspace_id: string;
  thread_id: string | null;
  run_id: string | null;
  actor: Actor;
  event: E;
}

/** The thread and run an event belongs to, copied onto its envelope. */
export function scopeOf(event: Event): { thread_id: string | null; run_id: string | null } {
  switch (event.type) {
    case 'thread_created':
    case 'thread_ended':
      return { thread_id: event.thread_id, run_id: null };
    case 'run_started':
    case 'run_paused':
    case 'run_ended':
      return { thread_id: event.thread_id, run_id: event.run_id };
    case 'message_posted':
    case 'feedback_given':
    case 'feedback_withdrawn':
    case 'rating_deleted':
      return { thread_id: event.thread_id, run_id: event.run_id };
    case 'artifact_put':
    case 'artifact_archived':
    case 'evaluation_rule_set':
    case 'evaluator_promoted':
    case 'score_recorded':
    case 'review_queue_set':
    case 'judge_version_recorded':
      return { thread_id: null, run_id: null };
  }
}
