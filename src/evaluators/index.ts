// Evaluators: versioned judges of turns, messages and artifact versions, the plans that pin them
// to runs, and deterministic sampling.

export * from './builtin/heuristics.js';
export * from './builtin/llm-judge.js';
export type {
  EvaluationContext,
  Evaluator,
  EvaluatorDefinition,
  EvaluatorSource,
} from './define.js';
export { defineEvaluator, evaluatorParticipant, InvalidEvaluator } from './define.js';
export type { EvaluationPlan, EvaluatorRef, EvaluatorRegistry } from './registry.js';
export { createEvaluatorRegistry } from './registry.js';
export { isSampled } from './sampling.js';
export type {
  ArtifactSubject,
  EvaluatedKind,
  MessageSubject,
  Subject,
  SubjectMessage,
  TurnSubject,
} from './subjects.js';
