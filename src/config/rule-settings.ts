import { z } from 'zod';
import { type EvaluationRule, RuleFilter, RuleSettings } from '../core/index.js';

// A rule's settings as people write them (the config file, the HTTP API): camelCase, mapped once
// onto the core's wire settings. The element rules (ids, kinds, rates) are the core's.

export const RuleSettingsInput = z.strictObject({
  targets: RuleSettings.targets,
  sampleRate: RuleSettings.sample_rate,
  filter: z
    .strictObject({
      workspaces: RuleFilter.shape.workspaces,
      artifactKinds: RuleFilter.shape.artifact_kinds,
    })
    .default({}),
  enabled: RuleSettings.enabled,
  /** `shadow`: judge beside the live versions of the feedback type, never as its current verdict. */
  mode: RuleSettings.mode,
  /** How long a thread is quiet before it is judged (`'30m'`); rules that target threads only. */
  idleFor: RuleSettings.idle_for,
});
export type RuleSettingsInput = z.output<typeof RuleSettingsInput>;

/** The core's settings (snake_case) of settings written in camelCase. */
export function ruleSettingsOf(input: RuleSettingsInput): Omit<EvaluationRule, 'evaluator'> {
  const { workspaces, artifactKinds } = input.filter;
  return {
    targets: [...new Set(input.targets)].sort(),
    sample_rate: input.sampleRate,
    filter: {
      ...(workspaces ? { workspaces: [...workspaces] } : {}),
      ...(artifactKinds ? { artifact_kinds: [...artifactKinds] } : {}),
    },
    enabled: input.enabled,
    // Live is the default, so only a shadow rule says its mode.
    ...(input.mode === 'shadow' ? { mode: input.mode } : {}),
    ...(input.idleFor === undefined ? {} : { idle_for: input.idleFor }),
  };
}
