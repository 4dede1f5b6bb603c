import type { EvaluatorCatalog, JudgeVersion } from '../core/index.js';
import type { Evaluator } from './define.js';
import { InvalidEvaluatorError } from './errors.js';

/** One evaluator version as a plan pins it, with the settings of the rule that made it live. */
export interface EvaluatorRef {
  name: string;
  version: string;
  /** The share of targets judged, from 0 to 1 (absent: all, as a re-evaluation judges). */
  sampleRate?: number;
  /** Artifact versions of other kinds are skipped (absent: every kind). */
  artifactKinds?: string[];
  /** Its `evaluate` runs on this task queue: an evaluator with limits of its own. */
  taskQueue?: string;
  /**
   * Present on a shadow version: the live versions of its feedback type on this target kind. It
   * judges only targets one of them judges (when there are none, as its own rule says), and gives
   * its verdicts as shadow ones.
   */
  shadowOf?: FollowedRef[];
}

/** A live version a shadow version follows, with what decides which targets it judges. */
export type FollowedRef = Pick<EvaluatorRef, 'name' | 'version' | 'sampleRate' | 'artifactKinds'>;

/** A thread evaluator as a plan pins it: it judges once its thread has been quiet this long. */
export interface ThreadEvaluatorRef extends EvaluatorRef {
  /** No run open, no message posted, for this long (the rule's `idle_for`). */
  idleForMs: number;
}

/** The evaluator versions a deployment runs, by id (`name@version`). */
export interface EvaluatorRegistry extends EvaluatorCatalog {
  get(ref: { name: string; version: string }): Evaluator | undefined;
  list(): Evaluator[];
}

/**
 * Evaluators by id. Old versions stay registered for as long as runs pinned to them may still
 * end or a re-evaluation may name them; a version registered twice with different code is refused.
 */
export function createEvaluatorRegistry(evaluators: readonly Evaluator[]): EvaluatorRegistry {
  const byId = new Map<string, Evaluator>();
  for (const evaluator of evaluators) {
    const taken = byId.get(evaluator.id);
    if (taken !== undefined && taken !== evaluator) {
      throw new InvalidEvaluatorError(`${evaluator.participant} is registered twice`);
    }
    byId.set(evaluator.id, evaluator);
  }
  return {
    get: ({ name, version }) => byId.get(`${name}@${version}`),
    list: () => [...byId.values()],
    targetsOf: (id) => byId.get(id)?.targets,
    feedbackTypeOf: (id) => byId.get(id)?.feedbackType.name,
  };
}

/**
 * The evaluator that runs a judge version recorded as data in a workspace: the family of its base
 * version when that is deployed here, else of any deployed version of the family that runs
 * recorded versions (`JudgeFamily`). Undefined when neither is deployed.
 */
export function recordedJudge(
  registry: EvaluatorRegistry,
  version: JudgeVersion,
): Evaluator | undefined {
  const family =
    registry.get({ name: version.judge, version: version.tunedFrom })?.judge ??
    registry.list().find((known) => known.name === version.judge && known.judge)?.judge;
  return family?.tuned(version);
}
