import {
  evaluatorParticipant,
  type JudgeVersion,
  type Pricing,
  type Target,
  targetKey,
} from '../core/index.js';
import { costThroughBaseNanos } from '../evaluators/index.js';
import type { UsageLedger } from '../store/index.js';
import { type AddedTokensDeps, addedInputTokens } from './added-tokens.js';

// A judge version recorded as data has no calls of its own until it judges, yet its backtest is
// previewed before it does. It reads the same targets with the same model as the version it was
// tuned from, with a longer prompt: so it costs what its base's calls on those targets cost, plus
// the input tokens its prompt adds (`added-tokens.ts`) at the model's price.

export interface TunedCostDeps extends AddedTokensDeps {
  store: AddedTokensDeps['store'] & { usage: Pick<UsageLedger, 'measuredCost' | 'usageOn'> };
  pricing: Readonly<Pricing>;
}

/**
 * One evaluation's expected cost by `version` in nano-dollars (a mean, not rounded), through its
 * base's measured calls in the workspace: on `targets` when the batch lists them and the base has
 * priced calls on every one (a backtest's held-out targets), else on all it judged here. Null when
 * they cannot tell: the model has no price, the base has no priced evaluation, or the prompt's
 * added tokens are not known (`addedInputTokens`).
 */
export async function costThroughBase(
  deps: TunedCostDeps,
  workspaceId: string,
  version: JudgeVersion,
  targets?: readonly Target[],
): Promise<number | null> {
  const price = deps.pricing[version.model];
  if (price === undefined) return null;
  const added = await addedInputTokens(deps, workspaceId, version);
  if (added === null) return null;
  const participant = evaluatorParticipant({ name: version.judge, version: version.tunedFrom });
  const meanCostNanos = await baseMeanCost(deps, workspaceId, participant, targets);
  return meanCostNanos === null ? null : costThroughBaseNanos(meanCostNanos, added, price);
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
