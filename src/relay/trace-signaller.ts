import type { Client } from '@temporalio/client';
import type {
  DueTrace,
  EventLog,
  Lease,
  Store,
  StoreIdentity,
  TraceInbox,
} from '../store/index.js';
import { ingestTraceWorkflowId, spansStoredSignal } from '../workflows/ingest-trace-messages.js';
import { mapConcurrently } from './concurrently.js';

// Drains the OTLP receiver's outbox (store/trace-signals.ts): tells each due trace's workflow,
// then removes its row as read. One process at a time does it, under the `trace-signals` lease.
// Woken by word of a batch that may end a run (as of an append, here or from another process),
// and every `pollMs` for the traces that went quiet and for word that was missed. A signal that
// fails (Temporal unreachable) leaves its row for the next pass; a row removed after a crash
// before `done` is signalled again, which the workflow takes as one more batch.

export const TRACE_SIGNALS_LEASE = 'trace-signals';

/** Rows read per pass; a full page is followed at once by the next. */
const PAGE = 256;
/** Workflows signalled at once. */
const CONCURRENCY = 16;

export interface TraceSignallerOptions {
  /** The outbox it drains, word of appends that wakes it, and the lease it drains under. */
  store: StoreIdentity & TraceInbox & Pick<EventLog, 'watchAppends'> & Pick<Store, 'leases'>;
  client: Client;
  taskQueue: string;
  /** How often it looks for traces gone quiet, and for the lease (default 1000 ms). */
  pollMs?: number;
  /** Told of a pass that failed (default `console.error`); its rows stay for the next. */
  onError?: (error: unknown) => void;
  /** The clock (default `Date.now`). */
  nowMs?: () => number;
}

export interface TraceSignaller {
  close(): Promise<void>;
}

/**
 * Tells a trace's workflow that spans of it are stored (a batch that may end a run, or the trace
 * gone quiet), starting it if it is not running: signal-with-start, one call, durable once it
 * returns.
 */
export async function signalTrace(
  client: Client,
  store: StoreIdentity,
  taskQueue: string,
  trace: DueTrace,
): Promise<void> {
  await client.workflow.signalWithStart('ingestTrace', {
    workflowId: ingestTraceWorkflowId(store.id, trace.workspace_id, trace.trace_id),
    taskQueue,
    args: [
      {
        workspaceId: trace.workspace_id,
        traceId: trace.trace_id,
        reporter: trace.reporter,
        settleMs: trace.settle_ms,
        idleMs: trace.idle_ms,
        ...(trace.conversation_attribute
          ? { conversationAttribute: trace.conversation_attribute }
          : {}),
      },
    ],
    signal: spansStoredSignal,
    signalArgs: [{ mayEnd: trace.may_end, ...(trace.quiet ? { quiet: true } : {}) }],
  });
}

export function startTraceSignaller(options: TraceSignallerOptions): TraceSignaller {
  const { store } = options;
  const nowMs = options.nowMs ?? Date.now;
  let lease: Lease | null = null;
  let closed = false;
  let running: Promise<void> = Promise.resolve();
  let again = false;

  const tell = async (trace: DueTrace) => {
    await signalTrace(options.client, store, options.taskQueue, trace);
    await store.traceSignals.done(trace);
  };

  const drain = async () => {
    if (lease === null) {
      [lease = null] = await store.leases.take([TRACE_SIGNALS_LEASE]);
      const held = lease;
      void held?.lost.then(() => {
        if (lease === held) lease = null;
      });
    }
    for (;;) {
      if (closed || lease === null) return;
      const due = await store.traceSignals.due(nowMs(), PAGE);
      await mapConcurrently(due, CONCURRENCY, tell);
      if (due.length < PAGE) return;
    }
  };

  // One pass at a time; word that comes during a pass runs one more after it.
  const pass = () => {
    if (closed) return;
    if (again) return;
    again = true;
    running = running.then(async () => {
      again = false;
      await drain().catch((error: unknown) => (options.onError ?? console.error)(error));
    });
  };

  const stopWatching = store.watchAppends(pass);
  const timer = setInterval(pass, options.pollMs ?? 1000);
  pass();

  return {
    async close() {
      closed = true;
      clearInterval(timer);
      stopWatching();
      await running;
      await lease?.release();
      lease = null;
    },
  };
}
