import { condition, proxyActivities, setHandler } from '@temporalio/workflow';
import type { EvalflowActivities } from '../activities/types.js';
import { carryOver, historyIsLong } from './carry-over.js';
import {
  type IngestTraceInput,
  type IngestTraceState,
  ingestTraceStateQuery,
  spansStoredSignal,
} from './ingest-trace-messages.js';

/** Past this many history events the workflow continues as new (well below Temporal's cap). */
const HISTORY_BUDGET = 2_000;

/**
 * One trace's spans into runs (docs/traces.md#when-a-run-ends). Exporters send a span when it
 * ends, so a run's agent span comes after its children: when a batch holds one, its runs are
 * recorded after the settle window (spans of the next batch are included), which the activity
 * waits out before it reads the spans: the server's timers fire up to a second late, too coarse
 * for a 2 s window. When no span comes for the idle timeout, runs whose agent span never came are
 * recorded `stopped` and the workflow ends; a span that comes later starts it again, and
 * translating again records nothing twice. The receiver's signaller starts it only when a batch
 * may end a run or the trace has been quiet for the idle timeout (`quiet`: recorded as idle at
 * once), so a run still going costs no workflow.
 */
export async function ingestTrace(input: IngestTraceInput): Promise<IngestTraceState> {
  const state: IngestTraceState = input.carried ?? {
    batches: 0,
    translated: 0,
    endPending: false,
    last: null,
  };
  setHandler(spansStoredSignal, ({ mayEnd, quiet }) => {
    state.batches += 1;
    if (mayEnd) state.endPending = true;
    // Quiet holds until spans come again: a later batch means the trace is not quiet.
    state.quietPending = quiet === true;
  });
  setHandler(ingestTraceStateQuery, () => state);
  const { recordTrace } = proxyActivities<EvalflowActivities>({
    startToCloseTimeout: input.settleMs + 120_000,
    heartbeatTimeout: '30 seconds',
  });
  const record = async (idle: boolean) => {
    const covered = state.batches;
    state.last = await recordTrace({
      settleMs: idle ? 0 : input.settleMs,
      workspaceId: input.workspaceId,
      traceId: input.traceId,
      reporter: input.reporter,
      idle,
      ...(input.conversationAttribute
        ? { conversationAttribute: input.conversationAttribute }
        : {}),
    });
    state.translated = covered;
  };
  for (;;) {
    if (state.endPending) {
      state.endPending = false;
      await record(false);
    } else if (state.quietPending) {
      // The signaller waited out the idle timeout already; no history before it signals quiet.
      state.quietPending = false;
      const seen = state.batches;
      await record(true);
      if (state.batches === seen) return state;
    } else {
      const seen = state.batches;
      const more = await condition(() => state.batches !== seen, input.idleMs);
      if (!more) {
        await record(true);
        // Spans signalled while the last translation ran are translated before it ends.
        if (state.batches === seen) return state;
      }
    }
    if (historyIsLong(HISTORY_BUDGET))
      await carryOver<typeof ingestTrace>({ ...input, carried: state });
  }
}
