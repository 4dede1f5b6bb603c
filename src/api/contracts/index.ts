import { agreementRoutes } from './agreement.js';
import { budgetRoutes } from './budgets.js';
import { costRoutes } from './costs.js';
import { eventRoutes } from './events.js';
import { feedbackRoutes } from './feedback.js';
import { healthRoutes } from './health.js';
import { judgeRoutes } from './judges.js';
import { lifecycleRoutes } from './lifecycle.js';
import { listRoutes } from './lists.js';
import { readingRoutes } from './reading.js';
import { reevaluationRoutes } from './reevaluations.js';
import { reviewQueueRoutes } from './review-queues.js';
import { reviewWorkRoutes } from './review-work.js';
import { reviewerSignInRoutes } from './reviewer-sign-in.js';
import { reviewRoutes } from './reviews.js';
import { ruleRoutes } from './rules.js';
import { scoreConfigRoutes } from './score-configs.js';
import { scoreRoutes } from './scores.js';
import { userTokenRoutes } from './user-tokens.js';

// The route table: every route declared as data, once. The server binds each to its handler
// (src/api/routes), the HTTP client derives its calls and types from it (src/client), and
// `npm run docs:routes` writes the client's table of paths and docs/api.md's list from it.

export const routeContracts = {
  ...healthRoutes,
  ...userTokenRoutes,
  ...lifecycleRoutes,
  ...feedbackRoutes,
  ...reviewRoutes,
  ...readingRoutes,
  ...listRoutes,
  ...ruleRoutes,
  ...judgeRoutes,
  ...agreementRoutes,
  ...costRoutes,
  ...reevaluationRoutes,
  ...scoreRoutes,
  ...scoreConfigRoutes,
  ...eventRoutes,
  ...reviewQueueRoutes,
  ...reviewWorkRoutes,
  ...reviewerSignInRoutes,
  ...budgetRoutes,
};
export type RouteContracts = typeof routeContracts;
export type RouteName = keyof RouteContracts;
export type { HttpMethod, RouteContract } from './contract.js';
