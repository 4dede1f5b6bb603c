// `evalflow/workflow-clients`: requests to evalflow's workflows over Temporal, for the API, the
// CLI and hosts that hold a Temporal client: reviewers' actions (one review workflow per target),
// batch re-evaluation, and a run's evaluation state. Each checks a request whole before Temporal
// sees it (`InvalidRequestError`).
export {
  type BatchPauseReason,
  batchPauseReasons,
  type ReevaluateProgress,
} from '../workflows/reevaluate-messages.js';
export { InvalidRequestError } from './errors.js';
export {
  type CostBasis,
  DEFAULT_ATTEMPT_MS,
  type DurationBasis,
  type PreviewDeps,
  type PreviewRequest,
  previewReevaluation,
  type ReevaluationPreview,
  type VersionPreview,
  wirePreview,
} from './reevaluation-preview.js';
export {
  ReevaluationClient,
  type ReevaluationRequest,
  waitingOnBudget,
} from './reevaluations.js';
export { type ReviewBody, ReviewClient, type ReviewClientOptions } from './reviews.js';
export { runEvaluationState } from './runs.js';
