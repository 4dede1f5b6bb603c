import type { Backend } from '../backend.js';
import { claim } from './claim.js';
import { complete } from './complete.js';
import { counts, figures, reviewerCounts } from './counts.js';
import { definitions, definitionsAt } from './definitions.js';
import { enqueue, enqueueMatching } from './enqueue.js';
import { readItem } from './item.js';
import { heartbeat, release, skip } from './leases.js';
import type { ReviewQueueStore } from './port.js';
import { reviewedBy } from './reviewed-by.js';
import { settle } from './settle.js';

// The review queues' store: each operation is a function of its own file, over the backend.

export function createReviewQueueStore(backend: Backend): ReviewQueueStore {
  return {
    definitions: (workspace_id) => definitions(backend, workspace_id),
    definitionsAt: (workspace_id, seq) => definitionsAt(backend, workspace_id, seq),
    enqueue: (input) => enqueue(backend, input),
    enqueueMatching: (input) => enqueueMatching(backend, input),
    claim: (input) => claim(backend, input),
    heartbeat: (slot) => heartbeat(backend, slot),
    release: (slot) => release(backend, slot),
    skip: (slot) => skip(backend, slot),
    complete: (slot) => complete(backend, slot),
    settle: (input) => settle(backend, input),
    item: (workspace_id, queue_id, item_id) => readItem(backend, workspace_id, queue_id, item_id),
    counts: (workspace_id, queue_id, now) => counts(backend, workspace_id, queue_id, now),
    reviewerCounts: (workspace_id, queue_id, now) =>
      reviewerCounts(backend, workspace_id, queue_id, now),
    figures: (now) => figures(backend, now),
    reviewedBy: (workspace_id, queue_id, reviewer, limit) =>
      reviewedBy(backend, workspace_id, queue_id, reviewer, limit),
  };
}
