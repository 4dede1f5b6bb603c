import type { Client, WorkflowHandle } from '@temporalio/client';

/**
 * The history length of each execution of a workflow, first to last, following its
 * continue-as-new chain from `firstRunId` (visibility lists can lag; histories do not).
 */
export async function historyChain(
  client: Client,
  workflowId: string,
  firstRunId: string,
): Promise<number[]> {
  const lengths: number[] = [];
  let runId: string | undefined = firstRunId;
  while (runId !== undefined) {
    const history: Awaited<ReturnType<WorkflowHandle['fetchHistory']>> = await client.workflow
      .getHandle(workflowId, runId)
      .fetchHistory();
    const events = history.events ?? [];
    lengths.push(events.length);
    runId =
      events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
  }
  return lengths;
}

type HistoryEvent = NonNullable<
  Awaited<ReturnType<WorkflowHandle['fetchHistory']>>['events']
>[number];

/** When the server recorded a history event, in ms since the epoch. */
export const eventTimeMs = ({ eventTime }: HistoryEvent): number =>
  Number(eventTime?.seconds ?? 0) * 1000 + Math.floor((eventTime?.nanos ?? 0) / 1e6);
