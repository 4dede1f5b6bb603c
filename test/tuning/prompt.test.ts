import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { llmJudgeEvaluator, type Subject } from '../../src/evaluators/index.js';
import { chooseExamples, judgeMessages, splitTargets } from '../../src/tuning/index.js';
import { readChat } from '../support/stand-in-judge.js';
import { dataset, reviewed } from './reviewed.js';

const rubric = 'Judge whether the answer is correct.';

describe("a judge version's prompt", () => {
  it('shows each example exactly once, in the order of the examples, before the target judged', () => {
    const split = splitTargets(dataset(2, 80));
    const { examples } = chooseExamples(split, { maxExamples: 6 });
    const messages = judgeMessages({ rubric, examples }, 'the answer judged');
    expect(messages.map((m) => m.role)).toEqual([
      'system',
      ...examples.flatMap(() => ['user', 'assistant']),
      'user',
    ]);
    const shown = messages.slice(1, -1).filter((m) => m.role === 'user');
    expect(shown.map((m) => m.content.split('\n\n')[0])).toEqual(examples.map((e) => e.text));
    for (const example of examples) {
      const times = messages.filter((m) => m.content.includes(example.text)).length;
      expect(times, example.text).toBe(1);
    }
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'the answer judged' });
    // The same examples give the same prompt.
    expect(judgeMessages({ rubric, examples: [...examples] }, 'the answer judged')).toEqual(
      messages,
    );
  });

  it("answers an example with its expected verdict and shows the reviewers' notes after its text", () => {
    const target = {
      ...reviewed(1, 'fail', 'pass', 'Q: 2+2? A: 5'),
      reviewers: [
        { raterId: 'user:ana', label: 'fail', note: 'arithmetic' },
        { raterId: 'user:bo', label: 'fail', note: null },
      ],
    };
    const { examples } = chooseExamples({ training: [target], heldOut: [] });
    expect(judgeMessages({ rubric, examples }, 'x').slice(1, 3)).toEqual([
      { role: 'user', content: "Q: 2+2? A: 5\n\nA reviewer's note: arithmetic" },
      { role: 'assistant', content: JSON.stringify(target.expectedVerdict) },
    ]);
  });
});

describe('the built-in judge and a version without examples', () => {
  let server: Server;
  let baseUrl: string;
  const bodies: { messages: unknown }[] = [];
  beforeAll(async () => {
    server = createServer(async (request, response) => {
      bodies.push(await readChat(request));
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ choices: [{ message: { content: '{"score":1,"passed":true}' } }] }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('send the same messages: one rubric-and-reply-format line for both', async () => {
    const subject: Subject = {
      kind: 'message',
      message: { message_id: 'm', thread_id: 't', run_id: null, role: 'assistant', content: '42' },
    };
    const judge = llmJudgeEvaluator({ baseUrl, model: 'grader', rubric });
    await judge.evaluate(subject, {
      participant: 'evaluator:llm_judge@1',
      attempt: 1,
      signal: new AbortController().signal,
      reportUsage: async () => {},
    });
    const sent = bodies[0]?.messages as { role: string; content: string }[];
    expect(sent).toEqual(judgeMessages({ rubric, examples: [] }, sent[1]?.content ?? ''));
    expect(sent[0]?.content).toMatch(
      /^Judge whether the answer is correct\.\nReply with a JSON object/,
    );
  });
});
