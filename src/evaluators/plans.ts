import {
  DEFAULT_IDLE_FOR,
  durationMs,
  type EvaluatedKind,
  type EvaluationRule,
  type EvaluatorCatalog,
  isLive,
  modeOf,
  parseEvaluatorId,
} from '../core/index.js';
import type { Evaluator } from './define.js';
import type { EvaluatorRef, FollowedRef, ThreadEvaluatorRef } from './registry.js';

/**
 * Evaluation plan: which evaluator versions judge which target kinds. A run's plan is the rules
 * in force when its workflow starts, pinned and carried with it, so a rule changed later (or a
 * new version deployed) changes only later runs.
 */
export type EvaluationPlan = RunPlan & { thread: ThreadEvaluatorRef[] };

/**
 * What a run's workflow pins: the plan less its thread evaluators, which the run's thread's own
 * workflow pins for each generation it judges.
 */
export type RunPlan = Record<Exclude<EvaluatedKind, 'thread'>, EvaluatorRef[]>;

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
  const plan: EvaluationPlan = { artifact: [], message: [], thread: [], turn: [] };
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
    for (const kind of rule.targets) {
      // A thread evaluator judges once its thread has been quiet this long.
      if (kind === 'thread') {
        plan.thread.push({ ...ref, idleForMs: durationMs(rule.idle_for ?? DEFAULT_IDLE_FOR) });
      } else plan[kind].push(ref);
    }
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
  const follow = <Ref extends EvaluatorRef>(refs: Ref[]): Ref[] => {
    const live = refs.filter((ref) => !shadows.has(idOf(ref)));
    return refs.map((ref) => {
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
  };
  const { thread, ...runKinds } = plan;
  for (const kind of Object.keys(runKinds) as (keyof RunPlan)[]) plan[kind] = follow(plan[kind]);
  plan.thread = follow(thread);
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
