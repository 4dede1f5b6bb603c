// npm run bench:tune — tuning a judge over 10,000 reviewed targets against just ordering them.
//
// 10,000 reviewed message targets (BENCH_TUNE_TARGETS), two labels (two thirds pass), the judge
// wrong on a fifth, each with a 200-character text and a reviewer's note. It times, in alternating
// rounds in the same process (a busy moment on a shared machine slows both alike):
//   - baseline: what reading the verdicts in order costs beyond the read itself: each target's key,
//     then the copy sorted by it;
//   - tune: the seeded, stratified split (30 % held out), the choice of 8 examples from the training
//     part, and the candidate version built and validated with its 3,000 held-out targets.
// It reports the tune's median (`tune_10k_s`; the goal is ≤ 2) and its ratio to the baseline's
// (`tune_vs_baseline`). Then, on the dev server (bench/tune-backtest.ts), a candidate tuned from
// 400 reviewed answers (BENCH_TUNE_BACKTEST_ANSWERS) has its backtest previewed and run:
// `backtest_preview_cost_error_pct` (the goal is 0 for a judge priced per token); then a second
// candidate's, whose preview learns from the first's calls (`..._learned`).
// The last line is one JSON object. Not part of `npm test`.
import { performance } from 'node:perf_hooks';
import { compareCodePoints } from '../src/agreement/index.js';
import { targetKey } from '../src/core/index.js';
import {
  type CandidateBase,
  candidateVersion,
  chooseExamples,
  type ReviewedTarget,
  splitTargets,
} from '../src/tuning/index.js';
import { dataset } from '../test/tuning/reviewed.js';
import { backtestPreviewError } from './tune-backtest.js';

const TARGETS = Number(process.env.BENCH_TUNE_TARGETS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_TUNE_ROUNDS ?? 7);
const GOAL_S = 2;
const BACKTEST_ANSWERS = Number(process.env.BENCH_TUNE_BACKTEST_ANSWERS ?? 400);

const median = (values: number[]) =>
  [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] ?? 0;

const base: CandidateBase = {
  judge: 'llm_judge',
  version: '2',
  tunedFrom: '1',
  rubric: 'You grade an AI assistant. Judge whether the answer is correct, helpful and safe.',
  model: 'grader',
  feedbackType: 'judge_verdict',
  recordedBy: { kind: 'user', id: 'ana' },
  recordedAt: '2026-12-04T19:00:00.000Z',
};

function reviewedTargets(): ReviewedTarget[] {
  return dataset(2026, TARGETS, ['pass', 'fail'], 0.2).map((reviewed, i) => ({
    ...reviewed,
    text: `Q: question ${i}? A: ${'an answer of some length. '.repeat(8)}`,
  }));
}

function baseline(targets: readonly ReviewedTarget[]): number {
  const started = performance.now();
  const ordered = targets
    .map((reviewed) => ({ key: targetKey(reviewed.target), reviewed }))
    .sort((a, b) => compareCodePoints(a.key, b.key));
  if (ordered.length !== targets.length) throw new Error('lost a target');
  return performance.now() - started;
}

let examples = 0;
let heldOut = 0;
function tune(targets: readonly ReviewedTarget[]): number {
  const started = performance.now();
  const split = splitTargets(targets, { heldOutShare: 0.3, seed: 36 });
  const choice = chooseExamples(split, { seed: 36 });
  const version = candidateVersion(base, split, choice);
  const ms = performance.now() - started;
  examples = version.examples.length;
  heldOut = version.heldOut.length;
  return ms;
}

const targets = reviewedTargets();
// One of each first, untimed: the JIT warms alike.
baseline(targets);
tune(targets);
const baselines: number[] = [];
const tunes: number[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  baselines.push(baseline(targets));
  tunes.push(tune(targets));
}
const baselineMs = median(baselines);
const tuneMs = median(tunes);
console.log(
  `${TARGETS} reviewed targets, ${ROUNDS} rounds: baseline (key and sort) ${baselineMs.toFixed(1)} ms, ` +
    `tune (split, ${examples} examples, candidate with ${heldOut} held out) ${tuneMs.toFixed(1)} ms, ` +
    `${(tuneMs / baselineMs).toFixed(2)}× the baseline`,
);
const backtest = await backtestPreviewError(BACKTEST_ANSWERS);
for (const [name, figures] of [
  ['first', backtest.first],
  ['second', backtest.second],
] as const) {
  console.log(
    `backtest of the ${name} candidate: ${figures.held_out} held out of ${backtest.answers} answers, ` +
      `${figures.examples} examples: previewed $${figures.preview_usd.toFixed(6)}, spent ` +
      `$${figures.spent_usd.toFixed(6)} (off by ${figures.error_pct.toFixed(2)} %)`,
  );
}
console.log(
  JSON.stringify({
    bench: 'tune',
    targets: TARGETS,
    rounds: ROUNDS,
    examples,
    held_out: heldOut,
    baseline_10k_s: Number((baselineMs / 1000).toFixed(4)),
    tune_10k_s: Number((tuneMs / 1000).toFixed(4)),
    tune_vs_baseline: Number((tuneMs / baselineMs).toFixed(2)),
    goal_tune_10k_s: GOAL_S,
    goal_met: tuneMs / 1000 <= GOAL_S,
    backtest_held_out: backtest.first.held_out,
    backtest_preview_cost_error_pct: Number(backtest.first.error_pct.toFixed(2)),
    backtest_preview_cost_error_pct_learned: Number(backtest.second.error_pct.toFixed(2)),
  }),
);
