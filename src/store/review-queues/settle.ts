import type { Backend } from '../backend.js';
import { reviewItemId } from './item.js';
import type { ReviewQueueStore } from './port.js';
import { countItemVerdict } from './verdicts.js';

/** Counts a reviewer's recorded verdict on the target's item in each queue; how many counted. */
export async function settle(
  backend: Backend,
  input: Parameters<ReviewQueueStore['settle']>[0],
): Promise<number> {
  let counted = 0;
  for (const queue_id of input.queue_ids) {
    const counts = await countItemVerdict(backend, {
      workspace_id: input.workspace_id,
      queue_id,
      item_id: reviewItemId(queue_id, input.target_key),
      feedback_type: input.feedback_type,
      reviewer: input.reviewer,
      at: input.now.getTime(),
      now: input.now.getTime(),
    });
    if (counts) counted += 1;
  }
  return counted;
}
