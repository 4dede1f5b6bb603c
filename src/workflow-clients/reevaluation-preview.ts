import {
  evaluatorParticipant,
  type JudgeVersion,
  type Pricing,
  parseEvaluatorId,
  type Target,
  usdOf,
} from '../core/index.js';
import {
  type Evaluator,
  type EvaluatorLimit,
  type EvaluatorRegistry,
  estimatedCostNanos,
  isInBackfillSample,
  recordedJudge,
} from '../evaluators/index.js';
import {
  type ArtifactVersionSelector,
  type BackfillCounts,
  type BackfillSelection,
  countBackfill,
  type Store,
} from '../store/index.js';
import { InvalidRequestError } from './errors.js';
import { checkTargets } from './selection.js';
import { costThroughBase } from './tuned-cost.js';

// What a batch would judge and cost before it starts: the same count its workflow makes, each
// version's cost from its measured mean (a version recorded as data that has not judged yet:
// through its base's, `tuned-cost.ts`; else its declared estimate; null when none), and a
// duration from its measured attempt time (or a default, said so) plus what the batch's workflow
// spends around each attempt, under the batch's window and the version's limits.

/** An attempt's time when none is recorded in the workspace: a typical LLM judge's call. */
export const DEFAULT_ATTEMPT_MS = 2000;
/**
 * What the engine spends on one evaluation beyond its attempt, in its slot: scheduling the
 * activity, the store's reads and writes around the judge, the workflow task that takes its
 * result. Measured on the dev server (bench:costs, an endpoint that answers at once).
 */
export const EVALUATION_OVERHEAD_MS = 60;
/**
 * The batch's one workflow takes each evaluation's result in a task of its own, one at a time:
 * the least an evaluation adds to the batch however wide its window.
 */
export const WORKFLOW_TASK_MS = 12;
/** Each page of targets: reading it, then continuing as new. */
export const PAGE_OVERHEAD_MS = 50;
/** Targets per page, as the batch's workflow reads them by default. */
const PAGE_SIZE = 100;

/** Whence a duration: the version's recorded attempts, or the default attempt time. */
export type DurationBasis = 'recorded' | 'default';

/**
 * Whence a cost per evaluation: the version's own mean recorded in the workspace, its base's
 * calls (a version recorded as data, before its own, `tuned-cost.ts`), its declared
 * `estimatedCostUsd`, or none of them.
 */
export type CostBasis = 'recorded' | 'base' | 'declared' | 'unknown';

export interface VersionPreview {
  /** `name@version`. */
  evaluator: string;
  /** Pairs it would judge. */
  targets: number;
  /** Per evaluation, then for all of them; null: not known. */
  costPerEvaluationNanos: number | null;
  costNanos: number | null;
  costBasis: CostBasis;
  /** Its measured mean attempt; null with none recorded. */
  meanAttemptMs: number | null;
  /** Attempts its mean is measured over; 0: the duration assumes `DEFAULT_ATTEMPT_MS`. */
  recordedAttempts: number;
  durationBasis: DurationBasis;
  durationMs: number;
}

export interface ReevaluationPreview {
  targets: number;
  versions: VersionPreview[];
  /** Null when any version's cost is unknown. */
  costNanos: number | null;
  durationMs: number;
  /** `default` when any version's duration assumes the default attempt time. */
  durationBasis: DurationBasis;
}

export interface PreviewDeps {
  store: Pick<Store, 'backfillTargets' | 'usage' | 'artifactVersions' | 'judgeVersions'>;
  evaluators: EvaluatorRegistry;
  limits: Readonly<Record<string, EvaluatorLimit>>;
  /** Prices by model: what prices a recorded version through its base. */
  pricing: Readonly<Pricing>;
}

export interface PreviewRequest {
  /** A backfill's runs, messages or threads; or else `selector`'s artifact versions. */
  selection?: BackfillSelection;
  selector?: ArtifactVersionSelector;
  evaluators: readonly string[];
  /** The batch's window (default 8). */
  concurrency?: number;
}

/** A judge version recorded in the workspace, with the family deployed here that runs it. */
async function recordedOf(deps: PreviewDeps, workspaceId: string, id: string) {
  const recorded = (await deps.store.judgeVersions.get(workspaceId, id)) ?? undefined;
  const evaluator = recorded && recordedJudge(deps.evaluators, recorded);
  return evaluator && { evaluator, recorded };
}

/**
 * One evaluation's expected cost: measured, else through its base if recorded (on the batch's
 * listed targets, if it lists them), else declared.
 */
async function costPerEvaluation(
  deps: PreviewDeps,
  workspaceId: string,
  participant: string,
  { evaluator, recorded }: { evaluator: Evaluator; recorded?: JudgeVersion | undefined },
  targets: readonly Target[] | undefined,
): Promise<{ nanos: number | null; basis: CostBasis }> {
  const measured = await deps.store.usage.measuredCost(participant, workspaceId);
  if (measured.evaluations === 0 && recorded !== undefined) {
    const throughBase = await costThroughBase(deps, workspaceId, recorded, targets);
    if (throughBase !== null) return { nanos: throughBase, basis: 'base' };
  }
  const nanos = estimatedCostNanos(evaluator, measured);
  if (nanos === null) return { nanos, basis: 'unknown' };
  const own = measured.evaluations > 0 && measured.mean_cost_nanos !== null;
  return { nanos, basis: own ? 'recorded' : 'declared' };
}

export async function previewReevaluation(
  deps: PreviewDeps,
  workspaceId: string,
  request: PreviewRequest,
): Promise<ReevaluationPreview> {
  const refs = await Promise.all(
    request.evaluators.map(async (id) => {
      const ref = parseEvaluatorId(id);
      const declared = deps.evaluators.get(ref);
      const found = declared ? { evaluator: declared } : await recordedOf(deps, workspaceId, id);
      if (found === undefined) throw new InvalidRequestError(`evaluator ${id} is not deployed`);
      return { id, ref, ...found };
    }),
  );
  if (refs.length === 0) throw new InvalidRequestError('name at least one evaluator');
  checkTargets(request.selection);
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
    refs.map(async ({ id, ref, ...found }): Promise<VersionPreview> => {
      const participant = evaluatorParticipant(ref);
      const targets = counts.pairs[id] ?? 0;
      const { nanos: perEvaluation, basis } = await costPerEvaluation(
        deps,
        workspaceId,
        participant,
        found,
        request.selection?.targets,
      );
      const { attempts, mean_attempt_ms } = await deps.store.usage.measuredDuration(
        participant,
        workspaceId,
      );
      const limit = deps.limits[ref.name] ?? {};
      const slots = Math.min(concurrency, limit.maxConcurrent ?? concurrency);
      const slotMs = slotTimeMs(mean_attempt_ms);
      return {
        evaluator: id,
        targets,
        costPerEvaluationNanos: perEvaluation === null ? null : Math.round(perEvaluation),
        costNanos: perEvaluation === null ? null : Math.round(perEvaluation * targets),
        costBasis: basis,
        meanAttemptMs: mean_attempt_ms,
        recordedAttempts: attempts,
        durationBasis: mean_attempt_ms === null ? 'default' : 'recorded',
        durationMs: Math.max(
          (targets * slotMs) / slots,
          targets * WORKFLOW_TASK_MS,
          limit.perSecond === undefined ? 0 : (targets / limit.perSecond) * 1000,
        ),
      };
    }),
  );
  // The versions share the batch's window and its workflow: the batch takes at least their work
  // spread over the window, at least one workflow task per evaluation, at least as long as its
  // slowest version alone, and a little more per page.
  const work = versions.reduce(
    (sum, version) => sum + version.targets * slotTimeMs(version.meanAttemptMs),
    0,
  );
  const evaluations = versions.reduce((sum, version) => sum + version.targets, 0);
  const pages = Math.ceil(counts.targets / PAGE_SIZE);
  return {
    targets: counts.targets,
    versions,
    costNanos: versions.every((version) => version.costNanos !== null)
      ? versions.reduce((sum, version) => sum + (version.costNanos ?? 0), 0)
      : null,
    durationMs:
      Math.max(
        work / concurrency,
        evaluations * WORKFLOW_TASK_MS,
        ...versions.map((version) => version.durationMs),
      ) +
      pages * PAGE_OVERHEAD_MS,
    durationBasis: versions.some((version) => version.durationBasis === 'default')
      ? 'default'
      : 'recorded',
  };
}

/** One evaluation's time in its slot: its attempt (measured, else the default) and the engine's. */
const slotTimeMs = (meanAttemptMs: number | null) =>
  (meanAttemptMs ?? DEFAULT_ATTEMPT_MS) + EVALUATION_OVERHEAD_MS;

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
export function shownMs(ms: number): number;
export function shownMs(ms: number | null): number | null;
export function shownMs(ms: number | null): number | null {
  return ms === null ? null : Math.round(ms * 10) / 10;
}

/**
 * A preview as the API answers it and `--dry-run --json` prints it: money in dollars (each
 * converted once from its whole nano-dollars), milliseconds to a tenth.
 */
export function wirePreview(preview: ReevaluationPreview) {
  return {
    targets: preview.targets,
    costUsd: usd(preview.costNanos),
    durationMs: shownMs(preview.durationMs),
    durationBasis: preview.durationBasis,
    versions: preview.versions.map((version) => ({
      evaluator: version.evaluator,
      targets: version.targets,
      costPerEvaluationUsd: usd(version.costPerEvaluationNanos),
      costUsd: usd(version.costNanos),
      costBasis: version.costBasis,
      meanAttemptMs: shownMs(version.meanAttemptMs),
      recordedAttempts: version.recordedAttempts,
      durationBasis: version.durationBasis,
      durationMs: shownMs(version.durationMs),
    })),
  };
}
