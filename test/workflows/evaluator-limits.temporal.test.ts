import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Context } from '@temporalio/activity';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answerLengthEvaluator,
  defineEvaluator,
  type EvaluatorLimit,
  evaluatorTaskQueues,
  everyTargetRules,
  llmJudgeEvaluator,
  planOf,
} from '../../src/evaluators/index.js';
import { createEvaluatorWorkers } from '../../src/worker/evaluator-workers.js';
import type { evaluateRun } from '../../src/workflows/evaluate-run.js';
import {
  type EvaluateRunState,
  evaluateRunWorkflowId,
  type RunEvent,
  type RunEvents,
  runEventSignal,
} from '../../src/workflows/evaluate-run-messages.js';
import { given, type TestEngine, testEngine } from '../support/engine.js';
import {
  devServerEnvironment,
  expectWorkerLog,
  testWorker,
  uniqueTaskQueue,
} from '../support/temporal.js';

// Evaluators with limits of their own judge on their own task queue: its worker's activity slots
// cap the evaluations in flight, the queue's rate limit their starts. Real dev server, real
// workers; the evaluators count what they see.

const lengthType = answerLengthEvaluator().feedbackType;
const watch = {
  inFlight: 0,
  most: 0,
  starts: [] as number[],
  queues: new Set<string>(),
  /**
   * When set, the number of evaluations the test starts: each is held until another is in flight
   * with it (or every one has started), so evaluations overlap however slow the machine.
   */
  pairUpOf: 0,
};
/** Called at each start: the held evaluations look again. */
const onStart = new Set<() => void>();
const pairedUp = () =>
  new Promise<void>((resolve) => {
    const check = () => {
      if (watch.inFlight < 2 && watch.starts.length < watch.pairUpOf) return;
      onStart.delete(check);
      resolve();
    };
    onStart.add(check);
    check();
  });
const watched = (name: string, ms: number) =>
  defineEvaluator({
    name,
    version: '1',
    feedbackType: lengthType,
    targets: ['message'],
    source: 'HARNESS',
    async evaluate(subject) {
      watch.queues.add(Context.current().info.taskQueue);
      watch.starts.push(Date.now());
      watch.inFlight += 1;
      watch.most = Math.max(watch.most, watch.inFlight);
      for (const check of [...onStart]) check();
      try {
        if (watch.pairUpOf > 0) await pairedUp();
        await sleep(ms);
      } finally {
        watch.inFlight -= 1;
      }
      return {
        characters: subject.kind === 'message' ? subject.message.content.length : 0,
        within_limit: true,
      };
    },
  });
const capped = watched('capped', 150);
const metered = watched('metered', 5);

// A local stand-in for an OpenAI-compatible endpoint that is rate limited on the first request.
let judgeServer: Server;
let judgeUrl: string;
const judgeRequests: number[] = [];
const judge = () => llmJudgeEvaluator({ baseUrl: judgeUrl, model: 'grader' });

// Expected, so kept rather than printed: the limited evaluators' queues have activity-only
// workers, and the judge's first answer, a 429, fails an attempt.
expectWorkerLog(/^No workflows registered/);
const failedAttempts = expectWorkerLog(/Activity failed[\s\S]*answered 429/);

let env: TestWorkflowEnvironment;
let engine: TestEngine;
beforeAll(async () => {
  judgeServer = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      judgeRequests.push(Date.now());
      if (judgeRequests.length === 1) {
        response.writeHead(429, { 'retry-after': '3', 'content-type': 'application/json' });
        response.end('{"error": "slow down"}');
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      const content = '{"score": 1, "passed": true, "reasoning": "fine"}';
      response.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
    });
  });
  await new Promise<void>((resolve) => judgeServer.listen(0, '127.0.0.1', resolve));
  judgeUrl = `http://127.0.0.1:${(judgeServer.address() as AddressInfo).port}/v1`;
  env = await devServerEnvironment();
  engine = testEngine({ evaluators: [capped, metered, judge()] });
});
afterAll(async () => {
  await engine?.close();
  await env?.teardown();
  await new Promise((resolve) => judgeServer?.close(resolve));
});

/** Runs of `messages` assistant messages each, ended, judged by `name` on its own queue. */
async function judgeRuns(
  name: string,
  limits: Record<string, EvaluatorLimit>,
  runs: number,
  messages: number,
): Promise<EvaluateRunState[]> {
  const ws = `limits-${name}`;
  const taskQueue = uniqueTaskQueue(name);
  const evaluator = engine.evaluators.list().find((e) => e.name === name);
  if (evaluator === undefined) throw new Error(`no evaluator ${name}`);
  // Messages only: the LLM judge could judge the turn too.
  const rules = everyTargetRules([evaluator]).map((rule) => ({
    ...rule,
    targets: ['message' as const],
  }));
  const plan = planOf(rules, ws, evaluatorTaskQueues(taskQueue, limits));
  for (let r = 0; r < runs; r++) {
    await given(
      engine.store,
      ws,
      { type: 'create_thread', thread_id: `t${r}` },
      { type: 'start_run', run_id: `r${r}`, thread_id: `t${r}` },
      ...Array.from({ length: messages }, (_, m) => ({
        type: 'post_message',
        thread_id: `t${r}`,
        message_id: `m${m}`,
        role: 'assistant',
        content: 'an answer',
        run_id: `r${r}`,
      })),
    );
  }
  const workers: Worker[] = [
    await testWorker(env, taskQueue, engine.activities),
    ...(await createEvaluatorWorkers({
      connection: env.nativeConnection,
      namespace: env.namespace ?? 'default',
      taskQueue,
      limits,
      activities: engine.activities,
    })),
  ];
  const running = workers.map((w) => w.run());
  try {
    return await Promise.all(
      Array.from({ length: runs }, async (_, r) => {
        const events: RunEvent[] = [
          ...Array.from({ length: messages }, (_, m) => ({
            seq: m + 1,
            type: 'message' as const,
            message_id: `m${m}`,
            role: 'assistant' as const,
          })),
          { seq: messages + 1, type: 'ended', status: 'completed' },
        ];
        const [first, ...rest] = events;
        const handle = await env.client.workflow.signalWithStart<typeof evaluateRun, RunEvents>(
          'evaluateRun',
          {
            workflowId: evaluateRunWorkflowId(engine.store.id, ws, `r${r}`),
            taskQueue,
            args: [
              { workspaceId: ws, runId: `r${r}`, threadId: `t${r}`, plan, concurrency: messages },
            ],
            signal: runEventSignal,
            signalArgs: [first as RunEvent],
          },
        );
        for (const event of rest) await handle.signal(runEventSignal, event);
        return handle.result();
      }),
    );
  } finally {
    for (const w of workers) w.shutdown();
    await Promise.all(running);
  }
}

const reset = () => {
  watch.inFlight = 0;
  watch.most = 0;
  watch.starts = [];
  watch.queues.clear();
  watch.pairUpOf = 0;
};

describe('evaluators with limits of their own', () => {
  it('never has more than maxConcurrent evaluations of a capped evaluator in flight', async () => {
    reset();
    // 4 runs × 6 messages: 24 evaluations, up to 24 asked for at once by the workflows.
    watch.pairUpOf = 24;
    const results = await judgeRuns('capped', { capped: { maxConcurrent: 2 } }, 4, 6);
    const states = results.flatMap((run) => Object.values(run.evaluations).map((e) => e.state));
    expect(states).toHaveLength(24);
    expect(states.every((state) => state === 'recorded')).toBe(true);
    expect(watch.most).toBe(2);
    expect([...watch.queues]).toEqual([expect.stringMatching(/\.evaluator\.capped$/)]);
  });

  it("starts a rate-limited evaluator's evaluations no faster than perSecond", async () => {
    reset();
    const results = await judgeRuns('metered', { metered: { perSecond: 2 } }, 1, 8);
    expect(Object.values(results[0]?.evaluations ?? {})).toHaveLength(8);
    // 8 starts at 2 per second take at least 3 s even if the first two come in one burst;
    // unlimited, 8 evaluations of 5 ms in flight at once start within a fraction of that.
    const span = Math.max(...watch.starts) - Math.min(...watch.starts);
    expect(span).toBeGreaterThanOrEqual(2_500);
  });

  it("waits a 429's Retry-After before asking the LLM judge again", async () => {
    const results = await judgeRuns('llm_judge', { llm_judge: { maxConcurrent: 1 } }, 1, 1);
    expect(Object.values(results[0]?.evaluations ?? {}).map((e) => e.state)).toEqual(['recorded']);
    expect(judgeRequests).toHaveLength(2);
    expect(failedAttempts.map((entry) => entry.meta?.attempt)).toEqual([1]);
    // Retry-After: 3 s; the activity's own backoff would have retried after 1 s.
    const [first = 0, second = 0] = judgeRequests;
    expect(second - first).toBeGreaterThanOrEqual(2_900);
  });
});
