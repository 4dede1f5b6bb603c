import {
  type EvaluatedKind,
  type EvaluationRule,
  type EvaluatorCatalog,
  isLive,
  modeOf,
  parseEvaluatorId,
} from '../core/index.js';
import type { Evaluator } from './define.js';
import type { EvaluatorRef, FollowedRef } from './registry.js';

/**
 * Evaluation plan: which evaluator versions judge which target kinds. A run's plan is the rules
 * in force when its workflow starts, pinned and carried with it, so a rule changed later (or a
 * new version deployed) changes only later runs.
 */
export type EvaluationPlan = Record<EvaluatedKind, EvaluatorRef[]>;

/**
 * The plan of the rules live in a workspace. An evaluator named in `taskQueues` (those with
 * limits of their own) judges on that queue. A shadow version follows, on each kind, the live
 * versions of its feedback type there, as `evaluators` tells the types (without it, none).
 */
export function planOf(
  rules: readonly EvaluationRule[],
  workspaceId: string,
  taskQueues: Readonly<Record<string, string>> = {},
  evaluators?: EvaluatorCatalog,
): EvaluationPlan {
  const plan: EvaluationPlan = { artifact: [], message: [], turn: [] };
  const shadows = new Set<string>();
  for (const rule of rules) {
    if (!isLive(rule, workspaceId)) continue;
    if (modeOf(rule) === 'shadow') shadows.add(rule.evaluator);
    const id = parseEvaluatorId(rule.evaluator);
    const taskQueue = taskQueues[id.name];
    const ref: EvaluatorRef = {
      ...id,
      ...(rule.sample_rate < 1 ? { sampleRate: rule.sample_rate } : {}),
      ...(rule.filter.artifact_kinds ? { artifactKinds: [...rule.filter.artifact_kinds] } : {}),
      ...(taskQueue !== undefined ? { taskQueue } : {}),
    };
    for (const kind of rule.targets) plan[kind].push(ref);
  }
  if (shadows.size > 0) followLiveVersions(plan, shadows, evaluators);
  return plan;
}

const idOf = (ref: FollowedRef) => `${ref.name}@${ref.version}`;

/** Gives each shadow ref, kind by kind, the live refs of its feedback type it follows there. */
function followLiveVersions(
  plan: EvaluationPlan,
  shadows: ReadonlySet<string>,
  evaluators: EvaluatorCatalog | undefined,
): void {
  const typeOf = (ref: FollowedRef) => evaluators?.feedbackTypeOf?.(idOf(ref));
  for (const kind of Object.keys(plan) as EvaluatedKind[]) {
    const live = plan[kind].filter((ref) => !shadows.has(idOf(ref)));
    plan[kind] = plan[kind].map((ref) => {
      if (!shadows.has(idOf(ref))) return ref;
      const type = typeOf(ref);
      const shadowOf = live
        .filter((other) => type !== undefined && typeOf(other) === type)
        .map(({ name, version, sampleRate, artifactKinds }) => ({
          name,
          version,
          ...(sampleRate !== undefined ? { sampleRate } : {}),
          ...(artifactKinds !== undefined ? { artifactKinds } : {}),
        }));
      return { ...ref, shadowOf };
    });
  }
}

/** A rule for each evaluator that makes it live on everything it judges, every time. */
export function everyTargetRules(evaluators: readonly Evaluator[]): EvaluationRule[] {
  return evaluators.map((evaluator) => ({
    evaluator: evaluator.id,
    targets: [...evaluator.targets],
    sample_rate: 1,
    filter: {},
    enabled: true,
  }));
}
