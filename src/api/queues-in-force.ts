import type { AppDefinition } from '../config/index.js';
import {
  notFound,
  queuesInForce,
  type ReviewQueue,
  type StoredReviewQueue,
} from '../core/index.js';
import type { EvaluationRecords } from '../store/index.js';
import { refuse } from './errors.js';

/** The queues in force in a workspace: the app's defaults, each overridden by its own. */
export async function queuesOf(
  store: Pick<EvaluationRecords, 'reviewQueues'>,
  app: AppDefinition,
  workspaceId: string,
): Promise<(ReviewQueue | StoredReviewQueue)[]> {
  return queuesInForce(app.reviewQueues, await store.reviewQueues.definitions(workspaceId));
}

/** The queue in force under an id; a 404 when there is none. */
export async function queueOf(
  store: Pick<EvaluationRecords, 'reviewQueues'>,
  app: AppDefinition,
  workspaceId: string,
  queueId: string,
): Promise<ReviewQueue | StoredReviewQueue> {
  const queue = (await queuesOf(store, app, workspaceId)).find((q) => q.queue_id === queueId);
  if (queue === undefined) throw refuse(notFound('review queue', queueId));
  return queue;
}
