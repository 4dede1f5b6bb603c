import type { z } from 'zod';
import type { FeedbackType } from '../core/index.js';
import { type EvaluatedKind, evaluatedKinds, type Subject } from './subjects.js';

export type EvaluatorSource = 'JUDGE' | 'HARNESS';

export interface EvaluationContext {
  /** `evaluator:{name}@{version}`. */
  participant: string;
  /** 1 on the first try; Temporal retries raise it. */
  attempt: number;
  /** Aborted when the activity is cancelled or times out. */
  signal: AbortSignal;
}

/** A versioned evaluator: each version is its own participant, and its verdicts never mix. */
export interface Evaluator<Schema extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly version: string;
  readonly participant: string;
  readonly feedbackType: FeedbackType<Schema>;
  readonly targets: readonly EvaluatedKind[];
  readonly source: EvaluatorSource;
  /** The share of targets evaluated, from 0 to 1 (default 1). */
  readonly sampleRate: number;
  /** Returns the verdict: a value of the feedback type, checked against its schema. */
  evaluate(
    subject: Subject,
    context: EvaluationContext,
  ): Promise<z.input<Schema>> | z.input<Schema>;
}

export interface EvaluatorDefinition<Schema extends z.ZodObject> {
  name: string;
  version: string;
  feedbackType: FeedbackType<Schema>;
  targets: readonly EvaluatedKind[];
  source: EvaluatorSource;
  sampleRate?: number;
  evaluate: Evaluator<Schema>['evaluate'];
}

/** A mistake in a definition is thrown at once, so it fails at startup. */
export class InvalidEvaluator extends Error {
  override readonly name = 'InvalidEvaluator';
}

// Names and versions become participant ids `evaluator:{name}@{version}`, so neither may hold the
// separators.
const idPart = /^[A-Za-z0-9_.-]+$/;

export function evaluatorParticipant(name: string, version: string): string {
  return `evaluator:${name}@${version}`;
}

export function defineEvaluator<Schema extends z.ZodObject>(
  definition: EvaluatorDefinition<Schema>,
): Evaluator<Schema> {
  const { name, version, feedbackType, targets, source, sampleRate = 1 } = definition;
  if (!idPart.test(name) || !idPart.test(version)) {
    throw new InvalidEvaluator(
      `an evaluator's name and version are letters, digits, '_', '.' or '-': got ${name}@${version}`,
    );
  }
  const label = `${name}@${version}`;
  if (targets.length === 0 || targets.some((kind) => !evaluatedKinds.includes(kind))) {
    throw new InvalidEvaluator(`${label} must evaluate some of ${evaluatedKinds.join(', ')}`);
  }
  const undeclared = targets.filter((kind) => !feedbackType.targets.includes(kind));
  if (undeclared.length > 0) {
    throw new InvalidEvaluator(
      `${label} evaluates ${undeclared.join(', ')}, but ${feedbackType.name} feedback is given on ${feedbackType.targets.join(', ')}`,
    );
  }
  if (source !== 'JUDGE' && source !== 'HARNESS') {
    throw new InvalidEvaluator(`${label}'s source is JUDGE or HARNESS, not ${String(source)}`);
  }
  if (!(sampleRate >= 0 && sampleRate <= 1)) {
    throw new InvalidEvaluator(`${label}'s sampleRate is from 0 to 1, not ${sampleRate}`);
  }
  return Object.freeze({
    name,
    version,
    participant: evaluatorParticipant(name, version),
    feedbackType,
    targets: Object.freeze([...new Set(targets)].sort()),
    source,
    sampleRate,
    evaluate: definition.evaluate,
  });
}
