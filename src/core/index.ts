// The core's public surface: pure values, schemas and functions (zod is its only import), so
// workflow code can import it. Anything not named here is internal.

export type { ActorKind } from './actors.js';
export {
  Actor,
  AgentActor,
  EvaluatorActor,
  evaluatorId,
  evaluatorIdOf,
  evaluatorParticipant,
  participantOf,
  ReviewerActor,
  SystemActor,
  systemActor,
  UserActor,
} from './actors.js';
export type { BudgetInForce, BudgetPeriod, ExhaustedAction } from './budgets.js';
export {
  BUDGET_EXHAUSTED,
  BUDGET_WARNING_SHARE,
  Budget,
  BudgetSettings,
  budgetApplies,
  budgetPeriods,
  budgetsInForce,
  everyBudgetInForce,
  exhaustedActions,
  GLOBAL_SCOPE,
  limitNanosOf,
  nextPeriodStartMs,
  periodKey,
  periodStartMs,
} from './budgets.js';
export type { CommandInput, CommandOf, CommandType } from './commands.js';
export {
  ArchiveArtifact,
  Command,
  CreateThread,
  DeleteRating,
  EndRun,
  EndThread,
  GiveFeedback,
  MessageRole,
  PauseRun,
  PostMessage,
  PromoteEvaluator,
  PutArtifact,
  RateMessage,
  RecordJudgeVersion,
  RecordScore,
  RunEndStatus,
  RunStatus,
  SetEvaluationRule,
  SetReviewQueue,
  StartRun,
  WithdrawFeedback,
} from './commands.js';
export { costNanos, ModelPrice, Pricing, UsageReport } from './costs.js';
export type { Admitted } from './decide.js';
export { admit, decide, decideCommand } from './decide.js';
export type {
  DecideContext,
  Decision,
  EvaluatorCatalog,
  RatedMessage,
  RatingEntry,
  Recorded,
  ScoreConfigDirectory,
  ScoreConfigStatus,
} from './decision.js';
export { Duration, durationMs, durationProblem, MAX_DURATION_MS } from './durations.js';
export { InvalidDurationError, InvalidFeedbackTypeError, InvalidLimitsError } from './errors.js';
export type {
  ArtifactArchived,
  ArtifactPut,
  Envelope,
  EvaluationRuleSet,
  EvaluatorPromoted,
  Event,
  EventType,
  FeedbackGiven,
  FeedbackWithdrawn,
  MessagePosted,
  RatingDeleted,
  ReviewQueueSet,
  RunEnded,
  RunPaused,
  RunStarted,
  ScoreIdentity,
  ScoreRecorded,
  ThreadCreated,
  ThreadEnded,
} from './events.js';
export { scopeOf } from './events.js';
export type { ViewChange } from './evolve.js';
export { applyChanges, changesOf, evolve, replay } from './evolve.js';
export type {
  FeedbackType,
  FeedbackTypeDefinition,
  FeedbackTypeRegistry,
} from './feedback-types.js';
export { createFeedbackTypeRegistry, defineFeedbackType } from './feedback-types.js';
export {
  COMMAND_ID_MAX_LENGTH,
  CommandId,
  ID_MAX_LENGTH,
  Id,
  idProblem,
  isId,
  isWellFormed,
  Text,
  withArticle,
} from './ids.js';
export { JSON_MAX_DEPTH, Json, type JsonValue, jsonProblem } from './json-values.js';
export { judgeSystemMessage } from './judge-reply.js';
export {
  JudgeExample,
  JudgeVersion,
  JudgeVersionData,
  type JudgeVersionProblem,
  type JudgeVersionProblemCode,
  judgeVersionId,
  judgeVersionProblems,
  type StoredJudgeVersion,
} from './judge-versions.js';
// The keys live in a module without zod, which workflow code imports (see `keys.ts`).
export { targetKey, threadGeneration, threadGenerationSeq } from './keys.js';
export {
  type EvaluationState,
  evaluationStates,
  type ScoreState,
  scoreStates,
} from './ledger-states.js';
export {
  DEFAULT_LIMITS,
  jsonBytes,
  type Limits,
  limitViolation,
  overLimit,
  resolveLimits,
  utf8Bytes,
} from './limits.js';
export {
  nanosOf,
  spendAndLimitText,
  usdExactText,
  usdOf,
  usdPlaces,
  usdShownPlaces,
  usdText,
} from './money.js';
export type { Needs } from './needs.js';
export { needsOf } from './needs.js';
export { counted } from './plurals.js';
export {
  figureText,
  type GateEvidence,
  type GateThresholds,
  shortfallsOf,
} from './promotion-gate.js';
export {
  BacktestEvidence,
  EvidenceInterval,
  evidenceLine,
  intervalText,
  PromotedSettings,
  PromotionEvidence,
  VersionAgreement,
} from './promotions.js';
export type { Rejection, RejectionType } from './rejections.js';
export {
  conflict,
  forbidden,
  invalidState,
  isRejection,
  notFound,
  rejectionTypes,
  specificIssue,
  summaryOf,
  validationFailed,
} from './rejections.js';
export {
  beforeRunStart,
  CLOCK_SKEW_MS,
  ReportedTime,
  recordedTime,
  refusedTime,
} from './reported-times.js';
export {
  isReviewersType,
  LEASE_SECONDS,
  MAX_REVIEWERS_PER_ITEM,
  queuesInForce,
  type ReviewQueue,
  type ReviewQueueContext,
  ReviewQueueSchema,
  ReviewQueueSettings,
  type ReviewSlotState,
  RoutingRule,
  type RoutingRuleKind,
  reviewQueueProblem,
  reviewSlotStates,
  routingRuleKinds,
  type StoredReviewQueue,
  TargetKindSchema,
} from './review-queues.js';
export { ruleEventTypes, rulesSetBy } from './rule-events.js';
export {
  DEFAULT_IDLE_FOR,
  EVALUATOR_ID_PART,
  EvaluatedKindSchema,
  type EvaluationRule,
  EvaluationRuleSchema,
  EvaluatorId,
  idleForProblem,
  isLive,
  modeOf,
  parseEvaluatorId,
  RuleFilter,
  type RuleMode,
  RuleModeSchema,
  RuleSettings,
  rulesInForce,
  type StoredEvaluationRule,
} from './rules.js';
export { ScoreSource, sourcesFor } from './sources.js';
export type {
  Artifact,
  ArtifactVersion,
  FeedbackRecord,
  Message,
  Run,
  Thread,
  ViewName,
  ViewValue,
  WorkspaceState,
} from './state.js';
export {
  artifactVersionKey,
  emptyState,
  inOrderSent,
  messageKey,
  ownFeedback,
  ratingsOn,
  viewNames,
} from './state.js';
export type { RunStep, RunSteps, StepKind } from './steps.js';
export { MAX_STEPS_PER_RUN, STEP_TEXT_BYTES } from './steps.js';
export type { EvaluatedKind, EvaluationTarget, TargetKind } from './targets.js';
export {
  ArtifactTarget,
  evaluatedKinds,
  MessageTarget,
  Target,
  ThreadTarget,
  TurnTarget,
  targetKinds,
} from './targets.js';
