// The trigger relay: follows each workspace's log from a saved cursor and signals the workflows
// its events drive. The worker process runs one per workspace (`followWorkspaces`, under a lease).
export {
  type Following,
  type FollowOptions,
  fairShare,
  followWorkspaces,
  RELAY_MEMBER_SLOTS,
  relayLeaseName,
} from './follow-workspaces.js';
export { QueueRouter, type QueueRouterOptions } from './queue-router.js';
export {
  lookupKey,
  type Routed,
  route,
  routingNeeds,
  settlementOf,
  type VerdictLookup,
  type Verdicts,
} from './queue-routing.js';
export { RELAY_CURSOR, type RelayOptions, TriggerRelay } from './relay.js';
export {
  signalTrace,
  startTraceSignaller,
  TRACE_SIGNALS_LEASE,
  type TraceSignaller,
  type TraceSignallerOptions,
} from './trace-signaller.js';
