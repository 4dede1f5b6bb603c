import type { Client } from '@temporalio/client';
import type { OperationsLog } from '../metrics/index.js';
import { RELAY_CURSOR } from '../relay/index.js';
import type { EventLog } from '../store/index.js';

// What an engine takes up when it starts: the workflows still running on its task queue (a
// restart after a crash resumes them, each from its history) and the events its relays have yet
// to deliver. Said once, at start, so an operator knows what the restart picked up.

/** The workflow types an operator counts, by the name the line gives them. */
const COUNTED = {
  runEvaluations: 'evaluateRun',
  threadEvaluations: 'evaluateThread',
  batches: 'reevaluate',
  reviews: 'review',
  traces: 'ingestTrace',
} as const;

export type InFlight = Record<keyof typeof COUNTED, number> & { relayBacklog: number };

/** Counts the running workflows of each type on `taskQueue`, and the relays' backlog. */
export async function inFlight(
  client: Client,
  taskQueue: string,
  store: EventLog,
): Promise<InFlight> {
  const counts = await Promise.all(
    Object.entries(COUNTED).map(async ([name, type]) => {
      const query = `TaskQueue = "${taskQueue}" AND WorkflowType = "${type}" AND ExecutionStatus = "Running"`;
      return [name, (await client.workflow.count(query)).count] as const;
    }),
  );
  return {
    ...(Object.fromEntries(counts) as Record<keyof typeof COUNTED, number>),
    relayBacklog: (await store.backlog(RELAY_CURSOR)).events,
  };
}

/** Says what the engine resumed; a cluster that cannot count (no advanced visibility) says why. */
export async function tellInFlight(
  operations: OperationsLog,
  count: () => Promise<InFlight>,
): Promise<void> {
  try {
    const found = await count();
    operations.info({ event: 'engine.resumed', ...found }, 'engine resumed what was in flight');
  } catch (error) {
    operations.warn(
      { event: 'engine.resumed', error: (error as Error).message },
      'engine could not count what was in flight',
    );
  }
}
