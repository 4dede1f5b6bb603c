import { z } from 'zod';
import { judgeVersionId, type StoredJudgeVersion } from '../core/index.js';
import type { BacktestStatistics } from '../evidence/index.js';
import { WireCategorical, WireFigure, WireInterval } from './agreement.js';

// A recorded judge version's backtest as the API answers it and `evalflow judges backtest
// --json` prints it: src/agreement's statistics over the version's held-out targets, each
// target named by its key (`message:t1/m1`).

const BacktestSide = z.enum(['reviewers', 'old', 'new']);

const WireMcNemar = z.object({
  test: z.enum(['exact_binomial', 'chi_square_corrected', 'no_disagreement']),
  /** Targets where only the old version is right, and where only the new one is. */
  b: z.int(),
  c: z.int(),
  statistic: z.number(),
  pValue: z.number(),
  degreesOfFreedom: z.literal(1).optional(),
  reason: z.string().optional(),
});

export const WireBacktest = z.object({
  workspace: z.string(),
  /** The recorded version, `judge@version`, and the version it was tuned from. */
  candidate: z.string(),
  base: z.string(),
  statistics: z.object({
    targets: z.int(),
    /** Held-out targets with all three verdicts: every figure is over these. */
    compared: z.int(),
    incomplete: z.array(z.object({ target: z.string(), missing: z.array(BacktestSide) })),
    labels: z.array(z.string()),
    /** Each version against the reviewers (A: the reviewers, B: the version). */
    old: WireCategorical,
    new: WireCategorical,
    kappaDifference: z.object({ difference: WireFigure, interval: WireInterval }),
    mcnemar: WireMcNemar,
    changed: z.array(
      z.object({
        target: z.string(),
        reviewers: z.string(),
        old: z.string(),
        new: z.string(),
        oldRight: z.boolean(),
        newRight: z.boolean(),
      }),
    ),
  }),
});
export type WireBacktest = z.output<typeof WireBacktest>;

export const wireBacktest = (
  workspace: string,
  version: StoredJudgeVersion,
  statistics: BacktestStatistics,
): WireBacktest => ({
  workspace,
  candidate: judgeVersionId(version),
  base: judgeVersionId({ judge: version.judge, version: version.tunedFrom }),
  statistics: statistics as WireBacktest['statistics'],
});
