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

// The route table: every route of every group, each declared once, in its group's file. The
// server registers each group's (./index.ts), the HTTP client derives its calls and types from
// this table (src/client, as types only), and `npm run docs:routes` writes the client's table of
// paths and docs/api.md's list from it.

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
export type { HttpMethod, RouteContract } from '../contracts/contract.js';
