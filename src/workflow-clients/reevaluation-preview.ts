import { evaluatorParticipant, parseEvaluatorId, usdOf } from '../core/index.js';
import {
  type EvaluatorLimit,
  type EvaluatorRegistry,
  estimatedCostNanos,
  isInBackfillSample,
} from '../evaluators/index.js';
import {
  type ArtifactVersionSelector,
  type BackfillCounts,
  type BackfillSelection,
  countBackfill,
  type Store,
} from '../store/index.js';
import { InvalidRequestError } from './errors.js';

// What a batch would judge and cost before it starts: the same count its workflow makes, each
// version's cost from its measured mean (or its declared estimate; null when neither), and a
// duration under the batch's window and the version's limits from its measured attempt time.

export interface VersionPreview {
  /** `name@version`. */
  evaluator: string;
  /** Pairs it would judge. */
  targets: number;
  /** Per evaluation, then for all of them; null: not known. */
  costPerEvaluationNanos: number | null;
  costNanos: number | null;
  /** Its measured mean attempt; null with none recorded. */
  meanAttemptMs: number | null;
  durationMs: number | null;
}

export interface ReevaluationPreview {
  targets: number;
  versions: VersionPreview[];
  /** Null when any version's cost is unknown. */
  costNanos: number | null;
  /** Null when any version's attempt time is unknown. */
  durationMs: number | null;
}

export interface PreviewDeps {
  store: Pick<Store, 'backfillTargets' | 'usage' | 'artifactVersions'>;
  evaluators: EvaluatorRegistry;
  limits: Readonly<Record<string, EvaluatorLimit>>;
}

export interface PreviewRequest {
  /** A backfill's runs, messages or threads; or else `selector`'s artifact versions. */
  selection?: BackfillSelection;
  selector?: ArtifactVersionSelector;
  evaluators: readonly string[];
  /** The batch's window (default 8). */
  concurrency?: number;
}

export async function previewReevaluation(
  deps: PreviewDeps,
  workspaceId: string,
  request: PreviewRequest,
): Promise<ReevaluationPreview> {
  const refs = request.evaluators.map((id) => {
    const ref = parseEvaluatorId(id);
    const evaluator = deps.evaluators.get(ref);
    if (evaluator === undefined) throw new InvalidRequestError(`evaluator ${id} is not deployed`);
    return { id, ref, evaluator };
  });
  if (refs.length === 0) throw new InvalidRequestError('name at least one evaluator');
  const concurrency = request.concurrency ?? 8;
  const counts =
    request.selection !== undefined
      ? await countBackfill(deps.store.backfillTargets, isInBackfillSample, {
          workspaceId,
          selection: request.selection,
          evaluators: refs.map(({ ref }) => ref),
        })
      : await artifactCounts(deps, workspaceId, request.selector ?? {}, refs);
  const versions = await Promise.all(
    refs.map(async ({ id, ref, evaluator }): Promise<VersionPreview> => {
      const participant = evaluatorParticipant(ref);
      const targets = counts.pairs[id] ?? 0;
      const perEvaluation = estimatedCostNanos(
        evaluator,
        await deps.store.usage.measuredCost(participant, workspaceId),
      );
      const { mean_attempt_ms } = await deps.store.usage.measuredDuration(participant, workspaceId);
      const limit = deps.limits[ref.name] ?? {};
      const slots = Math.min(concurrency, limit.maxConcurrent ?? concurrency);
      return {
        evaluator: id,
        targets,
        costPerEvaluationNanos: perEvaluation,
        costNanos: perEvaluation === null ? null : perEvaluation * targets,
        meanAttemptMs: mean_attempt_ms,
        durationMs:
          mean_attempt_ms === null
            ? null
            : Math.max(
                (targets * mean_attempt_ms) / slots,
                limit.perSecond === undefined ? 0 : (targets / limit.perSecond) * 1000,
              ),
      };
    }),
  );
  const known = <K extends 'costNanos' | 'durationMs'>(key: K) =>
    versions.every((version) => version[key] !== null);
  // The versions share the batch's window: the batch takes at least their work spread over it,
  // and at least as long as its slowest version alone.
  const work = versions.reduce(
    (sum, version) => sum + version.targets * (version.meanAttemptMs ?? 0),
    0,
  );
  return {
    targets: counts.targets,
    versions,
    costNanos: known('costNanos')
      ? versions.reduce((sum, version) => sum + (version.costNanos ?? 0), 0)
      : null,
    durationMs: known('durationMs')
      ? Math.max(work / concurrency, ...versions.map((version) => version.durationMs ?? 0))
      : null,
  };
}

async function artifactCounts(
  deps: PreviewDeps,
  workspaceId: string,
  selector: ArtifactVersionSelector,
  refs: readonly { id: string }[],
): Promise<BackfillCounts> {
  const targets = await deps.store.artifactVersions.count(workspaceId, selector);
  return { targets, pairs: Object.fromEntries(refs.map(({ id }) => [id, targets])) };
}

const usd = (nanos: number | null) => (nanos === null ? null : usdOf(nanos));

/**
 * Milliseconds to a tenth, as a preview shows them: a mean over attempts, spread over slots, is
 * any fraction (`2.5500000000000003`), and a tenth of a millisecond is finer than any estimate.
 */
export const shownMs = (ms: number | null): number | null =>
  ms === null ? null : Math.round(ms * 10) / 10;

/**
 * A preview as the API answers it and `--dry-run --json` prints it: money in dollars (each
 * converted once from its whole nano-dollars), milliseconds to a tenth.
 */
export function wirePreview(preview: ReevaluationPreview) {
  return {
    targets: preview.targets,
    costUsd: usd(preview.costNanos),
    durationMs: shownMs(preview.durationMs),
    versions: preview.versions.map((version) => ({
      evaluator: version.evaluator,
      targets: version.targets,
      costPerEvaluationUsd: usd(version.costPerEvaluationNanos),
      costUsd: usd(version.costNanos),
      meanAttemptMs: shownMs(version.meanAttemptMs),
      durationMs: shownMs(version.durationMs),
    })),
  };
}
