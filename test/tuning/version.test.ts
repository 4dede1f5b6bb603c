import { describe, expect, it } from 'vitest';
import {
  InvalidJudgeVersionError,
  type JudgeVersion,
  parseJudgeVersion,
} from '../../src/tuning/index.js';

const example = (messageId: string) => ({
  target: { kind: 'message', thread_id: 't', message_id: messageId, run_id: null },
  text: `answer ${messageId}`,
  expectedVerdict: { score: 0, passed: false, reasoning: 'wrong' },
  reviewersLabel: 'false',
  judgeLabel: 'true',
  reviewers: [{ raterId: 'user:ana', label: 'false', note: null }],
});

const valid = {
  judge: 'llm_judge',
  version: '2',
  rubric: 'Judge whether the answer is correct.',
  model: 'grader',
  feedbackType: 'judge_verdict',
  examples: [example('m1'), example('m2')],
  tunedFrom: '1',
  heldOut: [{ kind: 'message', thread_id: 't', message_id: 'm9', run_id: null }],
  recordedBy: { kind: 'user', id: 'ana' },
  recordedAt: '2026-12-04T19:00:00.000Z',
};

/** The problems a would-be version is refused with. */
const problemsOf = (input: unknown) => {
  try {
    parseJudgeVersion(input);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidJudgeVersionError);
    return (error as InvalidJudgeVersionError).problems;
  }
  throw new Error('the version was accepted');
};

describe('a judge version as data', () => {
  it('accepts a valid version and returns it as parsed', () => {
    const version: JudgeVersion = parseJudgeVersion(valid);
    expect(version.examples).toHaveLength(2);
    expect(version.examples[0]?.reviewers[0]).toEqual({
      raterId: 'user:ana',
      label: 'false',
      note: null,
    });
  });

  it('refuses a shape that is wrong, naming each field', () => {
    const problems = problemsOf({ ...valid, model: '', extra: 1, examples: [{ text: 'x' }] });
    expect(problems.every((p) => p.code === 'shape')).toBe(true);
    const messages = problems.map((p) => p.message).join('\n');
    expect(messages).toContain('model:');
    expect(messages).toContain('examples.0.target');
    expect(messages).toContain('extra');
  });

  it('refuses an example without a reviewer: no example without its provenance', () => {
    const problems = problemsOf({ ...valid, examples: [{ ...example('m1'), reviewers: [] }] });
    expect(problems).toEqual([
      expect.objectContaining({
        code: 'shape',
        message: expect.stringMatching(/^examples\.0\.reviewers:/),
      }),
    ]);
  });

  it('refuses a version or base version that is no id part', () => {
    const problems = problemsOf({ ...valid, version: 'two words', tunedFrom: '' });
    expect(problems.map((p) => p.code)).toEqual(['bad_version', 'bad_version']);
    expect(problems[0]?.message).toMatch(/^version: /);
  });

  it('lists every broken rule at once: an empty rubric, tuned from itself, an example held out or given twice', () => {
    const problems = problemsOf({
      ...valid,
      rubric: '  ',
      tunedFrom: '2',
      examples: [example('m1'), example('m1'), example('m9')],
    });
    expect(problems.map((p) => p.code)).toEqual([
      'empty_rubric',
      'tuned_from_itself',
      'duplicate_example',
      'example_held_out',
    ]);
    expect(problems.find((p) => p.code === 'example_held_out')?.message).toBe(
      'example message:t/m9 is a held-out target',
    );
  });
});
