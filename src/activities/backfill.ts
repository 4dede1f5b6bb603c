import { isInBackfillSample } from '../evaluators/index.js';
import {
  backfillPage,
  countBackfill,
  type EvaluationRecords,
  type TargetIndexes,
} from '../store/index.js';
import type { BatchSpendInput } from './types.js';

// A backfill's pages and counts (the store's selection, sampled by the evaluators' hash), and a
// batch's spend so far: the usage recorded under its generation.
export function backfillActivities({
  store,
}: {
  store: Pick<TargetIndexes, 'backfillTargets'> & Pick<EvaluationRecords, 'usage'>;
}) {
  return {
    countBackfillTargets: (input: Parameters<typeof countBackfill>[2]) =>
      countBackfill(store.backfillTargets, isInBackfillSample, input),
    listBackfillTargets: (input: Parameters<typeof backfillPage>[2]) =>
      backfillPage(store.backfillTargets, isInBackfillSample, input),
    async batchSpend({ workspaceId, batchId }: BatchSpendInput): Promise<number> {
      const [row] = await store.usage.spend({ workspace_id: workspaceId, generation: batchId }, []);
      return row?.cost_nanos ?? 0;
    },
  };
}
