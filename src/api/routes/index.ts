import type { Api } from '../options.js';
import { registerTraceReceiver } from '../otlp/receiver.js';
import { registerAgreement } from './agreement.js';
import { registerBudgets } from './budgets.js';
import type { RouteDeps } from './context.js';
import { registerCosts } from './costs.js';
import { registerEvents } from './events.js';
import { registerFeedback } from './feedback.js';
import { registerHealth } from './health.js';
import { registerJudges } from './judges.js';
import { registerLifecycle } from './lifecycle.js';
import { registerLists } from './lists.js';
import { registerReading } from './reading.js';
import { registerReevaluations } from './reevaluations.js';
import { registerReviewQueues } from './review-queues.js';
import { registerReviewWork } from './review-work.js';
import { registerReviewerSignIn } from './reviewer-sign-in.js';
import { registerReviews } from './reviews.js';
import { registerRules } from './rules.js';
import { registerScoreConfigs } from './score-configs.js';
import { registerScores } from './scores.js';
import { registerUserTokens } from './user-tokens.js';

export function registerRoutes(api: Api, deps: RouteDeps): void {
  for (const register of [
    registerHealth,
    registerUserTokens,
    registerLifecycle,
    registerFeedback,
    registerReviews,
    registerReading,
    registerLists,
    registerRules,
    registerJudges,
    registerAgreement,
    registerCosts,
    registerReevaluations,
    registerScores,
    registerScoreConfigs,
    registerEvents,
    registerReviewQueues,
    registerReviewWork,
    registerReviewerSignIn,
    registerBudgets,
    registerTraceReceiver,
  ]) {
    register(api, deps);
  }
}
