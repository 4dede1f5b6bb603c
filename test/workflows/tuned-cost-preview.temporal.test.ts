import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Target, targetKey } from '../../src/core/index.js';
import { llmJudgeEvaluator } from '../../src/evaluators/index.js';
import type { BackfillSelection } from '../../src/store/index.js';
import { previewReevaluation, ReevaluationClient } from '../../src/workflow-clients/index.js';
import { given, type TestEngine, testEngine } from '../support/engine.js';
import { messageOfT, range } from '../support/judge-versions.js';
import { readChat } from '../support/stand-in-judge.js';
import { testWorker, timeSkippingEnvironment, uniqueTaskQueue } from '../support/temporal.js';

// A tuned judge version's backtest is previewed before the version has made one call: priced
// through its base's calls on the same held-out targets, plus the prompt its examples and rubric
// add at the base's measured tokens per character. The judge model is a local stand-in (no model
// can run here) that bills one token per character of its prompt and of its reply: for `grader`
// that is all, so the preview is exact, to the nano-dollar; `chat-grader` also bills 5 tokens per
// message, as a chat format does, which characters do not show until a version of the model has
// been backtested and the preview learns what an added message costs.

const taskQueue = uniqueTaskQueue('tuned-cost');
const pricing = {
  grader: { inputPerMillionUsd: 2, outputPerMillionUsd: 8 },
  'chat-grader': { inputPerMillionUsd: 2, outputPerMillionUsd: 8 },
};
const contents = range(1, 10).map((i) => `answer ${i}: ${'some words '.repeat(i * 3)}`);
const TOKENS_PER_CHAT_MESSAGE = 5;

let server: Server;
let env: TestWorkflowEnvironment;
let engine: TestEngine;
let batches: ReevaluationClient;

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const { model, messages } = await readChat(request);
    const content = JSON.stringify({ score: 1, passed: true, reasoning: 'stand-in' });
    const perMessage = model === 'chat-grader' ? TOKENS_PER_CHAT_MESSAGE : 0;
    const prompt_tokens = messages.reduce((sum, m) => sum + perMessage + m.content.length, 0);
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
  const judge = (version: string, model: string) =>
    llmJudgeEvaluator({ baseUrl, version, model, targets: ['message'] });
  engine = testEngine({
    evaluators: [judge('1', 'grader'), judge('2', 'chat-grader')],
    pricing,
  });
  batches = new ReevaluationClient(
    env.client,
    engine.store,
    taskQueue,
    engine.evaluators,
    {},
    engine.store.judgeVersions,
  );
});
afterAll(async () => {
  await engine?.close();
  await env?.teardown();
  await new Promise((resolve) => server?.close(resolve));
});

/** Thread t of the workspace, answers m1 to m10, each judged by `base` in a backfill. */
async function judgedByBase(ws: string, base: string) {
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
  await backfilled(ws, 'base', base, { kind: 'message', threadIds: ['t'] });
}

async function backfilled(
  ws: string,
  batchId: string,
  evaluator: string,
  selection: BackfillSelection,
) {
  await batches.start(ws, { selection, evaluators: [evaluator], batchId });
  await batches.watch(ws, batchId, () => {}, 100);
}

/** A version tuned from `from` on `model`, taught some answers, holding out the others. */
const tuned = (version: string, from: string, model: string, taught: number[]) => ({
  judge: 'llm_judge',
  version,
  rubric: 'Is the answer right? Fail an answer that only repeats itself, as the reviewers do.',
  model,
  feedbackType: 'judge_verdict',
  examples: taught.map((i) => ({
    target: messageOfT(i),
    text: `Answer:\n${contents[i - 1]}`,
    expectedVerdict: { score: 0, passed: false, reasoning: null },
    reviewersLabel: 'false',
    judgeLabel: 'true',
    reviewers: [{ raterId: 'reviewer:ana', label: 'false', note: i === 1 ? 'it repeats' : null }],
  })),
  tunedFrom: from,
  heldOut: range(1, 10)
    .filter((i) => !taught.includes(i))
    .map(messageOfT),
});

const heldOutOf = (taught: number[]): BackfillSelection => ({
  kind: 'message',
  targets: tuned('v', '1', 'grader', taught).heldOut,
});

const previewOf = (ws: string, evaluator: string, selection: BackfillSelection) =>
  previewReevaluation(
    { store: engine.store, evaluators: engine.evaluators, limits: {}, pricing },
    ws,
    { selection, evaluators: [evaluator] },
  );
const previewCost = async (ws: string, evaluator: string, selection: BackfillSelection) =>
  (await previewOf(ws, evaluator, selection)).costNanos;

const spentBy = async (ws: string, batchId: string) =>
  (await engine.store.usage.spend({ workspace_id: ws, generation: batchId }, []))[0];

/** What `participant` spent on the targets, summed. */
const spentOn = async (ws: string, participant: string, targets: readonly Target[]) =>
  (await engine.store.usage.usageOn(participant, ws, targets.map(targetKey))).reduce(
    (sum, target) => sum + (target.cost_nanos ?? 0),
    0,
  );

it("previews a tuned version's backtest at what it then spends, through its base's calls", async () => {
  const ws = 'per-char';
  const worker = await testWorker(env, taskQueue, engine.activities);
  await worker.runUntil(async () => {
    await judgedByBase(ws, 'llm_judge@1');
    await given(
      engine.store,
      ws,
      { type: 'record_judge_version', judge_version: tuned('tuned-1', '1', 'grader', [1, 2]) },
      { type: 'record_judge_version', judge_version: tuned('tuned-2', '1', 'chat-grader', [1, 2]) },
    );
    const heldOut = heldOutOf([1, 2]);
    const preview = await previewCost(ws, 'llm_judge@tuned-1', heldOut);
    expect((await previewOf(ws, 'llm_judge@tuned-1', heldOut)).versions[0]?.costBasis).toBe('base');
    // Another model's tokens and price are not its base's: unknown, not a guess.
    expect((await previewOf(ws, 'llm_judge@tuned-2', heldOut)).versions[0]).toMatchObject({
      costNanos: null,
      costBasis: 'unknown',
    });
    // A batch that lists no targets is priced through the base's mean on all it judged here,
    // plus the same added prompt per evaluation.
    const onHeldOut = await spentOn(ws, 'evaluator:llm_judge@1', heldOut.targets ?? []);
    const added = ((preview ?? 0) - onHeldOut) / 8;
    const onAll = (await spentBy(ws, 'base'))?.cost_nanos ?? 0;
    expect(
      await previewCost(ws, 'llm_judge@tuned-1', { kind: 'message', threadIds: ['t'] }),
    ).toBeCloseTo(onAll + 10 * added, -1);

    await backfilled(ws, 'backtest', 'llm_judge@tuned-1', heldOut);
    const spent = await spentBy(ws, 'backtest');
    expect(spent?.evaluations).toBe(8);
    // Its base spent less on the same targets: the examples' tokens are what the preview adds.
    expect(spent?.cost_nanos).toBeGreaterThan(onHeldOut);
    expect(preview).toBe(spent?.cost_nanos);
    // Once it has judged here, its own recorded mean prices it.
    expect((await previewOf(ws, 'llm_judge@tuned-1', heldOut)).versions[0]?.costBasis).toBe(
      'recorded',
    );
  });
}, 60_000);

it('learns what an added chat message costs from a backtest of the same model', async () => {
  const ws = 'chat';
  const worker = await testWorker(env, taskQueue, engine.activities);
  await worker.runUntil(async () => {
    await judgedByBase(ws, 'llm_judge@2');
    await given(
      engine.store,
      ws,
      { type: 'record_judge_version', judge_version: tuned('tuned-a', '2', 'chat-grader', [1, 2]) },
      {
        type: 'record_judge_version',
        judge_version: tuned('tuned-b', '2', 'chat-grader', [1, 2, 3]),
      },
    );
    const unlearned = (await previewCost(ws, 'llm_judge@tuned-b', heldOutOf([1, 2, 3]))) ?? 0;
    await backfilled(ws, 'backtest-a', 'llm_judge@tuned-a', heldOutOf([1, 2]));
    const learned = (await previewCost(ws, 'llm_judge@tuned-b', heldOutOf([1, 2, 3]))) ?? 0;
    await backfilled(ws, 'backtest-b', 'llm_judge@tuned-b', heldOutOf([1, 2, 3]));
    const spent = (await spentBy(ws, 'backtest-b'))?.cost_nanos ?? 0;
    // Before: the added messages' own tokens are missed. After tuned-a's backtest, they are not.
    expect(unlearned).toBeLessThan(spent);
    expect(Math.abs(learned - spent)).toBeLessThan(Math.abs(unlearned - spent) / 10);
  });
}, 60_000);
