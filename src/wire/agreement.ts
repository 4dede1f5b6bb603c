import { z } from 'zod';
import {
  type BacktestEvidence,
  type PromotionEvidence,
  targetKinds,
  type VersionAgreement,
} from '../core/index.js';
import type { AgreementReport } from '../evidence/index.js';
import { SCORE_DATA_TYPES } from '../scores/index.js';
import { WireTarget, wireTarget } from './entities.js';

// The agreement report over HTTP: src/evidence's report as JSON, its targets in the wire's
// camelCase. A figure is `{value}`, or `{value: null, code, reason}` where the data leave it
// undefined; an interval `{low, high, level, ...}`, or `{low: null, high: null, code, reason}`.

export const WireFigure = z.object({
  value: z.number().nullable(),
  /** Why the figure is undefined (`no_matched_targets`, `one_label_only`, ...). */
  code: z.string().optional(),
  reason: z.string().optional(),
});

export const WireInterval = z.object({
  low: z.number().nullable(),
  high: z.number().nullable(),
  level: z.number().optional(),
  method: z.string().optional(),
  resamples: z.int().optional(),
  undefinedResamples: z.int().optional(),
  seed: z.int().optional(),
  code: z.string().optional(),
  reason: z.string().optional(),
});

const LabelFigures = z.object({
  label: z.string(),
  countA: z.int(),
  countB: z.int(),
  rateA: WireFigure,
  rateB: WireFigure,
  precision: z.number(),
  recall: z.number(),
  f1: z.number(),
});

export const WireCategorical = z.object({
  targets: z.int(),
  matched: z.int(),
  onlyA: z.int(),
  onlyB: z.int(),
  labels: z.array(z.string()),
  confusion: z.array(z.array(z.int())),
  rawAgreement: WireFigure,
  chanceAgreement: WireFigure,
  kappa: WireFigure,
  kappaInterval: WireInterval,
  perLabel: z.array(LabelFigures),
  macro: z.object({ precision: WireFigure, recall: WireFigure, f1: WireFigure }),
});

export const WireNumeric = z.object({
  targets: z.int(),
  matched: z.int(),
  onlyA: z.int(),
  onlyB: z.int(),
  meanA: WireFigure,
  meanB: WireFigure,
  pearson: WireFigure,
  spearman: WireFigure,
  mae: WireFigure,
  rmse: WireFigure,
});

const WireSide = z.object({
  /** The side in its full written form: `politeness@2:polite`, `reviewers:politeness.polite`. */
  side: z.string(),
  population: z.enum(['evaluator', 'reviewers', 'users']),
  participant: z.string().nullable(),
  feedbackType: z.string(),
  field: z.string(),
  dataType: z.enum(SCORE_DATA_TYPES),
  verdicts: z.int(),
  ties: z.int(),
  raters: z
    .object({
      raters: z.int(),
      pairableTargets: z.int(),
      cohenKappa: WireFigure.nullable(),
      fleissKappa: WireFigure,
      krippendorffAlpha: WireFigure,
    })
    .nullable(),
});

const WireVote = z.object({ participant: z.string(), value: z.union([z.string(), z.number()]) });

export const WireDisagreement = z.object({
  target: WireTarget,
  targetKey: z.string(),
  a: z.union([z.string(), z.number()]),
  b: z.union([z.string(), z.number()]),
  votesA: z.array(WireVote),
  votesB: z.array(WireVote),
});

export const AgreementReply = z.object({
  a: WireSide,
  b: WireSide,
  kind: z.enum(['categorical', 'numeric']),
  mapping: z.record(z.string(), z.string()),
  from: z.string().nullable(),
  to: z.string().nullable(),
  targetKind: z.enum(targetKinds).nullable(),
  asOfSeq: z.int(),
  categorical: WireCategorical.nullable(),
  numeric: WireNumeric.nullable(),
  disagreements: z.object({ total: z.int(), listed: z.array(WireDisagreement) }),
});
export type AgreementReply = z.output<typeof AgreementReply>;

/** The report as the API answers it: the same figures, targets in camelCase, no workspace. */
export function wireAgreement(report: AgreementReport): AgreementReply {
  const { workspaceId: _workspace, disagreements, ...rest } = report;
  return {
    ...rest,
    mapping: { ...report.mapping },
    categorical: report.categorical as AgreementReply['categorical'],
    numeric: report.numeric as AgreementReply['numeric'],
    disagreements: {
      total: disagreements.total,
      listed: disagreements.listed.map((d) => ({
        ...d,
        target: wireTarget(d.target),
        votesA: [...d.votesA],
        votesB: [...d.votesB],
      })),
    },
  };
}

/** One version's agreement in a promotion's evidence, over HTTP. */
const WireVersionAgreement = z.object({
  compared: z.string(),
  matched: z.int(),
  kappa: z.number().nullable(),
  interval: z.object({ low: z.number(), high: z.number(), level: z.number() }).nullable(),
  rawAgreement: z.number().nullable(),
});

const WireDifferenceInterval = z.object({ low: z.number(), high: z.number(), level: z.number() });

/** A tuned version's backtest in a promotion's evidence (core's `BacktestEvidence`). */
const WireBacktestEvidence = z.object({
  heldOut: z.int(),
  kappaDifference: z.number().nullable(),
  differenceInterval: WireDifferenceInterval.nullable(),
  mcnemarP: z.number(),
});

/** A promotion's evidence over HTTP: the log's `PromotionEvidence`, in camelCase. */
export const WireEvidence = WireVersionAgreement.extend({
  against: z.string(),
  mapping: z.record(z.string(), z.string()),
  asOfSeq: z.int(),
  replaced: WireVersionAgreement.nullable(),
  /** The backtest the figures were read from; null when they are the agreement over all verdicts. */
  backtest: WireBacktestEvidence.nullable(),
});

const wireVersion = (agreement: VersionAgreement) => ({
  compared: agreement.compared,
  matched: agreement.matched,
  kappa: agreement.kappa,
  interval: agreement.interval,
  rawAgreement: agreement.raw_agreement,
});

export const wireEvidence = (evidence: PromotionEvidence): z.output<typeof WireEvidence> => ({
  ...wireVersion(evidence),
  against: evidence.against,
  mapping: evidence.mapping,
  asOfSeq: evidence.as_of_seq,
  replaced: evidence.replaced === null ? null : wireVersion(evidence.replaced),
  backtest: evidence.backtest === undefined ? null : wireBacktestEvidence(evidence.backtest),
});

const wireBacktestEvidence = (backtest: BacktestEvidence) => ({
  heldOut: backtest.held_out,
  kappaDifference: backtest.kappa_difference,
  differenceInterval: backtest.difference_interval,
  mcnemarP: backtest.mcnemar_p,
});
