import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities } from '../../src/activities/create-activities.js';
import { createFeedbackTypeRegistry } from '../../src/core/index.js';
import { createEvaluatorRegistry } from '../../src/evaluators/index.js';
import { signalTrace, startTraceSignaller } from '../../src/relay/index.js';
import { openSqliteStore, type Store } from '../../src/store/index.js';
import { InMemoryScoreSink } from '../../src/testing/index.js';
import type { SpanRecord } from '../../src/traces/index.js';
import {
  ingestTraceStateQuery,
  ingestTraceWorkflowId,
} from '../../src/workflows/ingest-trace-messages.js';
import { eventually } from '../support/processes.js';
import {
  recordHistory,
  testWorker,
  timeSkippingEnvironment,
  uniqueTaskQueue,
} from '../support/temporal.js';
import { genaiAgent, span, spanId, TRACE } from '../traces/spans.js';

// When a trace's runs are recorded: a settle window after the agent span, which takes in the next
// batch's spans (waited in real time by the activity, as the server's timers are too coarse for
// it); and, on the time-skipping server, `stopped` after the idle timeout when the agent span
// never came, and a late agent span that changes nothing already ended.

const SETTLE_MS = 2_000;
const IDLE_MS = 10 * 60_000;

let env: TestWorkflowEnvironment;
let store: Store;
let worker: Worker;
let running: Promise<void>;
const taskQueue = uniqueTaskQueue('ingest-trace');
const dir = mkdtempSync(join(tmpdir(), 'evalflow-traces-'));
beforeAll(async () => {
  env = await timeSkippingEnvironment();
  store = await openSqliteStore(join(dir, 'traces.db'), {
    feedbackTypes: createFeedbackTypeRegistry([]),
    evaluators: createEvaluatorRegistry([]),
  });
  worker = await testWorker(
    env,
    taskQueue,
    createActivities({
      store,
      evaluators: createEvaluatorRegistry([]),
      feedbackTypes: createFeedbackTypeRegistry([]),
      scoreSink: new InMemoryScoreSink(),
      scoreReader: null,
    }),
  );
  running = worker.run();
});
afterAll(async () => {
  worker?.shutdown();
  await running;
  await store?.close();
  await env?.teardown();
  rmSync(dir, { recursive: true, force: true });
});

let workspaces = 0;
/**
 * Stores a batch of a trace's spans in a workspace of its own and tells its workflow, as the
 * signaller would (`quiet`: the trace went quiet before its workflow was told).
 */
async function deliver(workspaceId: string, spans: SpanRecord[], { quiet = false } = {}) {
  const may_end = spans.some((s) => s.parentSpanId === null || s.name.startsWith('invoke_agent'));
  await store.traceSpans.put(
    workspaceId,
    spans.map((s) => ({ trace_id: TRACE, span_id: s.spanId, body: s })),
    [],
  );
  await signalTrace(env.client, store, taskQueue, {
    workspace_id: workspaceId,
    trace_id: TRACE,
    reporter: 'system',
    settle_ms: SETTLE_MS,
    idle_ms: IDLE_MS,
    conversation_attribute: null,
    may_end,
    quiet,
    version: 1,
  });
  return env.client.workflow.getHandle(ingestTraceWorkflowId(store.id, workspaceId, TRACE));
}

describe('ingestTrace', () => {
  it("records a run once the settle window after its agent span is over, with the next batch's spans in it", async () => {
    const ws = `settle-${++workspaces}`;
    const agent = genaiAgent({}, 'Where is order 7?', '');
    agent.attributes['gen_ai.output.messages'] = '[]';
    const handle = await deliver(ws, [agent]);
    expect(await store.run(ws, `${TRACE}-${agent.spanId}`)).toBeNull();
    // A model call exported in the next batch, within the window, brings the answer.
    await deliver(ws, [
      span({
        parentSpanId: agent.spanId,
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.output.messages': JSON.stringify([
            { role: 'assistant', parts: [{ type: 'text', content: 'It ships today.' }] },
          ]),
        },
      }),
    ]);
    const state = await eventually(
      () => handle.query(ingestTraceStateQuery),
      (s) => s.last !== null,
    );
    expect(state.batches).toBe(2);
    await recordHistory(handle, 'ingestTrace');
    expect(await store.run(ws, `${TRACE}-${agent.spanId}`)).toMatchObject({ status: 'completed' });
    expect((await store.conversation(ws, `trace-${TRACE}`))?.map((m) => m.content)).toEqual([
      'Where is order 7?',
      'It ships today.',
    ]);
  });

  it('ends a run whose agent span never comes stopped after the idle timeout; the late agent span changes nothing', async () => {
    const ws = `idle-${++workspaces}`;
    const agentId = spanId();
    const chat = span({ parentSpanId: agentId, attributes: { 'gen_ai.operation.name': 'chat' } });
    const handle = await deliver(ws, [chat]);
    const first = await handle.result();
    await recordHistory(handle, 'ingestTrace.idle');
    const runId = `${TRACE}-${agentId}`;
    expect(first.last).toMatchObject({ runs: [{ runId, status: 'stopped' }], refused: [] });
    expect(await store.run(ws, runId)).toMatchObject({ status: 'stopped' });

    const late = genaiAgent({ spanId: agentId }, 'q', 'a');
    const again = await (await deliver(ws, [late])).result();
    expect(again.last?.refused).toEqual([
      expect.stringMatching(new RegExp(`^post_message otlp:${runId}:in-0: `)),
      expect.stringMatching(new RegExp(`^post_message otlp:${runId}:out: `)),
      expect.stringMatching(new RegExp(`^end_run otlp:${runId}:end: `)),
    ]);
    expect(await store.run(ws, runId)).toMatchObject({ status: 'stopped' });
  });

  it('records a trace signalled quiet as idle at once: no idle timeout waited out twice', async () => {
    const ws = `quiet-${++workspaces}`;
    const agentId = spanId();
    const chat = span({ parentSpanId: agentId, attributes: { 'gen_ai.operation.name': 'chat' } });
    const handle = await deliver(ws, [chat], { quiet: true });
    const done = await handle.result();
    expect(done.last).toMatchObject({
      runs: [{ runId: `${TRACE}-${agentId}`, status: 'stopped' }],
    });
    const { events } = await handle.fetchHistory();
    expect(events?.filter((event) => event.timerStartedEventAttributes)).toEqual([]);
  });

  it('is started from the outbox: at once for a batch that may end a run, once quiet for one that cannot', async () => {
    let now = Date.now();
    const signaller = startTraceSignaller({
      store,
      client: env.client,
      taskQueue,
      pollMs: 20,
      nowMs: () => now,
    });
    try {
      const [going, ending] = [`going-${++workspaces}`, `ending-${++workspaces}`];
      const put = (ws: string, s: SpanRecord, may_end: boolean) =>
        store.traceSpans.put(
          ws,
          [{ trace_id: TRACE, span_id: s.spanId, body: s }],
          [
            {
              trace_id: TRACE,
              reporter: 'system',
              settle_ms: 10,
              idle_ms: IDLE_MS,
              conversation_attribute: null,
              may_end,
            },
          ],
        );
      const chat = span({
        parentSpanId: spanId(),
        attributes: { 'gen_ai.operation.name': 'chat' },
      });
      await put(going, chat, false);
      const agent = genaiAgent({}, 'Where is order 7?', 'It ships today.');
      await put(ending, agent, true);
      await eventually(
        () => store.run(ending, `${TRACE}-${agent.spanId}`),
        (run) => run?.status === 'completed',
      );
      // The pass that told the ending trace came after the going one's batch, and left it be.
      const goingHandle = env.client.workflow.getHandle(
        ingestTraceWorkflowId(store.id, going, TRACE),
      );
      await expect(goingHandle.describe()).rejects.toThrow(/not found/i);
      now += IDLE_MS;
      await eventually(
        () => store.run(going, `${TRACE}-${chat.parentSpanId}`),
        (run) => run?.status === 'stopped',
      );
      const due = await store.traceSignals.due(now, 100);
      expect(due.filter((t) => t.workspace_id === going || t.workspace_id === ending)).toEqual([]);
    } finally {
      await signaller.close();
    }
  });
});
