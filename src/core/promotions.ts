import { z } from 'zod';
import { Text } from './ids.js';
import { figureText } from './promotion-gate.js';
import { RuleSettings } from './rules.js';

// Promotion on evidence: a version replaces another (or goes live from shadow) only when its
// verdicts agree well enough with what they were compared with, measured at that moment. The
// evidence travels in the command and stays in the log with the switch of rules it made, so
// who promoted what, on which figures, is read back from the log alone.

/** κ's interval as the evidence keeps it: its bounds and its coverage (0.95). */
export const EvidenceInterval = z.strictObject({
  low: z.number().min(-1).max(1),
  high: z.number().min(-1).max(1),
  level: z.number().gt(0).lt(1),
});

/** One version's agreement with the side it was compared with. */
export const VersionAgreement = z.strictObject({
  /** The version's field, as a side is written: `politeness@2:polite`. */
  compared: Text.min(1),
  /** Targets both sides gave a verdict. */
  matched: z.int().min(0),
  /** Cohen's κ; null where it is undefined (no matched target, or one label only). */
  kappa: z.number().min(-1).max(1).nullable(),
  /** κ's 95 % bootstrap interval over targets; null with too few matched targets. */
  interval: EvidenceInterval.nullable(),
  /** The share of matched targets with the same label on both sides. */
  raw_agreement: z.number().min(0).max(1).nullable(),
});
export type VersionAgreement = z.output<typeof VersionAgreement>;

/** κ(new) − κ(old) may range over [-2, 2]. */
const Difference = z.number().min(-2).max(2);

/**
 * A tuned version's backtest, when the evidence is one: the version and the one it was tuned
 * from, judged against the reviewers on the version's held-out targets (never its examples), so
 * `matched` counts the held-out targets with all three verdicts and `replaced` is paired with it.
 */
export const BacktestEvidence = z.strictObject({
  /** The held-out targets the version recorded, judged or not. */
  held_out: z.int().min(0),
  /** κ of the promoted version minus κ of the replaced one, on the same targets. */
  kappa_difference: Difference.nullable(),
  /** Its percentile bootstrap interval over targets; null with too few compared targets. */
  difference_interval: z
    .strictObject({ low: Difference, high: Difference, level: z.number().gt(0).lt(1) })
    .nullable(),
  /** McNemar's p on the targets where exactly one version is right. */
  mcnemar_p: z.number().min(0).max(1),
});
export type BacktestEvidence = z.output<typeof BacktestEvidence>;

/** The agreement a promotion was decided on, measured when it was asked for. */
export const PromotionEvidence = VersionAgreement.extend({
  /** What the verdicts were compared with, as a side is written: `reviewers:politeness.polite`. */
  against: Text.min(1),
  /** Labels renamed on both sides before comparing (`{"pass": "true"}`). */
  mapping: z.record(z.string(), z.string()).default({}),
  /** The workspace's last seq when the verdicts were read. */
  as_of_seq: z.int().min(0),
  /** The replaced version against the same side, for comparison; null without one. */
  replaced: VersionAgreement.nullable().default(null),
  /** Present when the evidence is a backtest rather than the agreement over all verdicts. */
  backtest: BacktestEvidence.optional(),
});
export type PromotionEvidence = z.output<typeof PromotionEvidence>;

/** A rule's settings without its evaluator, enabling or mode: what a promotion moves. */
export const PromotedSettings = z.strictObject({
  targets: RuleSettings.targets,
  sample_rate: RuleSettings.sample_rate,
  filter: RuleSettings.filter,
});

/** An interval as messages write it: ` (95 % interval 0.601–0.803)`, or ` (no interval)`. */
export const intervalText = (
  interval: { low: number; high: number; level: number } | null,
): string =>
  interval === null
    ? ' (no interval)'
    : ` (${Math.round(interval.level * 100)} % interval ${figureText(interval.low)}–${figureText(interval.high)})`;

/** The evidence in one line: `κ 0.712 (95 % interval 0.601–0.803) over 64 matched targets`. */
export function evidenceLine(evidence: VersionAgreement): string {
  const kappa = evidence.kappa === null ? 'κ undefined' : `κ ${figureText(evidence.kappa)}`;
  return `${kappa}${intervalText(evidence.interval)} over ${evidence.matched} matched targets`;
}
