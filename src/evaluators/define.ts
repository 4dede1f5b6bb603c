import type { z } from 'zod';
import {
  EVALUATOR_ID_PART,
  type EvaluatedKind,
  evaluatedKinds,
  evaluatorId,
  evaluatorParticipant,
  type FeedbackType,
  idProblem,
  type JudgeVersion,
  type UsageReport,
} from '../core/index.js';
import { InvalidEvaluatorError } from './errors.js';
import type { Subject } from './subjects.js';

export type EvaluatorSource = 'JUDGE' | 'HARNESS';

export interface EvaluationContext {
  /** `evaluator:{name}@{version}`. */
  participant: string;
  /** 1 on the first try; Temporal retries raise it. */
  attempt: number;
  /** Aborted when the activity is cancelled or times out. */
  signal: AbortSignal;
  /**
   * Records what a call of a model used, at once and durably, with this attempt: call it after
   * every response, also when the attempt fails afterwards (money spent on it is spent). Without
   * `costUsd`, the config's price for the model turns the tokens into money.
   */
  reportUsage(usage: UsageReport): Promise<void>;
}

/**
 * A versioned evaluator: each version is its own participant, and its verdicts never mix. What
 * it judges, and how often, is the evaluation rules' business: `targets` are what it can judge.
 */
export interface Evaluator<Schema extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly version: string;
  /** `{name}@{version}`, as rules name it. */
  readonly id: string;
  readonly participant: string;
  readonly feedbackType: FeedbackType<Schema>;
  readonly targets: readonly EvaluatedKind[];
  readonly source: EvaluatorSource;
  /**
   * What one evaluation is expected to cost, in USD, until the version has measured costs of its
   * own: what budgets reserve and backfill previews estimate with.
   */
  readonly estimatedCostUsd?: number;
  /** Returns the verdict: a value of the feedback type, checked against its schema. */
  evaluate(
    subject: Subject,
    context: EvaluationContext,
  ): Promise<z.input<Schema>> | z.input<Schema>;
  /** Present on an LLM judge whose family runs versions recorded as data (`JudgeFamily`). */
  readonly judge?: JudgeFamily<Schema>;
}

/**
 * What an LLM judge's version is asked with, and how its family runs a version recorded as data
 * (`record_judge_version`): tuning starts from the rubric and model, and `tuned` is the family's
 * evaluator for a recorded version, with its rubric, model and examples.
 */
export interface JudgeFamily<Schema extends z.ZodObject = z.ZodObject> {
  readonly rubric: string;
  readonly model: string;
  tuned(version: JudgeVersion): Evaluator<Schema>;
}

export interface EvaluatorDefinition<Schema extends z.ZodObject> {
  name: string;
  version: string;
  feedbackType: FeedbackType<Schema>;
  targets: readonly EvaluatedKind[];
  source: EvaluatorSource;
  estimatedCostUsd?: number;
  evaluate: Evaluator<Schema>['evaluate'];
  judge?: JudgeFamily<Schema>;
}

export function defineEvaluator<Schema extends z.ZodObject>(
  definition: EvaluatorDefinition<Schema>,
): Evaluator<Schema> {
  const { name, version, feedbackType, targets, source } = definition;
  // Names and versions become participant ids `evaluator:{name}@{version}`, so neither may hold
  // the separators.
  if (!EVALUATOR_ID_PART.test(name) || !EVALUATOR_ID_PART.test(version)) {
    throw new InvalidEvaluatorError(
      `an evaluator's name and version are letters, digits, '_', '.' or '-': got ${name}@${version}`,
    );
  }
  const tooLong = idProblem(name) ?? idProblem(version);
  if (tooLong !== null) {
    throw new InvalidEvaluatorError(`${name}@${version}: its name and version are ids: ${tooLong}`);
  }
  const label = evaluatorId({ name, version });
  if (targets.length === 0 || targets.some((kind) => !evaluatedKinds.includes(kind))) {
    throw new InvalidEvaluatorError(`${label} must evaluate some of ${evaluatedKinds.join(', ')}`);
  }
  const undeclared = targets.filter((kind) => !feedbackType.targets.includes(kind));
  if (undeclared.length > 0) {
    throw new InvalidEvaluatorError(
      `${label} evaluates ${undeclared.join(', ')}, but ${feedbackType.name} feedback is given on ${feedbackType.targets.join(', ')}`,
    );
  }
  if (source !== 'JUDGE' && source !== 'HARNESS') {
    throw new InvalidEvaluatorError(`${label}'s source is JUDGE or HARNESS, not ${String(source)}`);
  }
  const estimate = definition.estimatedCostUsd;
  if (estimate !== undefined && !(Number.isFinite(estimate) && estimate >= 0)) {
    throw new InvalidEvaluatorError(
      `${label}'s estimatedCostUsd is a number of dollars, 0 or more: got ${String(estimate)}`,
    );
  }
  return Object.freeze({
    name,
    version,
    id: label,
    participant: evaluatorParticipant({ name, version }),
    feedbackType,
    targets: Object.freeze([...new Set(targets)].sort()),
    source,
    ...(estimate !== undefined ? { estimatedCostUsd: estimate } : {}),
    evaluate: definition.evaluate,
    ...(definition.judge !== undefined ? { judge: definition.judge } : {}),
  });
}
