import { ReviewClient } from '../../workflow-clients/index.js';
import { reviewWorkRoutes } from '../contracts/review-work.js';
import { configStatuses } from '../item-view.js';
import { bindRoutes } from './bind-routes.js';
import { claimItem } from './claim-item.js';
import { myReviews } from './my-reviews.js';
import { reviewItem } from './review-item.js';
import { keepLease, releaseLease, skipItem } from './review-leases.js';
import { submitVerdict } from './submit-verdict.js';

// A reviewer's work in a queue (contracts/review-work.ts). A verdict goes through the review
// path (the target's review workflow, HUMAN against its score config) with a request id derived
// from (queue, item, reviewer), so a retried submit records once; only once it is recorded is the
// slot marked done. Each operation's handler is a function in a file named after it.

export { requestIdOf } from './submit-verdict.js';

export const registerReviewWork = bindRoutes(reviewWorkRoutes, (deps) => {
  const reviews = new ReviewClient(deps.temporal.client, deps.store, deps.temporal.taskQueue);
  const statuses = configStatuses(deps.scoreConfigs);
  return {
    claim: ({ params, request }) => claimItem(deps, request, params.queueId),
    reviewItem: ({ params, request }) => reviewItem(deps, statuses, request, params),
    heartbeat: ({ params, request }) => keepLease(deps, request, params),
    release: ({ params, request }) => releaseLease(deps, request, params),
    skip: ({ params, request }) => skipItem(deps, request, params),
    submitItem: ({ params, body, request }) => submitVerdict(deps, reviews, request, params, body),
    myReviews: ({ params, query, request }) =>
      myReviews(deps, request, params.queueId, query.limit),
  };
});
