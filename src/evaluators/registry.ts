import type { Evaluator } from './define.js';
import { evaluatorParticipant, InvalidEvaluator } from './define.js';
import type { EvaluatedKind } from './subjects.js';

/** A reference to one evaluator version, as plans and workflows carry it. */
export interface EvaluatorRef {
  name: string;
  version: string;
}

/**
 * Evaluation plan: which evaluator versions judge which target kinds. A run's plan is pinned when
 * its workflow starts and travels with it, so deploying a new version changes only later runs.
 */
export type EvaluationPlan = Record<EvaluatedKind, EvaluatorRef[]>;

export interface EvaluatorRegistry {
  get(ref: EvaluatorRef): Evaluator | undefined;
  list(): Evaluator[];
  /** Every registered version of every evaluator, by the kinds each evaluates. */
  plan(filter?: (evaluator: Evaluator) => boolean): EvaluationPlan;
}

/**
 * Evaluators by participant. Old versions stay registered for as long as runs pinned to them may
 * still end; a version registered twice with different code is refused.
 */
export function createEvaluatorRegistry(evaluators: readonly Evaluator[]): EvaluatorRegistry {
  const byParticipant = new Map<string, Evaluator>();
  for (const evaluator of evaluators) {
    const taken = byParticipant.get(evaluator.participant);
    if (taken !== undefined && taken !== evaluator) {
      throw new InvalidEvaluator(`${evaluator.participant} is registered twice`);
    }
    byParticipant.set(evaluator.participant, evaluator);
  }
  return {
    get: ({ name, version }) => byParticipant.get(evaluatorParticipant(name, version)),
    list: () => [...byParticipant.values()],
    plan(filter = () => true) {
      const plan: EvaluationPlan = { artifact: [], message: [], turn: [] };
      for (const evaluator of byParticipant.values()) {
        if (!filter(evaluator)) continue;
        for (const kind of evaluator.targets) {
          plan[kind].push({ name: evaluator.name, version: evaluator.version });
        }
      }
      return plan;
    },
  };
}
