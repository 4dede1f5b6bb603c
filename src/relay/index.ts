// The trigger relay: follows each workspace's log from a saved cursor and signals the workflows
// its events drive. The worker process runs one per workspace (`followWorkspaces`, under a lease).
export { followWorkspaces } from './follow-workspaces.js';
export { type RelayOptions, TriggerRelay } from './relay.js';
