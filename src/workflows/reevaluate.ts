import {
  condition,
  log,
  patched,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type {
  ArtifactVersionKey,
  BackfillCursor,
  EvalflowActivities,
  EvaluationTarget,
} from '../activities/types.js';
import type { EvaluatorRef } from '../evaluators/registry.js';
import { HEARTBEAT_TIMEOUT, RETRY_SOON_THEN_BACK_OFF } from './activity-timing.js';
import { forEachBounded } from './bounded.js';
import { carryOver } from './carry-over.js';
import { evaluateTarget } from './evaluate-target.js';
import {
  batchProgressQuery,
  cancelBatchSignal,
  pauseBatchSignal,
  type ReevaluateInput,
  type ReevaluateProgress,
  resumeBatchSignal,
  setBatchBudgetSignal,
} from './reevaluate-messages.js';

const paging = proxyActivities<
  Pick<
    EvalflowActivities,
    | 'countArtifactVersions'
    | 'listArtifactVersions'
    | 'countBackfillTargets'
    | 'listBackfillTargets'
    | 'batchSpend'
  >
>({
  startToCloseTimeout: '1 minute',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { ...RETRY_SOON_THEN_BACK_OFF, maximumInterval: '1 minute' },
});

interface Pair {
  evaluator: EvaluatorRef;
  target: EvaluationTarget;
}

/** One page of pairs, where the next starts, and whether this was the last. */
interface Page {
  pairs: Pair[];
  after: NonNullable<ReevaluateInput['carried']>['after'];
  last: boolean;
  selected: number;
}

/**
 * Re-evaluates a selection (artifact versions, or a backfill of runs, messages or threads) with
 * pinned evaluator versions: keyset pages, a bounded window of evaluations, continue-as-new after
 * each page. The batch id is the verdicts' generation, so a batch run again (after a cancel, say)
 * skips what it settled. With a budget, the spend is read after every evaluation settles and no
 * evaluation starts once it has reached the budget: the batch overshoots by at most what the
 * evaluations in flight then (at most `concurrency`) cost.
 */
export async function reevaluate(input: ReevaluateInput): Promise<ReevaluateProgress> {
  const progress: ReevaluateProgress = input.carried?.progress ?? startingProgress();
  progress.paused = input.carried?.paused ?? false;
  // Nothing is in flight when a page starts (a progress carried from before this field has none).
  progress.inFlight = 0;
  const budgeted = input.maxCostNanos !== undefined && patched('reevaluate-budget');
  if (budgeted) {
    progress.maxCostNanos = progress.maxCostNanos ?? input.maxCostNanos ?? null;
    progress.spentNanos = progress.spentNanos ?? 0;
    progress.pausedBy = progress.paused ? (progress.pausedBy ?? 'request') : null;
  }
  const overBudget = () =>
    budgeted &&
    progress.maxCostNanos != null &&
    (progress.spentNanos ?? 0) >= progress.maxCostNanos;
  // One line each for the operator (the worker's log), when the batch starts, its budget pauses
  // it and it ends; Temporal writes none while it replays a history.
  const tell = (event: string, message: string, fields: Record<string, unknown> = {}) =>
    log.info(message, {
      event,
      workspace: input.workspaceId,
      batch: input.batchId,
      kind:
        input.selection === undefined
          ? 'artifact versions'
          : `backfill of ${input.selection.kind}s`,
      ...fields,
    });
  const pauseForBudget = () => {
    if (!(progress.paused && progress.pausedBy === 'budget')) {
      tell('batch.paused', 'batch paused by its budget', {
        done: progress.done,
        total: progress.total,
        spentNanos: progress.spentNanos,
        maxCostNanos: progress.maxCostNanos,
      });
    }
    progress.paused = true;
    progress.pausedBy = 'budget';
  };
  handleBatchSignals(progress, budgeted, overBudget);
  setHandler(batchProgressQuery, () => progress);

  const backfill = input.selection !== undefined && patched('reevaluate-backfill');
  const pageSize = input.pageSize ?? 100;
  const page =
    backfill && input.selection !== undefined
      ? await backfillPage(input, input.selection, progress, pageSize)
      : await artifactPage(input, progress, pageSize);

  if (input.carried === undefined) {
    tell('batch.started', 'batch started', {
      evaluators: input.evaluators.map((ref) => `${ref.name}@${ref.version}`).join(','),
      total: progress.total,
    });
  }
  await forEachBounded(page.pairs, input.concurrency ?? 8, async ({ evaluator, target }) => {
    if (overBudget()) pauseForBudget();
    await condition(() => (!progress.paused && !overBudget()) || progress.cancelled);
    if (progress.cancelled) return;
    progress.inFlight += 1;
    const { state } = await evaluateTarget({
      workspaceId: input.workspaceId,
      workflowId: workflowInfo().workflowId,
      evaluator,
      target,
      generation: input.batchId,
    }).finally(() => {
      progress.inFlight -= 1;
    });
    tally(progress, state);
    if (budgeted) {
      progress.spentNanos = await paging.batchSpend({
        workspaceId: input.workspaceId,
        batchId: input.batchId,
      });
    }
  });

  if (progress.cancelled || page.last || page.after === null) {
    const { done, recorded, failed, skipped, sampledOut, spentNanos } = progress;
    tell('batch.finished', progress.cancelled ? 'batch cancelled' : 'batch finished', {
      done,
      recorded,
      failed,
      skipped,
      sampledOut,
      spentNanos,
    });
    return progress;
  }
  return carryOver<typeof reevaluate>({
    ...input,
    carried: {
      after: page.after,
      progress,
      paused: progress.paused,
      ...(backfill ? { selected: page.selected } : {}),
    },
  });
}

const startingProgress = (): ReevaluateProgress => ({
  total: 0,
  done: 0,
  recorded: 0,
  sampledOut: 0,
  failed: 0,
  skipped: 0,
  inFlight: 0,
  paused: false,
  cancelled: false,
});

/** Counts one settled evaluation by how it settled. */
function tally(progress: ReevaluateProgress, state: string): void {
  progress.done += 1;
  if (state === 'recorded') progress.recorded += 1;
  else if (state === 'sampled_out') progress.sampledOut += 1;
  else if (state === 'failed') progress.failed += 1;
  else progress.skipped += 1;
}

/**
 * The next page of a backfill: the targets after the carried cursor, within the selection's
 * limit, each with the evaluators that have not judged it yet. The first page counts the total.
 */
async function backfillPage(
  input: ReevaluateInput,
  selection: NonNullable<ReevaluateInput['selection']>,
  progress: ReevaluateProgress,
  pageSize: number,
): Promise<Page> {
  if (input.carried === undefined) {
    const counts = await paging.countBackfillTargets({
      workspaceId: input.workspaceId,
      selection,
      evaluators: input.evaluators,
    });
    progress.total = Object.values(counts.pairs).reduce((sum, pairs) => sum + pairs, 0);
  }
  const selected = input.carried?.selected ?? 0;
  const room = (selection.limit ?? Number.POSITIVE_INFINITY) - selected;
  const read = await paging.listBackfillTargets({
    workspaceId: input.workspaceId,
    selection,
    evaluators: input.evaluators,
    after: (input.carried?.after ?? null) as BackfillCursor | null,
    limit: pageSize,
  });
  const taken = read.targets.slice(0, Math.max(0, room));
  return {
    pairs: taken.flatMap(({ target, judgedBy }) =>
      input.evaluators
        .filter((ref) => !judgedBy.includes(`${ref.name}@${ref.version}`))
        .map((evaluator) => ({ evaluator, target })),
    ),
    after: read.after,
    last: read.exhausted || taken.length >= room,
    selected: selected + taken.length,
  };
}

/** The next page of artifact versions, each with every evaluator. The first counts the total. */
async function artifactPage(
  input: ReevaluateInput,
  progress: ReevaluateProgress,
  pageSize: number,
): Promise<Page> {
  const selector = input.selector ?? {};
  if (input.carried === undefined) {
    const versions = await paging.countArtifactVersions({
      workspaceId: input.workspaceId,
      selector,
    });
    progress.total = versions * input.evaluators.length;
  }
  const versions = await paging.listArtifactVersions({
    workspaceId: input.workspaceId,
    selector,
    after: (input.carried?.after ?? null) as ArtifactVersionKey | null,
    limit: pageSize,
  });
  return {
    pairs: versions.flatMap((version) =>
      input.evaluators.map((evaluator) => ({
        evaluator,
        target: { kind: 'artifact', ...version } satisfies EvaluationTarget,
      })),
    ),
    after: versions.at(-1) ?? null,
    last: versions.length < pageSize,
    selected: 0,
  };
}

/** Pause, resume, a new budget and cancel, as signals move the batch's progress. */
function handleBatchSignals(
  progress: ReevaluateProgress,
  budgeted: boolean,
  overBudget: () => boolean,
): void {
  setHandler(pauseBatchSignal, () => {
    progress.paused = true;
    if (budgeted) progress.pausedBy = 'request';
  });
  setHandler(resumeBatchSignal, () => {
    // A budget's pause is lifted by raising the budget, not by asking.
    if (overBudget()) {
      progress.pausedBy = 'budget';
      return;
    }
    progress.paused = false;
    if (budgeted) progress.pausedBy = null;
  });
  setHandler(setBatchBudgetSignal, (maxCostNanos) => {
    if (!budgeted) return;
    progress.maxCostNanos = maxCostNanos;
    if (progress.pausedBy === 'budget' && !overBudget()) {
      progress.paused = false;
      progress.pausedBy = null;
    }
  });
  setHandler(cancelBatchSignal, () => {
    progress.cancelled = true;
  });
}
