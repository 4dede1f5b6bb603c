// Evidence about judges, read from the store: how two populations of stored verdicts on the same
// targets agree (an evaluator version against the reviewers, the users, another version), which
// targets they disagree on, and the evidence a promotion is decided on. The statistics are
// src/agreement's; this folder reads the verdicts they are computed from.

export {
  type BacktestQuery,
  type BacktestStatistics,
  judgeFieldOf,
  readBacktest,
} from './backtest.js';
export {
  type AgreementQuery,
  type AgreementReport,
  compareSides,
  DEFAULT_DISAGREEMENTS_LISTED,
  type Disagreement,
  type RatersAgreement,
  type SideReport,
} from './compare.js';
export { AgreementQueryError } from './errors.js';
export { mappingOf } from './mapping.js';
export {
  type PreparedPromotion,
  type PromotionApp,
  type PromotionRequest,
  preparePromotion,
} from './promotion.js';
export {
  type QueuedDisagreements,
  type QueueingApp,
  queueDisagreements,
} from './queue-disagreements.js';
export { type ReviewedQuery, readReviewedTargets } from './reviewed.js';
export { type AgreementApp, type Population, type ResolvedSide, resolveSides } from './sides.js';
export { type PreparedTuning, prepareTuning, type TuneRequest } from './tune.js';
export { readSide, type Slices, type TargetVerdict, type Vote } from './verdicts.js';
