import type { Client } from '@temporalio/client';
import type { EvaluationRule } from '../core/index.js';
import type { Store, Subscription } from '../store/index.js';
import { TriggerRelay } from './relay.js';

/**
 * Runs a trigger relay for every workspace in the store, starting one for each new workspace as
 * it appears (checked every `pollMs`). `close` stops them all.
 */
export function followWorkspaces(options: {
  store: Store;
  client: Client;
  taskQueue: string;
  /** The app's default rules (see `TriggerRelay`). */
  rules: readonly EvaluationRule[];
  /** Limited evaluators' own task queues, by name (see `RelayOptions`). */
  evaluatorTaskQueues?: Readonly<Record<string, string>>;
  /** A run paused longer than this is evaluated as it stands (see `RelayOptions`). */
  abandonAfterMs?: number;
  pollMs?: number;
  onError?: (error: unknown) => void;
  /** Told of each event a relay could not deliver (default `console.warn`). */
  onWarning?: (line: string) => void;
}): { close(): Promise<void> } {
  const following = new Map<string, Promise<Subscription>>();
  let closed = false;
  const report = (error: unknown) => (options.onError ?? console.error)(error);
  const look = async () => {
    for (const workspaceId of await options.store.workspaces()) {
      if (closed || following.has(workspaceId)) continue;
      const subscription = new TriggerRelay({ ...options, workspaceId }).follow();
      following.set(workspaceId, subscription);
      // A relay that failed (Temporal unreachable, say) starts again from its cursor next look.
      subscription
        .then((s) => s.done)
        .catch((error: unknown) => {
          following.delete(workspaceId);
          if (!closed) report(error);
        });
    }
  };
  look().catch(report);
  const timer = setInterval(() => look().catch(report), options.pollMs ?? 2000);
  return {
    async close() {
      closed = true;
      clearInterval(timer);
      await Promise.allSettled([...following.values()].map(async (s) => (await s).close()));
    },
  };
}
