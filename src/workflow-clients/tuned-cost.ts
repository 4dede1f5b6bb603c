import {
  evaluatorParticipant,
  type JudgeExample,
  type JudgeVersion,
  type Pricing,
  type Target,
  targetKey,
} from '../core/index.js';
import { costThroughBaseNanos, type EvaluatorRegistry } from '../evaluators/index.js';
import type { JudgeVersions, UsageLedger } from '../store/index.js';
import { promptChars } from '../tuning/index.js';

// A judge version recorded as data has no calls of its own until it judges, yet its backtest is
// previewed before it does. It reads the same targets with the same model as the version it was
// tuned from, with a longer prompt: so it costs what its base's calls on those targets cost, plus
// the input tokens its prompt adds, at the base's input tokens per character. Those are measured
// on the base's calls on the version's example targets: each example's text is what the base read
// there, so each of those prompts is known whole. (A chat format's own tokens per message are not
// in proportion to characters: what bounds the estimate, `docs/operations.md`.)

export interface TunedCostDeps {
  store: {
    usage: Pick<UsageLedger, 'measuredCost' | 'usageOn'>;
    judgeVersions: Pick<JudgeVersions, 'get'>;
  };
  evaluators: EvaluatorRegistry;
  pricing: Readonly<Pricing>;
}

/** What a version's prompt is built from. */
interface Prompt {
  rubric: string;
  model: string;
  examples: readonly JudgeExample[];
}

/**
 * One evaluation's expected cost by `version` in nano-dollars (a mean, not rounded), through its
 * base's measured calls in the workspace: on `targets` when the batch lists them and the base has
 * priced calls on every one (a backtest's held-out targets), else on all it judged here. Null when
 * they cannot tell: the base has no priced evaluation, runs another model, the model has no
 * price, or the base judged none of the version's example targets.
 */
export async function costThroughBase(
  deps: TunedCostDeps,
  workspaceId: string,
  version: JudgeVersion,
  targets?: readonly Target[],
): Promise<number | null> {
  const price = deps.pricing[version.model];
  const base = await basePrompt(deps, workspaceId, version);
  if (price === undefined || base === undefined || base.model !== version.model) return null;
  const participant = evaluatorParticipant({ name: version.judge, version: version.tunedFrom });
  const meanCostNanos = await baseMeanCost(deps, workspaceId, participant, targets);
  const added = await addedInputTokens(deps, workspaceId, participant, base, version);
  if (meanCostNanos === null || added === null) return null;
  return costThroughBaseNanos(meanCostNanos, added, price);
}

/** The base's mean cost per evaluation on the listed targets, else on all it judged here. */
async function baseMeanCost(
  deps: TunedCostDeps,
  workspaceId: string,
  participant: string,
  targets: readonly Target[] | undefined,
): Promise<number | null> {
  if (targets !== undefined && targets.length > 0) {
    const keys = [...new Set(targets.map(targetKey))];
    const used = await deps.store.usage.usageOn(participant, workspaceId, keys);
    if (used.length === keys.length && used.every((target) => target.cost_nanos !== null)) {
      const evaluations = used.reduce((sum, target) => sum + target.evaluations, 0);
      return used.reduce((sum, target) => sum + (target.cost_nanos ?? 0), 0) / evaluations;
    }
  }
  const measured = await deps.store.usage.measuredCost(participant, workspaceId);
  return measured.evaluations === 0 ? null : measured.mean_cost_nanos;
}
/** The base's rubric, model and examples: declared in code (no examples), or recorded. */
async function basePrompt(
  deps: TunedCostDeps,
  workspaceId: string,
  version: JudgeVersion,
): Promise<Prompt | undefined> {
  const declared = deps.evaluators.get({ name: version.judge, version: version.tunedFrom })?.judge;
  if (declared !== undefined)
    return { rubric: declared.rubric, model: declared.model, examples: [] };
  return (
    (await deps.store.judgeVersions.get(workspaceId, `${version.judge}@${version.tunedFrom}`)) ??
    undefined
  );
}

/**
 * The input tokens `version`'s prompt adds to its base's, at the base's tokens per character over
 * its calls on the version's example targets. Null when the base judged no example.
 */
async function addedInputTokens(
  deps: TunedCostDeps,
  workspaceId: string,
  participant: string,
  base: Prompt,
  version: JudgeVersion,
): Promise<number | null> {
  const textOf = new Map(version.examples.map((e) => [targetKey(e.target), e.text]));
  const calls = await deps.store.usage.usageOn(participant, workspaceId, [...textOf.keys()]);
  let tokens = 0;
  let chars = 0;
  for (const { target_key, reports, input_tokens } of calls) {
    tokens += input_tokens;
    chars += reports * promptChars(base, textOf.get(target_key) ?? '');
  }
  if (chars === 0) return null;
  return (promptChars(version, '') - promptChars(base, '')) * (tokens / chars);
}
