import { expect, it } from 'vitest';
import { targetKey } from '../../src/core/index.js';
import {
  type CandidateBase,
  candidateVersion,
  chooseExamples,
  InvalidJudgeVersionError,
  splitTargets,
  TooFewTargetsError,
} from '../../src/tuning/index.js';
import { dataset, uniforms } from './reviewed.js';

// The backtest's promise: a held-out target is never an example. Over many datasets (sizes,
// labels, judge error rates) and seeds, the whole path from the split to a recorded candidate.

const base: CandidateBase = {
  judge: 'llm_judge',
  version: '2',
  tunedFrom: '1',
  rubric: 'Judge whether the answer is correct.',
  model: 'grader',
  feedbackType: 'judge_verdict',
  recordedBy: { kind: 'user', id: 'ana' },
  recordedAt: '2026-12-04T19:00:00.000Z',
};

it('never makes a held-out target an example, over many datasets and seeds', () => {
  let candidates = 0;
  for (let seed = 0; seed < 400; seed += 1) {
    const next = uniforms(seed);
    const labels = ['a', 'b', 'c', 'd'].slice(0, 1 + Math.floor(next() * 4));
    const targets = dataset(seed, 5 + Math.floor(next() * 120), labels, next());
    const heldOutShare = 0.05 + next() * 0.9;
    let split: ReturnType<typeof splitTargets>;
    try {
      split = splitTargets(targets, { heldOutShare, seed, minimumPerPart: 1 });
    } catch (error) {
      if (error instanceof TooFewTargetsError) continue;
      throw error;
    }
    const choice = chooseExamples(split, { seed, maxExamples: 1 + Math.floor(next() * 40) });
    const version = candidateVersion(base, split, choice);
    const heldOut = new Set(version.heldOut.map(targetKey));
    expect(heldOut.size).toBe(split.heldOut.length);
    for (const example of version.examples)
      expect(heldOut.has(targetKey(example.target))).toBe(false);
    candidates += 1;
  }
  expect(candidates).toBeGreaterThan(300);
});

it('refuses a candidate whose examples include a held-out target', () => {
  const targets = dataset(1, 40);
  const split = splitTargets(targets);
  const choice = chooseExamples({ training: targets, heldOut: [] }, { maxExamples: 40 });
  expect(() => candidateVersion(base, split, choice)).toThrow(InvalidJudgeVersionError);
});
