import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApplicationFailure } from '@temporalio/common';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { asActivityFailure } from '../../src/activities/failures.js';
import type { UsageReport } from '../../src/core/index.js';
import {
  type EvaluationContext,
  JudgeRequestError,
  llmJudgeEvaluator,
  type Subject,
} from '../../src/evaluators/index.js';
import { readChat } from '../support/stand-in-judge.js';
import { step, turnWith } from './turns.js';

// A local stand-in for an OpenAI-compatible endpoint: the real one is not reachable from here.
let server: Server;
let baseUrl: string;
let requests: { path: string; authorization?: string; body: Record<string, unknown> }[];
let reply: {
  status: number;
  content?: string;
  headers?: Record<string, string>;
  usage?: { prompt_tokens: number; completion_tokens: number };
};
let reported: UsageReport[];

beforeAll(async () => {
  server = createServer(async (request, response) => {
    requests.push({
      path: request.url ?? '',
      authorization: request.headers.authorization,
      body: await readChat(request),
    });
    response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    response.end(
      JSON.stringify({
        choices: [{ message: { role: 'assistant', content: reply.content } }],
        ...(reply.usage ? { usage: reply.usage } : {}),
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
  requests = [];
  reported = [];
  reply = { status: 200, content: '{"score": 0.8, "passed": true, "reasoning": "fine"}' };
});

const context: EvaluationContext = {
  participant: 'evaluator:llm_judge@1',
  attempt: 1,
  signal: new AbortController().signal,
  reportUsage: async (usage) => {
    reported.push(usage);
  },
};
const subject: Subject = {
  kind: 'message',
  message: { message_id: 'm', thread_id: 't', run_id: null, role: 'assistant', content: '42' },
};

describe('the LLM judge', () => {
  it('asks the chat completions endpoint for a JSON verdict and returns it', async () => {
    const judge = llmJudgeEvaluator({ baseUrl, model: 'grader', apiKey: 'secret' });
    expect(await judge.evaluate(subject, context)).toEqual({
      score: 0.8,
      passed: true,
      reasoning: 'fine',
    });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      path: '/v1/chat/completions',
      authorization: 'Bearer secret',
      body: { model: 'grader', temperature: 0, response_format: { type: 'json_object' } },
    });
    expect(JSON.stringify(requests[0]?.body)).toContain('Answer:\\n42');
  });

  it("shows a turn's steps only when asked to, each call with how it ended", async () => {
    const turn = turnWith([
      step({ kind: 'model', model: 'gpt-4o' }),
      step({ tool_name: 'refund', arguments: '{"order":7}', status: 'error', error: 'denied' }),
    ]);
    const userPrompt = () => {
      const messages = requests.at(-1)?.body.messages as { content: string }[];
      return messages[1]?.content;
    };
    await llmJudgeEvaluator({ baseUrl, model: 'grader' }).evaluate(turn, context);
    expect(userPrompt()).toBe('assistant: Done.');
    await llmJudgeEvaluator({ baseUrl, model: 'grader', showSteps: true }).evaluate(turn, context);
    expect(userPrompt()).toBe(
      [
        'assistant: Done.',
        '',
        'Steps, in order:',
        '1. model call gpt-4o [ok]',
        '2. tool call refund({"order":7}) →  [failed: denied]',
      ].join('\n'),
    );
  });

  it('marks rate limits and server faults retryable, other refusals not', async () => {
    const judge = llmJudgeEvaluator({ baseUrl, model: 'grader' });
    for (const [status, retryable] of [
      [429, true],
      [503, true],
      [400, false],
    ] as const) {
      reply = { status };
      const error = await Promise.resolve(judge.evaluate(subject, context)).catch((e) => e);
      expect(error).toBeInstanceOf(JudgeRequestError);
      expect(error.retryable).toBe(retryable);
    }
  });

  it('refuses a reply that is not JSON, for good', async () => {
    reply = { status: 200, content: 'I think it is fine' };
    const judge = llmJudgeEvaluator({ baseUrl, model: 'grader' });
    await expect(judge.evaluate(subject, context)).rejects.toMatchObject({ retryable: false });
  });

  it("reports every response's usage as the configured model's, a reply it then refuses too", async () => {
    const judge = llmJudgeEvaluator({ baseUrl, model: 'grader' });
    reply = {
      status: 200,
      content: 'not json',
      usage: { prompt_tokens: 120, completion_tokens: 7 },
    };
    await expect(judge.evaluate(subject, context)).rejects.toMatchObject({ retryable: false });
    reply = {
      status: 200,
      content: '{"score": 1, "passed": true}',
      usage: { prompt_tokens: 80, completion_tokens: 5 },
    };
    await judge.evaluate(subject, context);
    expect(reported).toEqual([
      { model: 'grader', inputTokens: 120, outputTokens: 7 },
      { model: 'grader', inputTokens: 80, outputTokens: 5 },
    ]);
  });

  it('reports nothing for a response without usage, or a refusal', async () => {
    const judge = llmJudgeEvaluator({ baseUrl, model: 'grader' });
    await judge.evaluate(subject, context);
    reply = { status: 503 };
    await Promise.resolve(judge.evaluate(subject, context)).catch(() => undefined);
    expect(reported).toEqual([]);
  });

  it("turns a 429's Retry-After into the wait before the next try", async () => {
    reply = { status: 429, headers: { 'retry-after': '7' } };
    const judge = llmJudgeEvaluator({ baseUrl, model: 'grader' });
    const error = await Promise.resolve(judge.evaluate(subject, context)).catch((e) => e);
    expect(error).toMatchObject({ retryable: true, retryAfterMs: 7000 });
    // The activities turn it into Temporal's next retry delay.
    const failure = asActivityFailure(error);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ nextRetryDelay: 7000, nonRetryable: false });
  });
});
