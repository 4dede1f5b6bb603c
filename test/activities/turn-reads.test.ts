import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { EvaluateInput, EvaluateResult } from '../../src/activities/types.js';
import { defineFeedbackType } from '../../src/core/index.js';
import { defineEvaluator } from '../../src/evaluators/index.js';
import { feedbackEvents, given, type TestEngine, testEngine } from '../support/engine.js';

// What a run's turn evaluators read: the turn with the ledger's entries on it, once for all of
// them, then one append per verdict. A retry, or another execution of the run's workflow, reads
// afresh, so a verdict an earlier attempt recorded is never judged again.

const turnLength = defineFeedbackType({
  name: 'turn_length',
  targets: ['turn'],
  source: 'HARNESS',
  schema: z.object({ characters: z.int() }),
});
const judged: string[] = [];
const turnJudge = (name: string) =>
  defineEvaluator({
    name,
    version: '1',
    feedbackType: turnLength,
    targets: ['turn'],
    source: 'HARNESS',
    evaluate(subject) {
      judged.push(name);
      const text = subject.kind === 'turn' ? subject.messages.map((m) => m.content).join('') : '';
      return { characters: text.length };
    },
  });

let engine: TestEngine;
beforeAll(async () => {
  engine = testEngine({ evaluators: ['a', 'b', 'c'].map(turnJudge) });
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
    { type: 'end_run', run_id: 'r', status: 'completed' },
  );
});
afterAll(() => engine?.close());

const input = (name: string): EvaluateInput => ({
  workspaceId: 'w',
  evaluator: { name, version: '1' },
  target: { kind: 'turn', run_id: 'r' },
  generation: 'run',
  workflowId: 'run:w:r',
  record: true,
});
/** The evaluate activity as Temporal runs it: an attempt of one workflow execution. */
const evaluate = (name: string, attempt: number, execution: string) =>
  new MockActivityEnvironment({
    attempt,
    workflowExecution: { workflowId: 'run:w:r', runId: execution },
  }).run<[EvaluateInput], EvaluateResult, typeof engine.activities.evaluate>(
    engine.activities.evaluate,
    input(name),
  );
const storeCalls = () => ({
  turn: vi.spyOn(engine.store, 'turn'),
  ledger: vi.spyOn(engine.store.ledger, 'evaluation'),
  execute: vi.spyOn(engine.store, 'execute'),
});

describe("a run's turn evaluators", () => {
  it('read the turn and its ledger entries once, then append one verdict each', async () => {
    const calls = storeCalls();
    const outcomes = await Promise.all(['a', 'b', 'c'].map((name) => evaluate(name, 1, 'x1')));
    expect(outcomes).toEqual(Array(3).fill({ outcome: 'recorded' }));
    expect(judged.sort()).toEqual(['a', 'b', 'c']);
    expect(calls.turn).toHaveBeenCalledTimes(1);
    expect(calls.turn).toHaveBeenCalledWith('w', 'r', 'run');
    expect(calls.ledger).not.toHaveBeenCalled();
    expect(calls.execute).toHaveBeenCalledTimes(3);
    vi.restoreAllMocks();
  });

  it('judge nothing twice: a retry or a new execution finds the verdict recorded before', async () => {
    const calls = storeCalls();
    // A retry of the same execution reads the ledger itself, past the shared snapshot.
    expect(await evaluate('a', 2, 'x1')).toEqual({ outcome: 'settled', state: 'recorded' });
    expect(calls.ledger).toHaveBeenCalledTimes(1);
    // Another execution (continued as new, or started again) reads its own snapshot.
    expect(await evaluate('b', 1, 'x2')).toEqual({ outcome: 'settled', state: 'recorded' });
    expect(calls.turn).toHaveBeenCalledTimes(1);
    expect(judged).toHaveLength(3);
    expect(await feedbackEvents(engine.store, 'w')).toHaveLength(3);
    vi.restoreAllMocks();
  });
});
