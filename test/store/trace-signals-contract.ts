import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DueTrace, TraceBatch, TraceInbox } from '../../src/store/index.js';
import { conformanceFeedbackTypes } from '../../src/testing/index.js';
import type { Opened, OpenPorts } from './open-ports.js';

/** The store ports this suite holds the backends to (the type checker keeps it to them). */
type Ports = TraceInbox;

// The spans the OTLP receiver keeps and its outbox, run unchanged against every adapter: each span
// read once; a row per trace, folded from its batches in the spans' transaction, due at once
// when a batch may end a run, else once quiet, removed only as it was read.

let counter = 0;
const freshWorkspace = () => `traces-${Date.now().toString(36)}-${++counter}`;
const IDLE_MS = 60_000;

const batch = (trace_id: string, may_end: boolean): TraceBatch => ({
  trace_id,
  reporter: 'agent',
  settle_ms: 2_000,
  idle_ms: IDLE_MS,
  conversation_attribute: null,
  may_end,
});
const span = (trace_id: string, span_id: string) => ({ trace_id, span_id, body: { span_id } });

export function traceSignalsContract(adapter: string, open: OpenPorts<Ports>) {
  describe(`the ${adapter} trace spans and outbox`, () => {
    let store: Opened<Ports>;
    let clock = Date.parse('2026-03-01T10:00:00Z');
    beforeAll(async () => {
      store = await open({ feedbackTypes: conformanceFeedbackTypes(), now: () => new Date(clock) });
    });
    afterAll(async () => {
      await store?.close();
    });
    const dueIn = async (ws: string, at = clock) =>
      (await store.traceSignals.due(at, 1_000)).filter((trace) => trace.workspace_id === ws);

    it('folds a trace’s batches into one row, due at once when one may end a run', async () => {
      const ws = freshWorkspace();
      await store.traceSpans.put(ws, [span('t1', 's1')], [batch('t1', false)]);
      expect(await dueIn(ws)).toEqual([]);
      clock += 1_000;
      await store.traceSpans.put(ws, [span('t1', 's2')], [batch('t1', true)]);
      await store.traceSpans.put(ws, [span('t1', 's3')], [batch('t1', false)]);
      expect(await dueIn(ws)).toEqual<DueTrace[]>([
        { ...batch('t1', true), workspace_id: ws, quiet: false, version: 3 },
      ]);
      // Waiting since the batch that may end it, not since the trace's first.
      expect(await store.traceSignals.oldestEndingMs()).toBe(clock);
      expect(await store.traceSpans.ofTrace(ws, 't1')).toHaveLength(3);
    });

    it('makes a trace with no span that may end a run due once quiet for its idle timeout', async () => {
      const ws = freshWorkspace();
      await store.traceSpans.put(ws, [span('t2', 's1')], [batch('t2', false)]);
      clock += IDLE_MS / 2;
      await store.traceSpans.put(ws, [span('t2', 's2')], [batch('t2', false)]);
      expect(await dueIn(ws, clock + IDLE_MS - 1)).toEqual([]);
      expect(await dueIn(ws, clock + IDLE_MS)).toEqual([
        expect.objectContaining({ trace_id: 't2', may_end: false, quiet: true, version: 2 }),
      ]);
    });

    it('removes a row only as it was read: a batch since keeps it due', async () => {
      const ws = freshWorkspace();
      await store.traceSpans.put(ws, [span('t3', 's1')], [batch('t3', true)]);
      const [read] = await dueIn(ws);
      await store.traceSpans.put(ws, [span('t3', 's2')], [batch('t3', false)]);
      await store.traceSignals.done(read as DueTrace);
      const [still] = await dueIn(ws);
      expect(still).toMatchObject({ trace_id: 't3', may_end: true, version: 2 });
      await store.traceSignals.done(still as DueTrace);
      expect(await dueIn(ws, clock + IDLE_MS)).toEqual([]);
    });

    it('reads each span once, as first received, however often and in whatever batch it came', async () => {
      const ws = freshWorkspace();
      const as = (span_id: string, v: number) => ({
        trace_id: 't5',
        span_id,
        body: { span_id, v },
      });
      await store.traceSpans.put(ws, [as('s1', 1), as('s2', 1)], []);
      clock += 1;
      await store.traceSpans.put(ws, [as('s1', 1), as('s2', 1)], []);
      await store.traceSpans.put(
        ws,
        [as('s2', 2), as('s3', 2), { ...as('x', 0), trace_id: 't6' }],
        [],
      );
      expect(await store.traceSpans.ofTrace(ws, 't5')).toEqual([
        { span_id: 's1', v: 1 },
        { span_id: 's2', v: 1 },
        { span_id: 's3', v: 2 },
      ]);
      expect(await store.traceSpans.ofTrace(ws, 't6')).toEqual([{ span_id: 'x', v: 0 }]);
    });

    it('writes nothing of a put that fails: spans and rows share its transaction', async () => {
      const ws = freshWorkspace();
      const bad = { trace_id: 't4', span_id: 's1', body: 1n as unknown };
      await expect(store.traceSpans.put(ws, [bad], [batch('t4', true)])).rejects.toThrow();
      expect(await dueIn(ws)).toEqual([]);
    });
  });
}
