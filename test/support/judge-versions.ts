import type { Target } from '../../src/core/index.js';

// What the tests of tuned judges record: a version of the built-in llm_judge tuned from
// llm_judge@1, with one example (m1 of thread t, which reviewer ana failed and the base passed)
// and the held-out targets a test gives, as `record_judge_version` takes it.

/** Message `m{i}` of thread `t`, outside any run. */
export const messageOfT = (i: number): Target => ({
  kind: 'message',
  thread_id: 't',
  message_id: `m${i}`,
  run_id: null,
});

/** The whole numbers from `from` to `to`, both included. */
export const range = (from: number, to: number): number[] =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** A `record_judge_version` command's version: `tuned-1` of llm_judge unless `changes` say. */
export const tunedVersion = (changes: { version?: string; heldOut?: Target[]; note?: string }) => ({
  judge: 'llm_judge',
  version: changes.version ?? 'tuned-1',
  rubric: 'Is the answer right? Fail what the reviewers fail.',
  model: 'judge-model',
  feedbackType: 'judge_verdict',
  examples: [
    {
      target: messageOfT(1),
      text: 'assistant: answer 1',
      expectedVerdict: { score: 0, passed: false },
      reviewersLabel: 'false',
      judgeLabel: 'true',
      reviewers: [{ raterId: 'reviewer:ana', label: 'false', note: changes.note ?? null }],
    },
  ],
  tunedFrom: '1',
  heldOut: changes.heldOut ?? [],
});
