import { z } from 'zod';
import { Duration } from './durations.js';
import { ID_MAX_LENGTH, Id } from './ids.js';
import { type EvaluatedKind, evaluatedKinds } from './targets.js';

// Evaluation rules: which evaluator versions are live, on which target kinds, at which sample
// rate. The app's config gives the defaults; a workspace's `set_evaluation_rule` commands
// override them per evaluator version, recorded in its log like any other fact.

/** The characters of an evaluator's name and of its version: they join into participant ids. */
export const EVALUATOR_ID_PART = /^[A-Za-z0-9_.-]+$/;

/** An evaluator version as rules, plans and the API name it: `{name}@{version}`. */
export const EvaluatorId = z
  .string()
  // A name and a version, each an id.
  .max(2 * ID_MAX_LENGTH + 1)
  .regex(/^[A-Za-z0-9_.-]+@[A-Za-z0-9_.-]+$/, 'an evaluator version is written name@version');

export function parseEvaluatorId(id: string): { name: string; version: string } {
  const at = id.lastIndexOf('@');
  return { name: id.slice(0, at), version: id.slice(at + 1) };
}

export const EvaluatedKindSchema = z.enum(evaluatedKinds as [EvaluatedKind, ...EvaluatedKind[]]);

/** Narrows where a rule applies; every list given must contain the case. */
export const RuleFilter = z.strictObject({
  workspaces: z.array(Id).min(1).optional(),
  artifact_kinds: z.array(Id).min(1).optional(),
});
export type RuleFilter = z.output<typeof RuleFilter>;

/**
 * A rule's mode. A `live` version's verdicts are its feedback type's current ones. A `shadow`
 * version judges what the live versions of its feedback type judge (on its target kinds, at its
 * sample rate of those), and its verdicts are recorded and mirrored as its own participant's,
 * marked shadow, so summaries leave them out of the type's current verdict.
 */
export const RuleModeSchema = z.enum(['live', 'shadow']);
export type RuleMode = z.output<typeof RuleModeSchema>;

/** A rule's settings, as a command sets them and the view keeps them. */
export const RuleSettings = {
  targets: z.array(EvaluatedKindSchema).min(1),
  sample_rate: z.number().min(0).max(1).default(1),
  filter: RuleFilter.default({}),
  /** A disabled rule keeps its settings and judges nothing. */
  enabled: z.boolean().default(true),
  /** `shadow` judges beside the live versions without counting as the current verdict; absent: live. */
  mode: RuleModeSchema.optional(),
  /**
   * How long a thread must be quiet (no run open, no message posted) before it is judged, such
   * as `'30m'`; only for rules that target threads (default `'30m'`, `DEFAULT_IDLE_FOR`).
   */
  idle_for: Duration.optional(),
};

export const EvaluationRuleSchema = z.strictObject({ evaluator: EvaluatorId, ...RuleSettings });
/** One evaluator version's rule. */
export type EvaluationRule = z.output<typeof EvaluationRuleSchema>;

/** A rule's mode; a rule recorded before modes existed, or without one, is live. */
export const modeOf = (rule: Pick<EvaluationRule, 'mode'>): RuleMode => rule.mode ?? 'live';
/** How long a thread is quiet before it is judged, when its rule does not say. */
export const DEFAULT_IDLE_FOR = '30m';

/** Why a rule's `idle_for` does not fit its targets (it applies to threads alone), or null. */
export function idleForProblem(rule: {
  targets: readonly EvaluatedKind[];
  idle_for?: string | undefined;
}): string | null {
  if (rule.idle_for === undefined || rule.targets.includes('thread')) return null;
  return `idle_for (idleFor) applies only to rules that target thread, not to ${rule.targets.join(', ')}`;
}

/** A rule as a workspace's view holds it: who set it and when. */
export interface StoredEvaluationRule extends EvaluationRule {
  set_by: string;
  set_at: string;
  seq: number;
}

/**
 * The rules in force: the defaults, each replaced by the workspace's own rule for the same
 * evaluator version. Sorted by evaluator id, so a plan built from them is stable.
 */
export function rulesInForce(
  defaults: readonly EvaluationRule[],
  workspaceRules: Iterable<EvaluationRule>,
): EvaluationRule[] {
  const byId = new Map(defaults.map((rule) => [rule.evaluator, rule]));
  for (const rule of workspaceRules) byId.set(rule.evaluator, rule);
  return [...byId.values()].sort((a, b) => (a.evaluator < b.evaluator ? -1 : 1));
}

/** Whether a rule judges anything new in a workspace. */
export const isLive = (rule: EvaluationRule, workspace_id: string): boolean =>
  rule.enabled &&
  rule.sample_rate > 0 &&
  (rule.filter.workspaces === undefined || rule.filter.workspaces.includes(workspace_id));
