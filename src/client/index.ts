// What a host application uses (`evalflow/client`): the trigger relay that drives evaluation
// from the store's log, reviewers' actions, batch re-evaluation, and a run's evaluation state;
// and the HTTP API's client, `EvalflowClient`.
export { InvalidRequestError } from './errors.js';
export { followWorkspaces } from './follow-workspaces.js';
// The HTTP API's client and its types.
export * from './http/index.js';
export {
  ReevaluationClient,
  type ReevaluationRequest,
} from './reevaluations.js';
export { type RelayOptions, TriggerRelay } from './relay.js';
export { type ReviewBody, ReviewClient, type ReviewClientOptions } from './reviews.js';
export { runEvaluationState } from './runs.js';
