// The evaluators of `npm run bench:threads`, which its worker process and its driver both load:
// a thread judge and, for the baseline, a turn judge doing the same work. Each awaits
// BENCH_JUDGE_MS of I/O (default 100 ms), as a call to an LLM would: the judge's own time, which
// the verdict delays are measured beyond.
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { createFeedbackTypeRegistry, defineFeedbackType } from '../src/core/index.js';
import { createEvaluatorRegistry, defineEvaluator } from '../src/evaluators/index.js';

export const JUDGE_MS = Number(process.env.BENCH_JUDGE_MS ?? 100);

const verdict = defineFeedbackType({
  name: 'bench_resolution',
  targets: ['thread', 'turn'],
  schema: z.object({ messages: z.int().min(0) }),
});

const judge = (name: string, kind: 'thread' | 'turn') =>
  defineEvaluator({
    name,
    version: '1',
    feedbackType: verdict,
    targets: [kind],
    source: 'JUDGE',
    async evaluate(subject) {
      let messages = 0;
      if (subject.kind === 'thread') {
        for await (const page of subject.pages()) messages += page.length;
      } else if (subject.kind === 'turn') {
        messages = subject.messages.length;
      }
      await sleep(JUDGE_MS);
      return { messages };
    },
  });

export const threadJudge = judge('thread_judge', 'thread');
export const turnJudge = judge('turn_judge', 'turn');
export const evaluators = createEvaluatorRegistry([threadJudge, turnJudge]);
export const feedbackTypes = createFeedbackTypeRegistry([verdict]);
