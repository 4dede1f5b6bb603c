import { setTimeout as sleep } from 'node:timers/promises';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { EvaluateInput, EvaluateResult } from '../../src/activities/types.js';
import { answerLengthEvaluator, defineEvaluator } from '../../src/evaluators/index.js';
import { given, type TestEngine, testEngine } from '../support/engine.js';

// Every activity heartbeats on a timer while it runs, so a dead worker's work is retried after
// the heartbeat timeout; here an evaluator awaits a slow judge.

const slowJudge = defineEvaluator({
  name: 'slow_judge',
  version: '1',
  feedbackType: answerLengthEvaluator().feedbackType,
  targets: ['message'],
  source: 'HARNESS',
  async evaluate() {
    await sleep(500);
    return { characters: 2, within_limit: true };
  },
});

let engine: TestEngine;
beforeAll(async () => {
  engine = testEngine({ evaluators: [slowJudge] });
  await given(
    engine.store,
    'w',
    { type: 'create_thread', thread_id: 't' },
    { type: 'start_run', run_id: 'r', thread_id: 't' },
    {
      type: 'post_message',
      thread_id: 't',
      message_id: 'm',
      role: 'assistant',
      content: 'hi',
      run_id: 'r',
    },
  );
});
afterAll(() => engine?.close());

const input = (generation: string): EvaluateInput => ({
  workspaceId: 'w',
  evaluator: { name: 'slow_judge', version: '1' },
  target: { kind: 'message', thread_id: 't', message_id: 'm', run_id: 'r' },
  generation,
  workflowId: 'run:w:r',
});

async function evaluateCountingBeats(info: { heartbeatTimeoutMs?: number }, generation: string) {
  const activity = new MockActivityEnvironment(info);
  let beats = 0;
  activity.on('heartbeat', () => {
    beats += 1;
  });
  const result = await activity.run<
    [EvaluateInput],
    EvaluateResult,
    typeof engine.activities.evaluate
  >(engine.activities.evaluate, input(generation));
  const during = beats;
  await sleep(300);
  return { result, during, after: beats - during };
}

it('heartbeats on a timer while the evaluator runs, and stops when it returns', async () => {
  const { result, during, after } = await evaluateCountingBeats({ heartbeatTimeoutMs: 1000 }, 'g1');
  expect(result).toMatchObject({ outcome: 'verdict' });
  // One per 200 ms (a fifth of the timeout) while the judge takes 500, none at the start.
  expect(during).toBeGreaterThanOrEqual(2);
  expect(after).toBe(0);
});

it('does not heartbeat an activity scheduled without a heartbeat timeout', async () => {
  const { result, during } = await evaluateCountingBeats({}, 'g2');
  expect(result).toMatchObject({ outcome: 'verdict' });
  expect(during).toBe(0);
});
