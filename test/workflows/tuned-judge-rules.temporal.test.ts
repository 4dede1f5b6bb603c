import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createFeedbackTypeRegistry, defineFeedbackType } from '../../src/core/index.js';
import { judgeVerdictFeedback, llmJudgeEvaluator } from '../../src/evaluators/index.js';
import { preparePromotion } from '../../src/evidence/index.js';
import { previewReevaluation, ReevaluationClient } from '../../src/workflow-clients/index.js';
import { given, type TestEngine, testEngine } from '../support/engine.js';
import { type ChatRequest, readChat, taughtFailing } from '../support/stand-in-judge.js';
import {
  evaluatedToTheEnd,
  testWorker,
  timeSkippingEnvironment,
  uniqueTaskQueue,
} from '../support/temporal.js';

// A judge version tuned as data goes the paths a declared one goes: a rule runs it in shadow on
// live runs beside the version it was tuned from, and once reviewers have judged the same targets
// the evidence gate promotes it over that version. The judge model is a local stand-in (no model
// can run here) whose answers depend on the examples in its prompt: it fails an answer that
// repeats one an example taught as failing, and passes everything else.

const review = defineFeedbackType({
  name: 'review',
  targets: ['message'],
  source: 'HUMAN',
  configName: 'review',
  schema: z.object({ passed: z.boolean() }),
});

let server: Server;
let env: TestWorkflowEnvironment;
let engine: TestEngine;
const ws = 'tuned';
const taskQueue = uniqueTaskQueue('tuned');

/** The stand-in's verdict: failed when an example answered as failing has the target's text. */
function standInVerdict(messages: ChatRequest['messages']) {
  const failing = taughtFailing(messages);
  return { score: failing ? 0 : 1, passed: !failing, reasoning: 'stand-in' };
}

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const { messages } = await readChat(request);
    const content = JSON.stringify(standInVerdict(messages));
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  env = await timeSkippingEnvironment();
  engine = testEngine({
    evaluators: [llmJudgeEvaluator({ baseUrl, model: 'base-model', targets: ['message'] })],
    feedbackTypes: [review],
  });
});
afterAll(async () => {
  await engine?.close();
  await env?.teardown();
  await new Promise((resolve) => server?.close(resolve));
});

const answers = ['no idea', 'Paris', 'no idea', 'Lisbon'];
const tunedVersion = {
  judge: 'llm_judge',
  version: 'tuned-1',
  rubric: 'Does the answer answer the question?',
  model: 'tuned-model',
  feedbackType: 'judge_verdict',
  examples: [
    {
      target: { kind: 'message', thread_id: 'examples', message_id: 'e1', run_id: null },
      text: 'Answer:\nno idea',
      expectedVerdict: { score: 0, passed: false, reasoning: 'it does not answer' },
      reviewersLabel: 'false',
      judgeLabel: 'true',
      reviewers: [{ raterId: 'user:ana', label: 'false', note: null }],
    },
  ],
  tunedFrom: '1',
  heldOut: [],
};

/** A run of the answers, ended, relayed and evaluated to the end. */
async function evaluatedRun(runId: string) {
  await given(
    engine.store,
    ws,
    { type: 'start_run', run_id: runId, thread_id: 't' },
    ...answers.map((content, i) => ({
      type: 'post_message',
      thread_id: 't',
      message_id: `${runId}-m${i}`,
      role: 'assistant',
      content,
      run_id: runId,
    })),
    { type: 'end_run', run_id: runId, status: 'completed' },
  );
  await evaluatedToTheEnd(env, engine, taskQueue, ws, runId);
}

/** Each message's verdict by the version in the run, in message order, with its shadow mark. */
const verdictsOf = async (version: string, runId: string) =>
  (await engine.store.feedback(ws, { participant: `evaluator:llm_judge@${version}` }))
    .filter((record) => record.run_id === runId)
    .sort((a, b) => a.target_key.localeCompare(b.target_key))
    .map((record) => ({ passed: record.value.passed, shadow: record.shadow ?? false }));

describe('a judge version recorded as data', () => {
  it('runs in shadow beside its base on a live run, once a rule names it', async () => {
    await given(
      engine.store,
      ws,
      { type: 'create_thread', thread_id: 't' },
      { type: 'record_judge_version', judge_version: tunedVersion },
      {
        type: 'set_evaluation_rule',
        evaluator: 'llm_judge@tuned-1',
        targets: ['message'],
        mode: 'shadow',
      },
    );
    await evaluatedRun('r1');
    expect(await verdictsOf('1', 'r1')).toEqual(
      answers.map(() => ({ passed: true, shadow: false })),
    );
    expect(await verdictsOf('tuned-1', 'r1')).toEqual(
      answers.map((answer) => ({ passed: answer !== 'no idea', shadow: true })),
    );
  });

  it('is refused a rule for kinds its base does not judge, recording nothing', async () => {
    const head = await engine.store.head(ws);
    const outcome = await engine.store.execute({
      workspace_id: ws,
      actor: { kind: 'system', name: 'ops' },
      command: {
        type: 'set_evaluation_rule',
        evaluator: 'llm_judge@tuned-1',
        targets: ['turn'],
      },
    });
    expect(outcome).toMatchObject({
      type: 'validation_failed',
      message: 'llm_judge@tuned-1 judges message, not turn',
    });
    expect(await engine.store.head(ws)).toBe(head);
  });

  it('judges past targets in a backfill previewed like a declared version, refused where it is not recorded', async () => {
    const batches = new ReevaluationClient(
      env.client,
      engine.store,
      taskQueue,
      engine.evaluators,
      {},
      engine.store.judgeVersions,
    );
    const request = {
      selection: { kind: 'message', threadIds: ['t'] } as const,
      evaluators: ['llm_judge@tuned-1'],
    };
    const deps = { store: engine.store, evaluators: engine.evaluators, limits: {}, pricing: {} };
    const preview = await previewReevaluation(deps, ws, request);
    expect(preview.versions).toMatchObject([{ evaluator: 'llm_judge@tuned-1', targets: 4 }]);
    for (const refused of [
      previewReevaluation(deps, 'elsewhere', request),
      batches.start('elsewhere', request),
    ]) {
      await expect(refused).rejects.toThrow('evaluator llm_judge@tuned-1 is not deployed');
    }
    const worker = await testWorker(env, taskQueue, engine.activities);
    await worker.runUntil(async () => {
      await batches.start(ws, { ...request, batchId: 'past' });
      expect(await batches.watch(ws, 'past', () => {}, 100)).toMatchObject({
        total: 4,
        recorded: 4,
      });
    });
    const judged = await engine.store.ledger.evaluations(ws, { generation: 'past' });
    expect(new Set(judged.map((entry) => entry.participant))).toEqual(
      new Set(['evaluator:llm_judge@tuned-1']),
    );
  });

  it('is promoted over its base through the evidence gate, and judges later runs live', async () => {
    for (const [i, answer] of answers.entries()) {
      for (const id of ['ana', 'bo']) {
        const outcome = await engine.store.execute({
          workspace_id: ws,
          actor: { kind: 'reviewer', id },
          command: {
            type: 'give_feedback',
            feedback_type: 'review',
            target: { kind: 'message', thread_id: 't', message_id: `r1-m${i}`, run_id: 'r1' },
            value: { passed: answer !== 'no idea' },
          },
        });
        expect(outcome.type).toBe('recorded');
      }
    }
    const app = {
      feedbackTypes: createFeedbackTypeRegistry([judgeVerdictFeedback, review]),
      evaluators: engine.evaluators,
      rules: [],
    };
    const { command } = await preparePromotion(engine.store, app, {
      workspaceId: ws,
      evaluator: 'llm_judge@tuned-1',
      replacing: 'llm_judge@1',
      field: 'passed',
      against: 'reviewers:review.passed',
      minKappa: 0.6,
      minMatched: 4,
    });
    expect(command.evidence).toMatchObject({ matched: 4, kappa: 1 });
    expect(command.evidence.replaced).toMatchObject({ matched: 4, kappa: 0 });
    expect(command.rule.targets).toEqual(['message']);
    const outcome = await engine.store.execute({
      workspace_id: ws,
      actor: { kind: 'system', name: 'ops' },
      command,
    });
    expect(outcome).toMatchObject({ type: 'recorded' });

    await evaluatedRun('r2');
    expect(await verdictsOf('1', 'r2')).toEqual([]);
    expect(await verdictsOf('tuned-1', 'r2')).toEqual(
      answers.map((answer) => ({ passed: answer !== 'no idea', shadow: false })),
    );
  });
});
