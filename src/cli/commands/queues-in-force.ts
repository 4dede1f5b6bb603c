import type { AppDefinition } from '../../config/index.js';
import { queuesInForce } from '../../core/index.js';
import type { EvaluationRecords } from '../../store/index.js';
import { usage } from '../context.js';

/** The queues in force in a workspace, each with its origin. */
export async function queuesOf(
  store: Pick<EvaluationRecords, 'reviewQueues'>,
  app: AppDefinition,
  workspace: string,
) {
  return queuesInForce(app.reviewQueues, await store.reviewQueues.definitions(workspace));
}

/** A queue in force by id; a usage error names the queues' list when there is none. */
export async function queueOf(
  store: Pick<EvaluationRecords, 'reviewQueues'>,
  app: AppDefinition,
  workspace: string,
  queueId: string,
) {
  const queue = (await queuesOf(store, app, workspace)).find((q) => q.queue_id === queueId);
  if (queue === undefined) {
    usage(`no review queue ${queueId} in workspace ${workspace}: see evalflow queues list`);
  }
  return queue;
}
