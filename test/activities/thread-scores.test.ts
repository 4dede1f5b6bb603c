import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { EvaluateInput } from '../../src/activities/types.js';
import { LangfuseScoreReader, LangfuseScoreSink } from '../../src/scores/langfuse/index.js';
import { given, type TestEngine, testEngine } from '../support/engine.js';
import { LangfuseTestServer } from '../support/langfuse-server/index.js';
import { resolution } from '../support/thread-judges.config.js';

// A thread's verdicts on their way to Langfuse: judged by the `evaluate` activity as a thread's
// workflow calls it, one generation after another, then mirrored through the real
// @langfuse/client to the test server, which checks every request against Langfuse's spec.
// A thread has no trace of its own, so its verdicts go on its session, even when its runs have
// traces (docs/specification.md#feedback-as-scores).

let langfuse: LangfuseTestServer;
let engine: TestEngine;
beforeAll(async () => {
  langfuse = await LangfuseTestServer.start();
  engine = testEngine({
    evaluators: [resolution],
    sink: new LangfuseScoreSink(langfuse.client()),
    reader: new LangfuseScoreReader(langfuse.client()),
  });
});
afterAll(async () => {
  await engine?.close();
  await langfuse?.close();
});

const ws = 'thread-scores';
const judge = (throughSeq: number) => {
  const input: EvaluateInput = {
    workspaceId: ws,
    workflowId: 'thread:test',
    evaluator: { name: 'resolution', version: '1' },
    target: { kind: 'thread', thread_id: 't' },
    generation: `thread:${throughSeq}`,
    throughSeq,
    record: true,
  };
  return new MockActivityEnvironment().run(engine.activities.evaluate, input);
};
const message = (message_id: string, role: 'user' | 'assistant', run_id: string | null) => ({
  type: 'post_message',
  thread_id: 't',
  message_id,
  role,
  content: role === 'user' ? 'Where is my refund?' : 'On its way.',
  run_id,
});

it("mirrors each generation's verdict on the thread's session, the earlier ones kept", async () => {
  await given(
    engine.store,
    ws,
    { type: 'create_thread', thread_id: 't' },
    { type: 'start_run', run_id: 'r', thread_id: 't', trace_id: 'ab'.repeat(16) },
    message('q1', 'user', 'r'),
    message('a1', 'assistant', 'r'),
    { type: 'end_run', run_id: 'r', status: 'completed' },
  );
  expect(await judge(5)).toEqual({ outcome: 'recorded' });
  const first = await engine.activities.mirrorScores({ workspaceId: ws, afterSeq: 0, limit: 100 });
  expect(first.recorded).toHaveLength(2);
  // The thread resumes with a question the judge sees unanswered: a second generation.
  await given(engine.store, ws, message('q2', 'user', null));
  expect(await judge(7)).toEqual({ outcome: 'recorded' });
  // The same generation again (a retried activity) records nothing.
  expect(await judge(7)).toEqual({ outcome: 'settled', state: 'recorded' });
  const second = await engine.activities.mirrorScores({
    workspaceId: ws,
    afterSeq: first.lastSeq,
    limit: 100,
  });
  expect(second.recorded).toHaveLength(2);
  expect(second.recorded.some((id) => first.recorded.includes(id))).toBe(false);

  const ids = [...first.recorded, ...second.recorded];
  expect(
    await engine.activities.reconcileScores({ workspaceId: ws, ids, final: false }),
  ).toMatchObject({ confirmed: expect.arrayContaining(ids), missing: [], failed: [] });
  const stored = langfuse
    .scores()
    .map((s) => [s.name, s.value, s.sessionId, s.traceId, s.metadata.target]);
  expect(stored).toEqual([
    ['resolution.resolved', 1, 't', null, 'thread'],
    ['resolution.messages', 2, 't', null, 'thread'],
    ['resolution.resolved', 0, 't', null, 'thread'],
    ['resolution.messages', 3, 't', null, 'thread'],
  ]);
  expect(langfuse.violations()).toEqual([]);
});
