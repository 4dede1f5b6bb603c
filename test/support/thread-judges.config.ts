// An app with one thread evaluator, for the tests and `npm run bench:threads` that run
// `evalflow worker` processes: `resolution@1` judges a whole conversation once it has been quiet
// for EVALFLOW_TEST_IDLE_FOR (default 2s), awaiting EVALFLOW_TEST_JUDGE_MS of I/O (default 0)
// as an LLM call would. Its verdict counts the messages it read, so a test can tell a judgement
// of the whole conversation from one of a part.
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { defineConfig, defineEvaluator, defineFeedbackType } from '../../src/index.js';

const judgeMs = Number(process.env.EVALFLOW_TEST_JUDGE_MS ?? 0);

export const resolutionFeedback = defineFeedbackType({
  name: 'resolution',
  targets: ['thread'],
  schema: z.object({ resolved: z.boolean(), messages: z.int() }),
});

export const resolution = defineEvaluator({
  name: 'resolution',
  version: '1',
  feedbackType: resolutionFeedback,
  targets: ['thread'],
  source: 'JUDGE',
  async evaluate(subject) {
    if (subject.kind !== 'thread') throw new TypeError(`expected a thread, got a ${subject.kind}`);
    let messages = 0;
    let last: string | undefined;
    for await (const page of subject.pages()) {
      for (const entry of page) {
        if (entry.kind !== 'message') continue;
        messages += 1;
        last = entry.message.role;
      }
    }
    if (judgeMs > 0) await sleep(judgeMs);
    return { resolved: last === 'assistant', messages };
  },
});

export default defineConfig({
  evaluators: [resolution],
  rules: [{ evaluator: 'resolution@1', idleFor: process.env.EVALFLOW_TEST_IDLE_FOR ?? '2s' }],
});
