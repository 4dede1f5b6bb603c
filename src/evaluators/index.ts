// Evaluators: versioned judges of turns, messages and artifact versions, the plans that pin them
// to runs, and deterministic sampling.

export * from './builtin/heuristics.js';
export * from './builtin/llm-judge.js';
export {
  type CostHistory,
  costThroughBaseNanos,
  estimatedCostNanos,
} from './cost-estimate.js';
export type {
  EvaluationContext,
  Evaluator,
  EvaluatorDefinition,
  EvaluatorSource,
  JudgeFamily,
} from './define.js';
export { defineEvaluator } from './define.js';
export { InvalidEvaluatorError, JudgeRequestError } from './errors.js';
export { type EvaluationPlan, everyTargetRules, planOf, type RunPlan } from './plans.js';
export type {
  EvaluatorRef,
  EvaluatorRegistry,
  FollowedRef,
  ThreadEvaluatorRef,
} from './registry.js';
export { createEvaluatorRegistry, recordedJudge } from './registry.js';
export { isInBackfillSample, isSampled } from './sampling.js';
export type {
  ArtifactSubject,
  ConversationEntry,
  MessageSubject,
  Subject,
  SubjectArtifact,
  SubjectMessage,
  ThreadRun,
  ThreadSubject,
  TurnSubject,
} from './subjects.js';
export {
  type EvaluatorLimit,
  evaluatorTaskQueue,
  evaluatorTaskQueues,
} from './task-queues.js';
