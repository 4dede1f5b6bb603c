// The messages of `ingestTrace`, one workflow per trace an OTLP exporter sends: shared by the
// workflow, the receiver's client and the tests.
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { SpanReporter, TraceOutcome } from '../activities/types.js';

export interface IngestTraceInput {
  workspaceId: string;
  traceId: string;
  reporter: SpanReporter;
  /** How long after a run's span arrives its run is recorded, for spans of the next batch. */
  settleMs: number;
  /** How long after the last span a trace whose run's span never came ends its run `stopped`. */
  idleMs: number;
  /** Where else a conversation id may be (an attribute the workspace names). */
  conversationAttribute?: string;
  /** State carried over continue-as-new. */
  carried?: IngestTraceState;
}

export interface IngestTraceState {
  /** Batches of spans signalled. */
  batches: number;
  /** Batches the last translation covered. */
  translated: number;
  /** A batch held a span that may end a run (an agent span or a root), not yet translated. */
  endPending: boolean;
  /** What the last translation recorded. */
  last: TraceOutcome | null;
  /**
   * The trace went quiet for its idle timeout before this workflow ran (the receiver's
   * signaller says so): translate as idle at once. Absent in states carried before it existed.
   */
  quietPending?: boolean;
}

/**
 * Spans of the trace are stored; `mayEnd`: they hold an agent span or a root span; `quiet`: no
 * span has come for the idle timeout.
 */
export interface SpansStored {
  mayEnd: boolean;
  quiet?: boolean;
}
export const spansStoredSignal = defineSignal<[SpansStored]>('spansStored');
export const ingestTraceStateQuery = defineQuery<IngestTraceState>('ingestTraceState');

/** One workflow per trace, in one store and workspace. */
export const ingestTraceWorkflowId = (storeId: string, workspaceId: string, traceId: string) =>
  `ingest-trace:${storeId}:${workspaceId}:${traceId}`;
