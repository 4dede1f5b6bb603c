import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { targetKey } from '../../src/core/index.js';
import { llmJudgeEvaluator } from '../../src/evaluators/index.js';
import type { BackfillSelection } from '../../src/store/index.js';
import { previewReevaluation, ReevaluationClient } from '../../src/workflow-clients/index.js';
import { given, type TestEngine, testEngine } from '../support/engine.js';
import { messageOfT, range } from '../support/judge-versions.js';
import { testWorker, timeSkippingEnvironment, uniqueTaskQueue } from '../support/temporal.js';

// A tuned judge version's backtest is previewed before the version has made one call: priced
// through its base's calls on the same held-out targets, plus the prompt its examples and rubric
// add at the base's measured tokens per character. The judge model is a local stand-in (no model
// can run here) that bills one token per character of its prompt and of its reply, so the
// preview is exact: what the backtest then spends, to the nano-dollar.

const ws = 'priced';
const taskQueue = uniqueTaskQueue('tuned-cost');
const pricing = { grader: { inputPerMillionUsd: 2, outputPerMillionUsd: 8 } };
const contents = range(1, 10).map((i) => `answer ${i}: ${'some words '.repeat(i * 3)}`);
const heldOut = range(3, 10).map(messageOfT);
const heldOutSelection: BackfillSelection = { kind: 'message', targets: heldOut };

let server: Server;
let env: TestWorkflowEnvironment;
let engine: TestEngine;

const readBody = async (request: IncomingMessage) => {
  let text = '';
  for await (const chunk of request) text += chunk;
  return JSON.parse(text) as { messages: { content: string }[] };
};

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const { messages } = await readBody(request);
    const content = JSON.stringify({ score: 1, passed: true, reasoning: 'stand-in' });
    const prompt_tokens = messages.reduce((sum, message) => sum + message.content.length, 0);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        choices: [{ message: { role: 'assistant', content } }],
        usage: { prompt_tokens, completion_tokens: content.length },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  env = await timeSkippingEnvironment();
  engine = testEngine({
    evaluators: [llmJudgeEvaluator({ baseUrl, model: 'grader', targets: ['message'] })],
    pricing,
  });
  await given(
    engine.store,
    ws,
    { type: 'create_thread', thread_id: 't' },
    ...contents.map((content, i) => ({
      type: 'post_message',
      thread_id: 't',
      message_id: `m${i + 1}`,
      role: 'assistant',
      content,
    })),
  );
});
afterAll(async () => {
  await engine?.close();
  await env?.teardown();
  await new Promise((resolve) => server?.close(resolve));
});

/** A version tuned from llm_judge@1 on `model`, taught m1 and m2, holding out m3 to m10. */
const tuned = (version: string, model: string) => ({
  judge: 'llm_judge',
  version,
  rubric: 'Is the answer right? Fail an answer that only repeats itself, as the reviewers do.',
  model,
  feedbackType: 'judge_verdict',
  examples: [1, 2].map((i) => ({
    target: messageOfT(i),
    text: `Answer:\n${contents[i - 1]}`,
    expectedVerdict: { score: 0, passed: false, reasoning: null },
    reviewersLabel: 'false',
    judgeLabel: 'true',
    reviewers: [{ raterId: 'reviewer:ana', label: 'false', note: i === 1 ? 'it repeats' : null }],
  })),
  tunedFrom: '1',
  heldOut,
});

it("previews a tuned version's backtest at what it then spends, through its base's calls", async () => {
  const batches = new ReevaluationClient(
    env.client,
    engine.store,
    taskQueue,
    engine.evaluators,
    {},
    engine.store.judgeVersions,
  );
  const previewOf = (evaluator: string, selection: BackfillSelection = heldOutSelection) =>
    previewReevaluation(
      { store: engine.store, evaluators: engine.evaluators, limits: {}, pricing },
      ws,
      { selection, evaluators: [evaluator] },
    );
  const worker = await testWorker(env, taskQueue, engine.activities);
  await worker.runUntil(async () => {
    await batches.start(ws, {
      selection: { kind: 'message', threadIds: ['t'] },
      evaluators: ['llm_judge@1'],
      batchId: 'base',
    });
    await batches.watch(ws, 'base', () => {}, 100);
    await given(
      engine.store,
      ws,
      { type: 'record_judge_version', judge_version: tuned('tuned-1', 'grader') },
      { type: 'record_judge_version', judge_version: tuned('tuned-2', 'another-model') },
    );
    const preview = await previewOf('llm_judge@tuned-1');
    // Another model's tokens and price are not its base's: unknown, not a guess.
    expect((await previewOf('llm_judge@tuned-2')).costNanos).toBeNull();

    // A batch that lists no targets is priced through the base's mean on all it judged here,
    // plus the same added prompt per evaluation.
    const baseOf = async (keys: string[]) =>
      (await engine.store.usage.usageOn('evaluator:llm_judge@1', ws, keys)).reduce(
        (sum, target) => sum + (target.cost_nanos ?? 0),
        0,
      );
    const added = ((preview.costNanos ?? 0) - (await baseOf(heldOut.map(targetKey)))) / 8;
    const everyKey = range(1, 10).map((i) => targetKey(messageOfT(i)));
    expect(
      (await previewOf('llm_judge@tuned-1', { kind: 'message', threadIds: ['t'] })).costNanos,
    ).toBeCloseTo((await baseOf(everyKey)) + 10 * added, -1);

    await batches.start(ws, {
      selection: { kind: 'message', targets: heldOut },
      evaluators: ['llm_judge@tuned-1'],
      batchId: 'backtest',
    });
    await batches.watch(ws, 'backtest', () => {}, 100);
    const [spent] = await engine.store.usage.spend(
      { workspace_id: ws, generation: 'backtest' },
      [],
    );
    expect(spent?.evaluations).toBe(heldOut.length);
    // Its base spent less on the same targets: the examples' tokens are what the preview adds.
    const base = await engine.store.usage.usageOn(
      'evaluator:llm_judge@1',
      ws,
      heldOut.map(targetKey),
    );
    const baseNanos = base.reduce((sum, target) => sum + (target.cost_nanos ?? 0), 0);
    expect(spent?.cost_nanos).toBeGreaterThan(baseNanos);
    expect(preview.costNanos).toBe(spent?.cost_nanos);
  });
}, 60_000);
