import type { Client } from '@temporalio/client';
import type { StoreIdentity } from '../store/index.js';
import {
  type IngestTraceInput,
  ingestTraceWorkflowId,
  spansStoredSignal,
} from '../workflows/ingest-trace-messages.js';

/** What the receiver passes on about one trace's batch: its spans are stored already. */
export type TraceBatch = Omit<IngestTraceInput, 'carried'> & { mayEnd: boolean };

/**
 * Tells the trace's workflow that a batch of its spans is stored, starting it if it is not
 * running (signal-with-start: one call, and the signal is durable once it returns).
 */
export async function signalTraceBatch(
  client: Client,
  store: StoreIdentity,
  taskQueue: string,
  { mayEnd, ...input }: TraceBatch,
): Promise<void> {
  await client.workflow.signalWithStart('ingestTrace', {
    workflowId: ingestTraceWorkflowId(store.id, input.workspaceId, input.traceId),
    taskQueue,
    args: [input],
    signal: spansStoredSignal,
    signalArgs: [{ mayEnd }],
  });
}
