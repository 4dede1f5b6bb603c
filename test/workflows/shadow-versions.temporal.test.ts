import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createFeedbackTypeRegistry, defineFeedbackType } from '../../src/core/index.js';
import { defineEvaluator } from '../../src/evaluators/index.js';
import { summarizeScores } from '../../src/wire/score-summary.js';
import { given, type TestEngine, testEngine } from '../support/engine.js';
import {
  evaluatedToTheEnd,
  timeSkippingEnvironment,
  uniqueTaskQueue,
} from '../support/temporal.js';

// A shadow version judges what the live version of its feedback type judges, beside it: its
// verdicts are recorded as its own participant's, marked shadow, and never the type's current
// verdict; a promotion switches later runs' plans in one event.

const politeness = defineFeedbackType({
  name: 'politeness',
  targets: ['message'],
  schema: z.object({ polite: z.boolean() }),
});
const version = (v: string, pattern: RegExp) =>
  defineEvaluator({
    name: 'politeness',
    version: v,
    feedbackType: politeness,
    targets: ['message'],
    source: 'JUDGE',
    evaluate: (subject) => ({
      polite: subject.kind === 'message' && pattern.test(subject.message.content),
    }),
  });

let env: TestWorkflowEnvironment;
let engine: TestEngine;
beforeAll(async () => {
  env = await timeSkippingEnvironment();
  engine = testEngine({ evaluators: [version('1', /thank/i), version('2', /thank|please/i)] });
});
afterAll(async () => {
  await engine?.close();
  await env?.teardown();
});

const ws = 'shadow';
const taskQueue = uniqueTaskQueue('shadow');

/** A run of 40 assistant messages, ended, relayed and evaluated to the end. */
async function evaluatedRun(runId: string) {
  const messages = Array.from({ length: 40 }, (_, i) => ({
    type: 'post_message',
    thread_id: 't',
    message_id: `${runId}-m${i}`,
    role: 'assistant',
    content: i % 3 === 0 ? 'Thank you.' : i % 3 === 1 ? 'Please wait.' : 'No.',
    run_id: runId,
  }));
  await given(engine.store, ws, { type: 'start_run', run_id: runId, thread_id: 't' }, ...messages, {
    type: 'end_run',
    run_id: runId,
    status: 'completed',
  });
  await evaluatedToTheEnd(env, engine, taskQueue, ws, runId);
}

const verdictsOf = async (participant: string, runId: string) =>
  (await engine.store.feedback(ws, { participant })).filter((record) => record.run_id === runId);

describe('a shadow version', () => {
  it('judges exactly the targets the live version judges, its verdicts marked shadow', async () => {
    await given(
      engine.store,
      ws,
      { type: 'create_thread', thread_id: 't' },
      {
        type: 'set_evaluation_rule',
        evaluator: 'politeness@1',
        targets: ['message'],
        sample_rate: 0.5,
      },
      {
        type: 'set_evaluation_rule',
        evaluator: 'politeness@2',
        targets: ['message'],
        mode: 'shadow',
      },
    );
    await evaluatedRun('r1');
    const live = await verdictsOf('evaluator:politeness@1', 'r1');
    const shadow = await verdictsOf('evaluator:politeness@2', 'r1');
    // Half the messages, deterministically, and the shadow on the very same ones.
    expect(live.length).toBeGreaterThan(8);
    expect(live.length).toBeLessThan(32);
    expect(shadow.map((r) => r.target_key).sort()).toEqual(live.map((r) => r.target_key).sort());
    expect(shadow.every((r) => r.shadow === true)).toBe(true);
    expect(live.every((r) => r.shadow === undefined)).toBe(true);
    // Each version is its own participant, with its own verdicts.
    const polite = (records: typeof live) => records.filter((r) => r.value.polite).length;
    expect(polite(shadow)).toBeGreaterThan(polite(live));

    const ledger = await engine.store.ledger.evaluations(ws, { generation: 'run' });
    const skipped = ledger.filter(
      (e) => e.participant === 'evaluator:politeness@2' && e.state === 'sampled_out',
    );
    expect(skipped).toHaveLength(40 - shadow.length);
    expect(new Set(skipped.map((e) => e.reason))).toEqual(
      new Set(['outside what the live versions judge (politeness@1 at 0.5)']),
    );

    const summary = await summarizeScores(
      engine.store,
      createFeedbackTypeRegistry([politeness]),
      ws,
      {
        name: 'politeness.polite',
      },
    );
    expect(summary.map((g) => [g.producer, g.count])).toEqual([['politeness@1', live.length]]);
  });

  it('goes live for later runs once promoted, and the version it replaced judges no more', async () => {
    const outcome = await engine.store.execute({
      workspace_id: ws,
      actor: { kind: 'system', name: 'ops' },
      command: {
        type: 'promote_evaluator',
        evaluator: 'politeness@2',
        replacing: 'politeness@1',
        rule: { targets: ['message'], sample_rate: 0.5 },
        replaced_rule: { targets: ['message'], sample_rate: 0.5 },
        min_kappa: 0,
        min_matched: 1,
        evidence: {
          compared: 'politeness@2:polite',
          against: 'politeness@1:polite',
          matched: 20,
          kappa: 0.5,
          interval: null,
          raw_agreement: 0.75,
          as_of_seq: await engine.store.head(ws),
        },
      },
    });
    expect(outcome.type).toBe('recorded');
    await evaluatedRun('r2');
    expect(await verdictsOf('evaluator:politeness@1', 'r2')).toEqual([]);
    const promoted = await verdictsOf('evaluator:politeness@2', 'r2');
    expect(promoted.length).toBeGreaterThan(8);
    expect(promoted.every((r) => r.shadow === undefined)).toBe(true);
    // r1's verdicts stay as they were given: pinned plans change nothing already judged.
    expect((await verdictsOf('evaluator:politeness@2', 'r1')).every((r) => r.shadow)).toBe(true);
  });
});
