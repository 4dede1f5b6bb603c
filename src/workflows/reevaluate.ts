import {
  allHandlersFinished,
  condition,
  continueAsNew,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { EvalflowActivities, EvaluationTarget } from '../activities/types.js';
import { forEachBounded } from './bounded.js';
import { evaluateTarget } from './evaluate-target.js';
import { HEARTBEAT_TIMEOUT } from './heartbeat-timeout.js';
import {
  batchProgressQuery,
  cancelBatchSignal,
  pauseBatchSignal,
  type ReevaluateInput,
  type ReevaluateProgress,
  resumeBatchSignal,
} from './reevaluate-messages.js';

const paging = proxyActivities<
  Pick<EvalflowActivities, 'countArtifactVersions' | 'listArtifactVersions'>
>({
  startToCloseTimeout: '1 minute',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { maximumInterval: '1 minute' },
});

/**
 * Re-evaluates a selection of artifact versions with pinned evaluator versions: keyset pages,
 * a bounded window of evaluations, continue-as-new after each page. The batch id is the
 * verdicts' generation, so a batch run again (after a cancel, say) skips what it settled.
 */
export async function reevaluate(input: ReevaluateInput): Promise<ReevaluateProgress> {
  const progress: ReevaluateProgress = input.carried?.progress ?? {
    total: 0,
    done: 0,
    recorded: 0,
    sampledOut: 0,
    failed: 0,
    skipped: 0,
    inFlight: 0,
    paused: false,
    cancelled: false,
  };
  progress.paused = input.carried?.paused ?? false;
  // Nothing is in flight when a page starts (a progress carried from before this field has none).
  progress.inFlight = 0;
  setHandler(pauseBatchSignal, () => {
    progress.paused = true;
  });
  setHandler(resumeBatchSignal, () => {
    progress.paused = false;
  });
  setHandler(cancelBatchSignal, () => {
    progress.cancelled = true;
  });
  setHandler(batchProgressQuery, () => progress);
  if (input.carried === undefined) {
    const versions = await paging.countArtifactVersions({
      workspaceId: input.workspaceId,
      selector: input.selector,
    });
    progress.total = versions * input.evaluators.length;
  }

  const pageSize = input.pageSize ?? 100;
  const page = await paging.listArtifactVersions({
    workspaceId: input.workspaceId,
    selector: input.selector,
    after: input.carried?.after ?? null,
    limit: pageSize,
  });
  const pairs = page.flatMap((version) =>
    input.evaluators.map((evaluator) => ({
      evaluator,
      target: { kind: 'artifact', ...version } satisfies EvaluationTarget,
    })),
  );
  await forEachBounded(pairs, input.concurrency ?? 8, async ({ evaluator, target }) => {
    await condition(() => !progress.paused || progress.cancelled);
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
    progress.done += 1;
    if (state === 'recorded') progress.recorded += 1;
    else if (state === 'sampled_out') progress.sampledOut += 1;
    else if (state === 'failed') progress.failed += 1;
    else progress.skipped += 1;
  });

  const last = page.at(-1);
  if (progress.cancelled || last === undefined || page.length < pageSize) return progress;
  await condition(allHandlersFinished);
  return continueAsNew<typeof reevaluate>({
    ...input,
    carried: { after: last, progress, paused: progress.paused },
  });
}
