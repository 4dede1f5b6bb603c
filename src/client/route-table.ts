import type { RouteContracts } from '../api/routes/table.js';

// Written by `npm run docs:routes` from the route table (src/api/routes/table.ts); do not edit.
// The client loads nothing of the server, so it reads each route's method and path from here; the
// type below makes the compiler check them against the contracts too.

type RouteTable = {
  [Name in keyof RouteContracts]: Pick<RouteContracts[Name], 'method' | 'path'> & {
    /** Statuses that are answers rather than refusals, when not only 2xx. */
    answers?: readonly number[];
  };
};

export const ROUTE_TABLE = {
  health: { method: 'GET', path: '/healthz' },
  ready: { method: 'GET', path: '/readyz', answers: [200, 503] },
  createUserToken: { method: 'POST', path: '/v1/user-tokens' },
  createThread: { method: 'POST', path: '/v1/threads' },
  endThread: { method: 'POST', path: '/v1/threads/:threadId/end' },
  startRun: { method: 'POST', path: '/v1/threads/:threadId/runs' },
  pauseRun: { method: 'POST', path: '/v1/runs/:runId/pause' },
  endRun: { method: 'POST', path: '/v1/runs/:runId/end' },
  postMessage: { method: 'POST', path: '/v1/threads/:threadId/messages' },
  putArtifact: { method: 'PUT', path: '/v1/artifacts/:artifactId' },
  archiveArtifact: { method: 'POST', path: '/v1/artifacts/:artifactId/archive' },
  giveFeedback: { method: 'POST', path: '/v1/feedback' },
  rateMessage: { method: 'PUT', path: '/v1/threads/:threadId/messages/:messageId/rating' },
  deleteRating: { method: 'DELETE', path: '/v1/threads/:threadId/messages/:messageId/rating' },
  conversation: { method: 'GET', path: '/v1/threads/:threadId/conversation' },
  review: { method: 'POST', path: '/v1/reviews' },
  run: { method: 'GET', path: '/v1/runs/:runId' },
  thread: { method: 'GET', path: '/v1/threads/:threadId' },
  ledger: { method: 'GET', path: '/v1/ledger' },
  scoresSummary: { method: 'GET', path: '/v1/scores/summary' },
  threads: { method: 'GET', path: '/v1/threads' },
  runs: { method: 'GET', path: '/v1/runs' },
  rules: { method: 'GET', path: '/v1/evaluation-rules' },
  setRule: { method: 'PUT', path: '/v1/evaluation-rules/:evaluator' },
  judgeVersions: { method: 'GET', path: '/v1/judge-versions' },
  tuneJudge: { method: 'POST', path: '/v1/judge-versions/:version/tune' },
  judgeVersion: { method: 'GET', path: '/v1/judge-versions/:version' },
  judgeBacktest: { method: 'GET', path: '/v1/judge-versions/:version/backtest' },
  agreement: { method: 'GET', path: '/v1/agreement' },
  queueDisagreements: { method: 'POST', path: '/v1/review-queues/:queueId/disagreements' },
  promote: { method: 'POST', path: '/v1/evaluation-rules/:evaluator/promote' },
  costs: { method: 'GET', path: '/v1/costs' },
  previewReevaluation: { method: 'POST', path: '/v1/reevaluations/preview' },
  startReevaluation: { method: 'POST', path: '/v1/reevaluations' },
  reevaluation: { method: 'GET', path: '/v1/reevaluations/:id' },
  setReevaluationBudget: { method: 'POST', path: '/v1/reevaluations/:id/budget' },
  pauseReevaluation: { method: 'POST', path: '/v1/reevaluations/:id/pause' },
  resumeReevaluation: { method: 'POST', path: '/v1/reevaluations/:id/resume' },
  cancelReevaluation: { method: 'POST', path: '/v1/reevaluations/:id/cancel' },
  recordScore: { method: 'POST', path: '/v1/scores' },
  scoreConfigs: { method: 'GET', path: '/v1/score-configs' },
  createScoreConfig: { method: 'POST', path: '/v1/score-configs' },
  archiveScoreConfig: { method: 'PATCH', path: '/v1/score-configs/:configId' },
  events: { method: 'GET', path: '/v1/events' },
  threadEvents: { method: 'GET', path: '/v1/threads/:threadId/events' },
  reviewQueues: { method: 'GET', path: '/v1/review-queues' },
  reviewQueue: { method: 'GET', path: '/v1/review-queues/:queueId' },
  setReviewQueue: { method: 'PUT', path: '/v1/review-queues/:queueId' },
  archiveReviewQueue: { method: 'DELETE', path: '/v1/review-queues/:queueId' },
  enqueue: { method: 'POST', path: '/v1/review-queues/:queueId/items' },
  claim: { method: 'POST', path: '/v1/review-queues/:queueId/claim' },
  reviewItem: { method: 'GET', path: '/v1/review-queues/:queueId/items/:itemId' },
  heartbeat: { method: 'POST', path: '/v1/review-queues/:queueId/items/:itemId/heartbeat' },
  release: { method: 'POST', path: '/v1/review-queues/:queueId/items/:itemId/release' },
  skip: { method: 'POST', path: '/v1/review-queues/:queueId/items/:itemId/skip' },
  submitItem: { method: 'POST', path: '/v1/review-queues/:queueId/items/:itemId/submit' },
  myReviews: { method: 'GET', path: '/v1/review-queues/:queueId/my-reviews' },
  reviewerSignIn: { method: 'POST', path: '/v1/reviewers/:reviewerId/sign-in' },
  budgets: { method: 'GET', path: '/v1/budgets' },
  setBudget: { method: 'PUT', path: '/v1/budgets/:budgetId' },
  removeBudget: { method: 'DELETE', path: '/v1/budgets/:budgetId' },
  budgetChanges: { method: 'GET', path: '/v1/budgets/:budgetId/changes' },
} as const satisfies RouteTable;
