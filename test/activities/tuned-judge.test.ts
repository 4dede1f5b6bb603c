import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvaluateInput, EvaluateResult } from '../../src/activities/types.js';
import { llmJudgeEvaluator } from '../../src/evaluators/index.js';
import { given, type TestEngine, testEngine } from '../support/engine.js';
import { readChat } from '../support/stand-in-judge.js';

// A judge version recorded as data runs as the evaluate activity's evaluator like a declared one:
// the activity finds it in the workspace's store, and the built-in judge sends its model, its
// rubric and its few-shot examples (the example's target, the reviewer's note, the verdict taught)
// before the target judged. The endpoint is a local stand-in that records what it is sent.

let server: Server;
let requests: Record<string, unknown>[];
let engine: TestEngine;

const example = {
  target: { kind: 'message', thread_id: 't', message_id: 'm0', run_id: null },
  text: 'Answer:\nno idea',
  expectedVerdict: { score: 0, passed: false, reasoning: 'it does not answer' },
  reviewersLabel: 'false',
  judgeLabel: 'true',
  reviewers: [{ raterId: 'user:ana', label: 'false', note: 'evasive' }],
};

beforeAll(async () => {
  requests = [];
  server = createServer(async (request, response) => {
    requests.push(await readChat(request));
    response.writeHead(200, { 'content-type': 'application/json' });
    const content = '{"score": 1, "passed": true, "reasoning": "fine"}';
    response.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  engine = testEngine({
    evaluators: [llmJudgeEvaluator({ baseUrl, model: 'base-model', rubric: 'Base rubric.' })],
  });
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
      content: 'Paris',
      run_id: 'r',
    },
    {
      type: 'record_judge_version',
      judge_version: {
        judge: 'llm_judge',
        version: 'tuned-1',
        rubric: 'Tuned rubric.',
        model: 'tuned-model',
        feedbackType: 'judge_verdict',
        examples: [example],
        tunedFrom: '1',
        heldOut: [{ kind: 'message', thread_id: 't', message_id: 'm', run_id: null }],
      },
    },
  );
});
afterAll(async () => {
  await engine?.close();
  await new Promise((resolve) => server?.close(resolve));
});

const evaluation = (version: string, workspaceId = 'w'): EvaluateInput => ({
  workspaceId,
  evaluator: { name: 'llm_judge', version },
  target: { kind: 'message', thread_id: 't', message_id: 'm', run_id: 'r' },
  generation: 'g1',
  workflowId: `test:${version}`,
  record: true,
});
const run = (input: EvaluateInput) =>
  new MockActivityEnvironment({ attempt: 1 }).run<
    [EvaluateInput],
    EvaluateResult,
    typeof engine.activities.evaluate
  >(engine.activities.evaluate, input);

describe('a judge version recorded as data', () => {
  it('judges with its model, rubric and examples in the prompt, and gives its verdict as itself', async () => {
    expect(await run(evaluation('tuned-1'))).toEqual({ outcome: 'recorded' });
    expect(requests.at(-1)).toMatchObject({
      model: 'tuned-model',
      messages: [
        { role: 'system', content: expect.stringMatching(/^Tuned rubric\.\n/) },
        { role: 'user', content: "Answer:\nno idea\n\nA reviewer's note: evasive" },
        { role: 'assistant', content: JSON.stringify(example.expectedVerdict) },
        { role: 'user', content: 'Answer:\nParis' },
      ],
    });
    const verdicts = await engine.store.feedback('w', {
      participant: 'evaluator:llm_judge@tuned-1',
    });
    expect(verdicts.map((record) => record.value)).toEqual([
      { score: 1, passed: true, reasoning: 'fine' },
    ]);
  });

  it('leaves the version declared in code as it was: its rubric, its model, no examples', async () => {
    expect(await run(evaluation('1'))).toEqual({ outcome: 'recorded' });
    expect(requests.at(-1)).toMatchObject({
      model: 'base-model',
      messages: [
        { role: 'system', content: expect.stringMatching(/^Base rubric\.\n/) },
        { role: 'user', content: 'Answer:\nParis' },
      ],
    });
  });

  it('is not found in another workspace, whose log never recorded it', async () => {
    const sent = requests.length;
    await expect(run(evaluation('tuned-1', 'elsewhere'))).rejects.toMatchObject({
      nonRetryable: true,
      message: expect.stringContaining('evaluator:llm_judge@tuned-1 is not deployed'),
    });
    expect(requests).toHaveLength(sent);
  });
});
