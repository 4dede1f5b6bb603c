import { describe, expect, it } from 'vitest';
import { targetKey } from '../../src/core/index.js';
import {
  chooseExamples,
  exampleChars,
  InvalidReviewedTargetsError,
  InvalidTuningOptionError,
  type JudgeExample,
  type ReviewedTarget,
} from '../../src/tuning/index.js';
import { reviewed } from './reviewed.js';

const training = (targets: ReviewedTarget[]) => ({ training: targets, heldOut: [] });
const labelsOf = (examples: readonly JudgeExample[]) => examples.map((e) => e.reviewersLabel);
const isDisagreement = (e: JudgeExample) => e.judgeLabel !== e.reviewersLabel;
const count = <T>(items: readonly T[], keep: (item: T) => boolean) => items.filter(keep).length;

/** `n` targets from `start`, all of `label`, the judge saying `judged`. */
const many = (start: number, n: number, label: string, judged = label) =>
  Array.from({ length: n }, (_, i) => reviewed(start + i, label, judged));

describe('the choice of examples', () => {
  it('takes the disagreements before the agreements', () => {
    const targets = [
      ...many(0, 30, 'pass'),
      ...many(100, 3, 'pass', 'fail'),
      ...many(200, 30, 'fail'),
    ];
    targets.push(...many(300, 2, 'fail', 'pass'));
    const choice = chooseExamples(training(targets), { maxExamples: 8 });
    expect(choice.examples).toHaveLength(8);
    expect(choice.disagreements).toBe(5);
    expect(choice.disagreementsChosen).toBe(5);
    expect(count(choice.examples, isDisagreement)).toBe(5);
  });

  it('balances the labels even when the disagreements are all of one label', () => {
    // The judge passes what the reviewers fail: 20 disagreements, every one labelled fail.
    const targets = [...many(0, 20, 'fail', 'pass'), ...many(100, 40, 'pass')];
    const choice = chooseExamples(training(targets), { maxExamples: 8 });
    expect(count(labelsOf(choice.examples), (l) => l === 'fail')).toBe(4);
    expect(count(labelsOf(choice.examples), (l) => l === 'pass')).toBe(4);
    // Within its label, the disagreements come first: every fail example is one.
    expect(choice.examples.filter((e) => e.reviewersLabel === 'fail').every(isDisagreement)).toBe(
      true,
    );
  });

  it('prefers, between equally served labels, the one with a disagreement left', () => {
    const targets = [...many(0, 10, 'a'), ...many(100, 10, 'b', 'a')];
    const choice = chooseExamples(training(targets), { maxExamples: 3 });
    expect(labelsOf(choice.examples)).toEqual(['b', 'a', 'b']);
    expect(choice.disagreementsChosen).toBe(2);
  });

  it('gives a label with few targets all it has, and the rest to the others', () => {
    const targets = [...many(0, 1, 'rare'), ...many(100, 20, 'common')];
    const choice = chooseExamples(training(targets), { maxExamples: 6 });
    expect(count(labelsOf(choice.examples), (l) => l === 'rare')).toBe(1);
    expect(choice.examples).toHaveLength(6);
  });

  it('takes every training target when there are fewer than the budget', () => {
    const choice = chooseExamples(training(many(0, 3, 'pass')), { maxExamples: 8 });
    expect(choice.examples).toHaveLength(3);
  });

  it('chooses from one label only, and with no disagreement at all', () => {
    const choice = chooseExamples(training(many(0, 20, 'pass')), { maxExamples: 5 });
    expect(labelsOf(choice.examples)).toEqual(['pass', 'pass', 'pass', 'pass', 'pass']);
    expect(choice.disagreements).toBe(0);
    expect(choice.disagreementsChosen).toBe(0);
  });

  it('keeps the examples within the character budget as the prompt counts them, notes included', () => {
    const long = { ...reviewed(0, 'fail', 'pass'), text: 'x'.repeat(500) };
    const noted = (index: number) => ({
      ...reviewed(index, 'pass'),
      reviewers: [{ raterId: 'user:ana', label: 'pass', note: 'n'.repeat(300) }],
    });
    const targets = [long, noted(1), noted(2), noted(3), ...many(10, 5, 'fail')];
    const maxTotalChars = 1000;
    const choice = chooseExamples(training(targets), { maxExamples: 8, maxTotalChars });
    const chars = choice.examples.reduce((sum, e) => sum + exampleChars(e), 0);
    expect(chars).toBeLessThanOrEqual(maxTotalChars);
    expect(choice.overCharBudget).toBeGreaterThan(0);
    // The long disagreement fits first; a later candidate that does not fit is passed over for
    // the next, not the end of the choice.
    expect(choice.examples.map((e) => targetKey(e.target))).toContain(targetKey(long.target));
    expect(choice.examples.length).toBeGreaterThan(1);
  });

  it('records each example with its provenance: the target, the reviewers, their verdicts and notes', () => {
    const target: ReviewedTarget = {
      target: { kind: 'turn', run_id: 'r7' },
      text: 'Q: 2+2? A: 5',
      judgeLabel: 'pass',
      reviewersLabel: 'fail',
      reviewers: [
        { raterId: 'user:ana', label: 'fail', note: 'arithmetic is wrong' },
        { raterId: 'user:bo', label: 'fail' },
      ],
      expectedVerdict: { score: 0, passed: false, reasoning: '2+2 is 4' },
    };
    const [example] = chooseExamples(training([target])).examples;
    expect(example).toEqual({
      target: { kind: 'turn', run_id: 'r7' },
      text: 'Q: 2+2? A: 5',
      expectedVerdict: { score: 0, passed: false, reasoning: '2+2 is 4' },
      reviewersLabel: 'fail',
      judgeLabel: 'pass',
      reviewers: [
        { raterId: 'user:ana', label: 'fail', note: 'arithmetic is wrong' },
        { raterId: 'user:bo', label: 'fail', note: null },
      ],
    });
  });

  it('is the same for the same training part and seed, whatever its order', () => {
    const targets = [...many(0, 30, 'pass'), ...many(100, 30, 'fail', 'pass')];
    const keys = (t: ReviewedTarget[], seed: number) =>
      chooseExamples(training(t), { seed }).examples.map((e) => targetKey(e.target));
    expect(keys([...targets].reverse(), 3)).toEqual(keys(targets, 3));
    expect(keys(targets, 4)).not.toEqual(keys(targets, 3));
  });

  it('refuses a budget that is not a whole number of at least 1, and a target in both parts', () => {
    const targets = many(0, 10, 'pass');
    for (const [option, value] of [
      ['maxExamples', 0],
      ['maxExamples', 2.5],
      ['maxTotalChars', -1],
      ['seed', -1],
    ] as const) {
      expect(() => chooseExamples(training(targets), { [option]: value })).toThrow(
        expect.objectContaining({ name: InvalidTuningOptionError.name, option }),
      );
    }
    const both = { training: targets, heldOut: [reviewed(3, 'pass')] };
    expect(() => chooseExamples(both)).toThrow(InvalidReviewedTargetsError);
  });
});
