import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import type { EvaluateInput, EvaluateResult } from '../../src/activities/types.js';
import { answerLengthEvaluator, defineEvaluator } from '../../src/evaluators/index.js';
import { given, type TestEngine, testEngine } from '../support/engine.js';

// Every activity heartbeats on a timer while it runs, so a dead worker's work is retried after
// the heartbeat timeout; here an evaluator awaits a slow judge. The heartbeat timer runs on a
// fake clock the test moves while the judge is held: the count does not depend on the machine.

/** The judge in progress: `entered` once it is called, `release` lets it answer. */
let judge: { entered: Promise<void>; release: () => void; enter: () => void };
const holdJudge = () => {
  let enter = () => {};
  let release = () => {};
  const entered = new Promise<void>((resolve) => {
    enter = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  judge = { entered, release, enter };
  return released;
};
let released: Promise<void>;

const slowJudge = defineEvaluator({
  name: 'slow_judge',
  version: '1',
  feedbackType: answerLengthEvaluator().feedbackType,
  targets: ['message'],
  source: 'HARNESS',
  async evaluate() {
    judge.enter();
    await released;
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
afterEach(() => {
  vi.useRealTimers();
});

const input = (generation: string): EvaluateInput => ({
  workspaceId: 'w',
  evaluator: { name: 'slow_judge', version: '1' },
  target: { kind: 'message', thread_id: 't', message_id: 'm', run_id: 'r' },
  generation,
  workflowId: 'run:w:r',
});

/** Beats while the judge is held for `judgeMs` of the fake clock, and in as long again after. */
async function evaluateCountingBeats(
  info: { heartbeatTimeoutMs?: number },
  generation: string,
  judgeMs: number,
) {
  // Only the interval timers are fake: the store and the mock environment keep real time.
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  released = holdJudge();
  const activity = new MockActivityEnvironment(info);
  let beats = 0;
  activity.on('heartbeat', () => {
    beats += 1;
  });
  const running = activity.run<[EvaluateInput], EvaluateResult, typeof engine.activities.evaluate>(
    engine.activities.evaluate,
    input(generation),
  );
  await judge.entered;
  vi.advanceTimersByTime(judgeMs);
  const during = beats;
  judge.release();
  const result = await running;
  vi.advanceTimersByTime(judgeMs);
  return { result, during, after: beats - during, timersLeft: vi.getTimerCount() };
}

it('heartbeats on a timer while the evaluator runs, and stops when it returns', async () => {
  const { result, during, after, timersLeft } = await evaluateCountingBeats(
    { heartbeatTimeoutMs: 1000 },
    'g1',
    1000,
  );
  expect(result).toMatchObject({ outcome: 'verdict' });
  // One per 200 ms (a fifth of the timeout) from past half the timeout: at 600, 800 and 1000.
  expect(during).toBe(3);
  expect(after).toBe(0);
  expect(timersLeft).toBe(0);
});

it('sends no beat in the first half of the timeout, which runs from the start until one', async () => {
  // A beat at 200 ms would move a dead worker's retry from 1000 ms after the start to 1200.
  const { result, during } = await evaluateCountingBeats({ heartbeatTimeoutMs: 1000 }, 'g3', 500);
  expect(result).toMatchObject({ outcome: 'verdict' });
  expect(during).toBe(0);
});

it('does not heartbeat an activity scheduled without a heartbeat timeout', async () => {
  const { result, during } = await evaluateCountingBeats({}, 'g2', 500);
  expect(result).toMatchObject({ outcome: 'verdict' });
  expect(during).toBe(0);
});
