import { z } from 'zod';
import { CommandId, Id as id, Text } from './ids.js';
import { Json } from './json-values.js';
import { JudgeVersionData } from './judge-versions.js';
import { PromotedSettings, PromotionEvidence } from './promotions.js';
import { ReportedTime } from './reported-times.js';
import { ReviewQueueSettings } from './review-queues.js';
import { EvaluatorId, RuleSettings } from './rules.js';
import { ScoreSource } from './sources.js';
import { Target } from './targets.js';

// Commands in their wire shape. Each may carry a `command_id`: executing the same id again
// returns the first outcome and records nothing. Every id follows the id rule (`ids.ts`), free
// text must be well-formed and free-form values JSON (`json-values.ts`); sizes are the store's
// limits (`limits.ts`), checked after parsing.
const commandId = { command_id: CommandId.optional() };

export const CreateThread = z.strictObject({
  type: z.literal('create_thread'),
  thread_id: id,
  title: Text.nullable().default(null),
  ...commandId,
});

/**
 * The host says a conversation is over: its thread evaluators judge it at once instead of
 * waiting for it to go quiet. A later run or message reopens it (docs/specification.md#threads).
 */
export const EndThread = z.strictObject({
  type: z.literal('end_thread'),
  thread_id: id,
  ...commandId,
});

/**
 * Starts a run, or resumes a paused run of the same thread (appending the trace id).
 * `started_at`, like `end_run`'s `ended_at` and `post_message`'s `posted_at`, is when it happened
 * by the reporter's clock; without it, the store's (docs/specification.md#reported-times).
 */
export const StartRun = z.strictObject({
  type: z.literal('start_run'),
  run_id: id,
  thread_id: id,
  trace_id: id.nullable().default(null),
  started_at: ReportedTime.optional(),
  ...commandId,
});

export const PauseRun = z.strictObject({
  type: z.literal('pause_run'),
  run_id: id,
  reason: Text.nullable().default(null),
  ...commandId,
});

export const RunEndStatus = z.enum(['completed', 'stopped', 'failed']);
export type RunEndStatus = z.output<typeof RunEndStatus>;
/** A run's status: live (running or paused), or how it ended. */
export const RunStatus = z.enum(['running', 'paused', ...RunEndStatus.options]);
export type RunStatus = z.output<typeof RunStatus>;
export const EndRun = z.strictObject({
  type: z.literal('end_run'),
  run_id: id,
  status: RunEndStatus,
  ended_at: ReportedTime.optional(),
  ...commandId,
});

export const MessageRole = z.enum(['user', 'assistant', 'system', 'tool']);
export type MessageRole = z.output<typeof MessageRole>;

/**
 * Posting is not a feedback path (docs/specification.md#message-ratings): feedback sent along
 * with a message is accepted on the wire and ignored. Without a `message_id` the store assigns
 * one before deciding.
 */
export const PostMessage = z.strictObject({
  type: z.literal('post_message'),
  thread_id: id,
  message_id: id.optional(),
  role: MessageRole,
  content: Text,
  run_id: id.nullable().default(null),
  posted_at: ReportedTime.optional(),
  feedback: Json.optional(),
  ...commandId,
});

/**
 * Puts a new version of an artifact: the current version + 1 (or 1 for a new artifact). A
 * `run_id` names the run that produced it: a running or paused run of the artifact's thread.
 */
export const PutArtifact = z.strictObject({
  type: z.literal('put_artifact'),
  artifact_id: id,
  kind: id,
  data: Json.default(null),
  trace_id: id.nullable().default(null),
  run_id: id.nullable().default(null),
  ...commandId,
});

export const ArchiveArtifact = z.strictObject({
  type: z.literal('archive_artifact'),
  artifact_id: id,
  ...commandId,
});

/**
 * Feedback on a target. A reviewer's creates or replaces their own current feedback of that type
 * on that target (docs/specification.md#reviews), as a user's rating does.
 */
export const GiveFeedback = z.strictObject({
  type: z.literal('give_feedback'),
  feedback_type: id,
  target: Target,
  // Checked against the feedback type's schema by `decide`, after the type and target kind.
  value: Json.default({}),
  /** An evaluator declares JUDGE (default) or HARNESS; the system may import EVAL scores. */
  source: ScoreSource.optional(),
  source_label: Text.min(1).optional(),
  /**
   * A shadow version's verdict (docs/specification.md#evaluator-verdicts): only an evaluator gives
   * one, and it never counts as its feedback type's current verdict.
   */
  shadow: z.boolean().optional(),
  ...commandId,
});

/** A reviewer withdraws their own feedback of a type on a target; an absent one is a success. */
export const WithdrawFeedback = z.strictObject({
  type: z.literal('withdraw_feedback'),
  feedback_type: id,
  target: Target,
  ...commandId,
});

export const RateMessage = z.strictObject({
  type: z.literal('rate_message'),
  thread_id: id,
  message_id: id,
  feedback_type: id,
  // Checked against the feedback type's schema by `decide`, after the type and target kind.
  value: Json.default({}),
  ...commandId,
});

export const DeleteRating = z.strictObject({
  type: z.literal('delete_rating'),
  thread_id: id,
  message_id: id,
  feedback_type: id,
  ...commandId,
});

/**
 * A score written directly on a trace (docs/specification.md#score-writes): a number or a
 * boolean, from a harness or a reviewer (HUMAN, against its score config, named by `config_id`).
 * The rater is the actor; the score's identity is (trace, rater, name), so writing it again
 * replaces it.
 */
export const RecordScore = z.strictObject({
  type: z.literal('record_score'),
  trace_id: z.string().regex(/^[0-9a-f]{32}$/, 'a trace id is 32 lowercase hex digits'),
  name: id,
  value: z.union([z.number().finite(), z.boolean()]),
  source: z.enum(['HARNESS', 'HUMAN']),
  config_id: id.optional(),
  source_label: Text.min(1).optional(),
  comment: Text.optional(),
  ...commandId,
});

/** Sets a workspace's rule for one evaluator version (the system's, which the API's admin is). */
export const SetEvaluationRule = z.strictObject({
  type: z.literal('set_evaluation_rule'),
  evaluator: EvaluatorId,
  ...RuleSettings,
  ...commandId,
});

/**
 * Promotes an evaluator version on evidence (the system's): it goes live with `rule`'s settings
 * and the version it replaces, if any, is disabled with `replaced_rule`'s, in one event that
 * keeps the evidence. Evidence short of the thresholds is refused unless `force` is set; a
 * forced promotion is recorded as forced.
 */
export const PromoteEvaluator = z.strictObject({
  type: z.literal('promote_evaluator'),
  evaluator: EvaluatorId,
  /** The version it replaces, of the same feedback type; null: it goes live beside the others. */
  replacing: EvaluatorId.nullable().default(null),
  /** The promoted version's `targets`, `sample_rate` and `filter` from now on. */
  rule: PromotedSettings,
  /** The replaced version's settings, kept while it is disabled; with `replacing` only. */
  replaced_rule: PromotedSettings.nullable().default(null),
  /** The least Cohen's κ the evidence must show. */
  min_kappa: z.number().min(-1).max(1),
  /** The fewest matched targets the evidence must count. */
  min_matched: z.int().min(1),
  /** The agreement measured when the promotion was asked for (`PromotionEvidence`). */
  evidence: PromotionEvidence,
  /** Promote although the evidence is short; the event says it was forced. */
  force: z.boolean().default(false),
  ...commandId,
});

/**
 * Sets a workspace's review queue whole: a new queue, or every setting of one in force (the
 * system's, which the API's admin is). `archived: true` retires it, keeping its items.
 */
export const SetReviewQueue = z.strictObject({
  type: z.literal('set_review_queue'),
  queue_id: id,
  ...ReviewQueueSettings,
  ...commandId,
});

/**
 * Records a new version of an LLM judge family without a deploy (the system's): its rubric, model,
 * feedback type and few-shot examples with their provenance. A version is recorded once and never
 * changes; one declared in code, or already recorded, is refused.
 */
export const RecordJudgeVersion = z.strictObject({
  type: z.literal('record_judge_version'),
  judge_version: JudgeVersionData,
  ...commandId,
});

export const Command = z.discriminatedUnion('type', [
  CreateThread,
  EndThread,
  StartRun,
  PauseRun,
  EndRun,
  PostMessage,
  PutArtifact,
  ArchiveArtifact,
  GiveFeedback,
  WithdrawFeedback,
  RateMessage,
  DeleteRating,
  SetEvaluationRule,
  RecordScore,
  PromoteEvaluator,
  SetReviewQueue,
  RecordJudgeVersion,
]);
export type Command = z.output<typeof Command>;
export type CommandInput = z.input<typeof Command>;
export type CommandType = Command['type'];
export type CommandOf<T extends CommandType> = Extract<Command, { type: T }>;
