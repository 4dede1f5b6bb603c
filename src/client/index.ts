// What a host application uses: the trigger relay and the reviewers' client.
export { followWorkspaces } from './follow-workspaces.js';
export { type RelayOptions, TriggerRelay } from './relay.js';
export { type ReviewBody, ReviewClient, reviewWorkflowId } from './reviews.js';
