import { MAX_STEPS_PER_RUN, type RunStep, type RunSteps } from '../core/index.js';
import { joinLogs, type SpanLog } from './otlp-logs.js';
import type { SpanRecord } from './span.js';
import { translateTrace } from './translate.js';

// A trace as the store keeps it: the receiver's spans and, beside them, the log records
// (`POST /v1/logs`) that carry their messages. Reading it back is pure; the store read is the
// caller's, passed in.

const isLog = (row: unknown): row is SpanLog =>
  typeof row === 'object' && row !== null && 'event' in row;

/** A trace's stored rows as its spans, each with the log records that name it as events. */
export function spansOfStored(rows: readonly unknown[]): SpanRecord[] {
  return joinLogs(rows.filter((row) => !isLog(row)) as SpanRecord[], rows.filter(isLog));
}

/** Where a workspace's traces are kept: their rows, in the order they were first received. */
export interface StoredTraces {
  ofTrace(workspace_id: string, trace_id: string): Promise<readonly unknown[]>;
}

/**
 * A run's steps from the stored spans of its traces, in trace order (a run resumed across traces
 * by `evalflow.run.id` has steps in each). A run whose traces hold no spans has none.
 */
export async function stepsOfRun(
  traces: StoredTraces,
  workspaceId: string,
  run: { run_id: string; trace_ids: readonly string[] },
): Promise<RunSteps> {
  const steps: RunStep[] = [];
  let omitted = 0;
  for (const traceId of run.trace_ids) {
    const rows = await traces.ofTrace(workspaceId, traceId);
    if (rows.length === 0) continue;
    // Idle: a run still waiting for its agent span is given too, under the id it will keep.
    const { runs } = translateTrace(spansOfStored(rows), { idle: true });
    for (const found of runs.filter((candidate) => candidate.runId === run.run_id)) {
      steps.push(...found.steps.steps);
      omitted += found.steps.omitted;
    }
  }
  const listed = steps.slice(0, MAX_STEPS_PER_RUN);
  return { steps: listed, omitted: omitted + steps.length - listed.length };
}
