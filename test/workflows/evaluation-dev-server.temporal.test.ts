import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  answerLengthEvaluator,
  artifactSchemaEvaluator,
  defineEvaluator,
  turnOutcomeEvaluator,
} from '../../src/evaluators/index.js';
import { ReevaluationClient } from '../../src/workflow-clients/index.js';
import type { evaluateRun } from '../../src/workflows/evaluate-run.js';
import { evaluateRunWorkflowId } from '../../src/workflows/evaluate-run-messages.js';
import { reevaluateWorkflowId } from '../../src/workflows/reevaluate-messages.js';
import { feedbackEvents, given, type TestEngine, testEngine } from '../support/engine.js';
import { finished, repoRoot, runTypeScript, waitForLine } from '../support/processes.js';
import {
  devServerEnvironment,
  recordHistory,
  testWorker,
  uniqueTaskQueue,
  workflowBundle,
} from '../support/temporal.js';
import { stallingJudge } from './fixtures/stalling-judge.js';

const killableWorker = fileURLToPath(new URL('./fixtures/killable-worker.ts', import.meta.url));
const bundlePath = () => {
  const bundle = workflowBundle();
  return 'codePath' in bundle ? bundle.codePath : '';
};

// An evaluator slow enough to be caught mid-run by a worker restart; it gives up when cancelled.
const slow = defineEvaluator({
  name: 'slow_length',
  version: '1',
  feedbackType: answerLengthEvaluator().feedbackType,
  targets: ['message'],
  source: 'HARNESS',
  async evaluate(subject, { signal }) {
    await sleep(300, undefined, { signal });
    const characters = subject.kind === 'message' ? subject.message.content.length : 0;
    return { characters, within_limit: true };
  },
});

let env: TestWorkflowEnvironment;
let engine: TestEngine;
beforeAll(async () => {
  env = await devServerEnvironment();
  engine = testEngine({
    evaluators: [
      answerLengthEvaluator(),
      answerLengthEvaluator({ version: '2', maxCharacters: 3 }),
      turnOutcomeEvaluator(),
      slow,
      artifactSchemaEvaluator({ schemas: { report: z.object({ title: z.string() }) } }),
    ],
  });
});
afterAll(async () => {
  await engine?.close();
  await env?.teardown();
});

const countBy = (events: Awaited<ReturnType<typeof feedbackEvents>>) => {
  const counts = new Map<string, number>();
  for (const { actor, event } of events) {
    if (actor.kind !== 'evaluator' || event.type !== 'feedback_given') continue;
    const key = `${actor.name}@${actor.version} ${JSON.stringify(event.target)}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
};

async function endedRun(ws: string, answers: string[], store = engine.store) {
  await given(
    store,
    ws,
    { type: 'create_thread', thread_id: 't' },
    { type: 'start_run', run_id: 'r', thread_id: 't' },
    ...answers.map((content, i) => ({
      type: 'post_message',
      thread_id: 't',
      message_id: `a${i}`,
      role: 'assistant',
      content,
      run_id: 'r',
    })),
    { type: 'end_run', run_id: 'r', status: 'completed' },
  );
}

describe('durable evaluation on the dev server', () => {
  it('records one feedback event per (target, evaluator) across a worker restart mid-run', async () => {
    const ws = 'restart';
    const taskQueue = uniqueTaskQueue();
    await endedRun(ws, ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight']);
    const first = await testWorker(env, taskQueue, engine.activities);
    const running = first.run();
    await engine.relay(env.client, taskQueue, ws).drain();
    for (let i = 0; i < 200 && (await engine.store.ledger.evaluations(ws)).length < 3; i++) {
      await sleep(50);
    }
    first.shutdown();
    await running;
    const settledAtRestart = (await engine.store.ledger.evaluations(ws)).length;

    const second = await testWorker(env, taskQueue, engine.activities);
    const result = await second.runUntil(
      env.client.workflow
        .getHandle<typeof evaluateRun>(evaluateRunWorkflowId(engine.store.id, ws, 'r'))
        .result(),
    );
    // Three message evaluators judged each of 8 answers, and one turn evaluator the run, once.
    const expected = 8 * 3 + 1;
    expect(settledAtRestart).toBeLessThan(expected);
    expect(Object.values(result.evaluations).every((e) => e.state === 'recorded')).toBe(true);
    const counts = countBy(await feedbackEvents(engine.store, ws));
    expect(counts.size).toBe(expected);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
  });

  it('records every verdict of a run caught mid-activity by a worker kill within 15 s of the restart', async () => {
    const ws = 'killed';
    const taskQueue = uniqueTaskQueue();
    // The same deployment as the killed worker's, whose judge answers here.
    const killed = testEngine({ evaluators: [answerLengthEvaluator(), stallingJudge('answers')] });
    try {
      const answers = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];
      await endedRun(ws, answers, killed.store);
      const child = runTypeScript(
        killableWorker,
        [env.address, env.namespace ?? 'default', taskQueue, killed.storePath, bundlePath()],
        { cwd: repoRoot, env: process.env },
      );
      const exited = finished(child);
      let printed = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        printed += chunk.toString();
      });
      await waitForLine(child, /^ready$/);
      await killed.relay(env.client, taskQueue, ws).drain();
      // Every one of the run's four evaluation slots waits on the stalled judge: kill then.
      const stalled = () => printed.split('\n').filter((l) => l.startsWith('evaluating ')).length;
      for (let i = 0; i < 1200 && stalled() < 4; i++) await sleep(50);
      expect(stalled()).toBe(4);
      child.kill('SIGKILL');
      await exited;

      const worker = await testWorker(env, taskQueue, killed.activities);
      const restartedAt = Date.now();
      const result = await worker.runUntil(
        env.client.workflow
          .getHandle<typeof evaluateRun>(evaluateRunWorkflowId(killed.store.id, ws, 'r'))
          .result(),
      );
      const verdicts = await feedbackEvents(killed.store, ws);
      const lastVerdictMs = Math.max(...verdicts.map((v) => Date.parse(v.ts))) - restartedAt;
      console.info(
        `worker killed mid-activity: the last verdict came ${lastVerdictMs} ms after the new worker started`,
      );
      expect(lastVerdictMs).toBeLessThanOrEqual(15_000);
      expect(Object.values(result.evaluations).every((e) => e.state === 'recorded')).toBe(true);
      const counts = countBy(verdicts);
      expect(counts.size).toBe(answers.length * 2);
      expect([...counts.values()].every((n) => n === 1)).toBe(true);
    } finally {
      await killed.close();
    }
  });

  it('keeps two versions of an evaluator apart as two participants', async () => {
    const ws = 'versions';
    const taskQueue = uniqueTaskQueue();
    await endedRun(ws, ['hello']);
    const worker = await testWorker(env, taskQueue, engine.activities);
    const result = await worker.runUntil(async () => {
      await engine.relay(env.client, taskQueue, ws).drain();
      return env.client.workflow
        .getHandle<typeof evaluateRun>(evaluateRunWorkflowId(engine.store.id, ws, 'r'))
        .result();
    });
    expect(
      Object.values(result.evaluations)
        .map((e) => [e.evaluator.name, e.state, e.reason])
        .sort(),
    ).toEqual(
      [
        ['answer_length', 'recorded', null],
        ['answer_length', 'recorded', null],
        ['slow_length', 'recorded', null],
        ['turn_outcome', 'recorded', null],
      ].sort(),
    );
    const verdicts = await engine.store.feedback(ws, { feedback_type: 'answer_length' });
    const versions = verdicts.filter((f) => f.participant.startsWith('evaluator:answer_length@'));
    expect(versions.map((f) => [f.participant, f.value.within_limit]).sort()).toEqual([
      ['evaluator:answer_length@1', true],
      ['evaluator:answer_length@2', false],
    ]);
  });

  it('re-evaluates 500 versions with concurrency 8, paused, cancelled and run again, exactly once', async () => {
    const ws = 'batch';
    const taskQueue = uniqueTaskQueue();
    const puts = [];
    for (let version = 1; version <= 2; version++) {
      for (let i = 0; i < 250; i++) {
        const artifact_id = `doc-${String(i).padStart(3, '0')}`;
        puts.push({
          type: 'put_artifact',
          artifact_id,
          kind: 'report',
          data: version === 1 ? {} : { title: 't' },
        });
      }
    }
    await given(engine.store, ws, ...puts, {
      type: 'put_artifact',
      artifact_id: 'memo',
      kind: 'memo',
      data: {},
    });
    const reevaluations = new ReevaluationClient(
      env.client,
      engine.store,
      taskQueue,
      engine.evaluators,
    );
    const batch = (batchId: string, selector: object) =>
      reevaluations.start(ws, {
        batchId,
        selector,
        evaluators: ['artifact_schema@1'],
        concurrency: 8,
      });

    // Refused before anything reaches Temporal.
    await expect(
      reevaluations.start(ws, { selector: {}, evaluators: ['artifact_schema@9'] }),
    ).rejects.toThrow('evaluator artifact_schema@9 is not deployed');
    const worker = await testWorker(env, taskQueue, engine.activities);
    await worker.runUntil(async () => {
      await batch('b1', { kind: 'report' });
      const progress = async () => (await reevaluations.progress(ws, 'b1')) ?? { done: 0 };
      while ((await progress()).done < 120) await sleep(20);
      await reevaluations.pause(ws, 'b1');
      // Evaluations in flight finish; once none is, no new one starts until it is resumed (the
      // workflow starts one only while not paused).
      let now = await progress();
      while (!('paused' in now && now.paused && now.inFlight === 0)) {
        await sleep(20);
        now = await progress();
      }
      const paused = now.done;
      expect(await progress()).toMatchObject({ paused: true, inFlight: 0, done: paused });
      await reevaluations.resume(ws, 'b1');
      while ((await progress()).done < paused + 50) await sleep(20);
      await reevaluations.cancel(ws, 'b1');
      const cancelled = await reevaluations.watch(ws, 'b1', () => {});
      expect(cancelled.cancelled).toBe(true);
      expect(cancelled.total).toBe(500);
      expect(cancelled.done).toBeLessThan(500);

      await batch('b1', { kind: 'report' });
      const seen: number[] = [];
      const again = await reevaluations.watch(ws, 'b1', (p) => seen.push(p.done), 50);
      expect(again).toMatchObject({ total: 500, done: 500, failed: 0, cancelled: false });
      expect(seen.length).toBeGreaterThan(0);
      expect(seen).toEqual([...seen].sort((x, y) => x - y));
      await batch('b2', { kind: 'report', latestOnly: true });
      const latest = await reevaluations.watch(ws, 'b2', () => {});
      await recordHistory(
        env.client.workflow.getHandle(reevaluateWorkflowId(engine.store.id, ws, 'b2')),
        'reevaluate',
      );
      expect(latest).toMatchObject({ total: 250, done: 250, recorded: 250 });
      expect(await reevaluations.progress(ws, 'never-started')).toBeNull();
    });

    const counts = countBy(await feedbackEvents(engine.store, ws));
    const b1 = await engine.store.ledger.evaluations(ws, { generation: 'b1' });
    expect(b1).toHaveLength(500);
    expect(b1.every((e) => e.state === 'recorded')).toBe(true);
    // Each version judged once by b1; the latest versions judged again by b2.
    expect([...counts.values()].reduce((a, b) => a + b, 0)).toBe(750);
    expect(
      counts.get('artifact_schema@1 {"kind":"artifact","artifact_id":"doc-000","version":1}'),
    ).toBe(1);
    expect(
      counts.get('artifact_schema@1 {"kind":"artifact","artifact_id":"doc-000","version":2}'),
    ).toBe(2);
    const schemaVerdicts = await engine.store.feedback(ws, { feedback_type: 'artifact_schema' });
    expect(schemaVerdicts.filter((f) => f.value.valid === false)).toHaveLength(250);
  });
});
