import { describe, expect, it } from 'vitest';
import type { JudgeBacktest } from '../../src/client/index.js';
import type { EvaluatorsView, FieldView, VersionView } from '../../src/ui/evaluators-data.js';
import {
  asOfRequest,
  backtestReading,
  type JudgeVersion,
  judgeComparison,
  promoteCommand,
  shadowCommand,
} from '../../src/ui/judge-versions-data.js';

// What the evaluators page reads of LLM judges' versions, apart from the DOM: which reviewers'
// field a version is compared with, the request of κ as of a day, and what a backtest says of
// the promotion gate. The page itself, against the real API: judge-versions.temporal.test.ts.

const judge = (id: string, tunedFrom: string | null): JudgeVersion => ({
  id,
  source: tunedFrom === null ? 'declared' : 'recorded',
  model: 'judge-model',
  feedbackType: 'judge_verdict',
  tunedFrom,
  examples: tunedFrom === null ? 0 : 2,
  heldOut: tunedFrom === null ? 0 : 10,
  recordedAt: null,
});
const fieldView = (field: string, against: string | null): FieldView =>
  ({
    field: { scoreName: `judge_verdict.${field}`, field, labels: ['false', 'true'] },
    comparison: against === null ? null : { against, mapping: { pass: 'true' } },
  }) as FieldView;
const viewOf = (rows: Record<string, FieldView[]>): EvaluatorsView =>
  ({
    types: [
      {
        feedbackType: 'judge_verdict',
        versions: Object.entries(rows).map(
          ([version, views]) => ({ version, views }) as unknown as VersionView,
        ),
      },
    ],
  }) as EvaluatorsView;

describe("a judge version's comparison", () => {
  it("is its own row's first reviewers' field, else its base's, else none", () => {
    const view = viewOf({
      'llm_judge@1': [
        fieldView('score', 'llm_judge@2:score'),
        fieldView('passed', 'reviewers:review.passed'),
      ],
      'llm_judge@tuned-1': [fieldView('passed', 'reviewers:review.ok')],
    });
    expect(judgeComparison(view, judge('llm_judge@1', null))).toEqual({
      field: 'passed',
      against: 'reviewers:review.passed',
      mapping: { pass: 'true' },
    });
    expect(judgeComparison(view, judge('llm_judge@tuned-1', 'llm_judge@1'))?.against).toBe(
      'reviewers:review.ok',
    );
    // A candidate that judged nothing yet answers with its base's fields.
    expect(judgeComparison(view, judge('llm_judge@tuned-2', 'llm_judge@1'))?.against).toBe(
      'reviewers:review.passed',
    );
    expect(judgeComparison(view, judge('other@1', null))).toBeNull();
  });

  it('asks κ as of the end of a day over every verdict given until then', () => {
    const comparison = { field: 'passed', against: 'reviewers:review.passed', mapping: {} };
    expect(asOfRequest('llm_judge@1', comparison, '2026-05-02T00:00:00.000Z')).toEqual({
      a: 'llm_judge@1:passed',
      b: 'reviewers:review.passed',
      to: '2026-05-02T00:00:00.000Z',
      limit: 0,
    });
    expect(
      asOfRequest('llm_judge@1', { ...comparison, mapping: { pass: 'true' } }, 'x'),
    ).toMatchObject({ mapping: { pass: 'true' } });
  });
});

describe("a backtest's reading", () => {
  const backtest = (compared: number, low: number | null, gain: number | null, kappa = 0.8) =>
    ({
      base: 'llm_judge@1',
      statistics: {
        targets: 12,
        compared,
        new: { kappa: { value: kappa }, kappaInterval: { low, high: low } },
        kappaDifference: { difference: { value: gain } },
      },
    }) as unknown as JudgeBacktest;
  const refused = 'A promotion on it (κ at least 0.6, 10 compared targets) would be refused: ';

  it('says what the promotion gate would answer, as the core decides it', () => {
    expect(backtestReading(backtest(0, null, null))).toBe(
      'None of its 12 held-out targets has all three verdicts yet: judge them with a backfill first.',
    );
    expect(backtestReading(backtest(6, null, 1))).toBe(
      `${refused}6 matched targets, fewer than 10; the held-out set is too small: 6 compared targets give κ no interval.`,
    );
    for (const [gain, said] of [
      [0, '0.000'],
      [-0.2, '-0.200'],
      [null, 'undefined'],
    ] as const) {
      expect(backtestReading(backtest(10, 0.5, gain))).toBe(
        `${refused}no gain over llm_judge@1: κ difference ${said}.`,
      );
    }
    // A gain to a κ still below the gate's is refused too.
    expect(backtestReading(backtest(10, 0.3, 0.4, 0.45))).toBe(`${refused}κ 0.450 is below 0.6.`);
    expect(backtestReading(backtest(10, 0.5, 0.4))).toBe(
      'It gains over llm_judge@1 on 10 held-out targets: it can be promoted on its backtest.',
    );
    expect(backtestReading(backtest(10, 0.5, 0.4), { minKappa: 0.9, minMatched: 10 })).toBe(
      'A promotion on it (κ at least 0.9, 10 compared targets) would be refused: κ 0.800 is below 0.9.',
    );
  });
});

describe("a candidate's actions", () => {
  it('writes the commands an admin runs, in the workspace when it is known', () => {
    const comparison = { field: 'passed', against: 'reviewers:review.passed', mapping: {} };
    expect(shadowCommand('llm_judge@tuned-1', 'acme')).toBe(
      'npx evalflow rules set llm_judge@tuned-1 --mode shadow --workspace acme',
    );
    expect(promoteCommand('llm_judge@tuned-1', comparison, null)).toBe(
      'npx evalflow rules promote llm_judge@tuned-1 --backtest --against reviewers:review.passed --field passed --min-kappa 0.6 --min-matched 10',
    );
    // A mapping the comparison renames labels by goes with it; the gate is the admin's to set.
    const mapped = { ...comparison, mapping: { pass: 'true', fail: 'false' } };
    expect(
      promoteCommand('llm_judge@tuned-1', mapped, 'acme', { minKappa: 0.7, minMatched: 40 }),
    ).toBe(
      'npx evalflow rules promote llm_judge@tuned-1 --backtest --against reviewers:review.passed --field passed --map pass=true --map fail=false --min-kappa 0.7 --min-matched 40 --workspace acme',
    );
  });
});
