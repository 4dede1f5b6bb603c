import { z } from 'zod';
import { Text } from './ids.js';
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
});
export type PromotionEvidence = z.output<typeof PromotionEvidence>;

/** A rule's settings without its evaluator, enabling or mode: what a promotion moves. */
export const PromotedSettings = z.strictObject({
  targets: RuleSettings.targets,
  sample_rate: RuleSettings.sample_rate,
  filter: RuleSettings.filter,
});

/** Why the evidence falls short of the thresholds; none when it meets them. */
export function shortfallsOf(
  evidence: Pick<PromotionEvidence, 'kappa' | 'matched'>,
  thresholds: { min_kappa: number; min_matched: number },
): string[] {
  const short: string[] = [];
  if (evidence.matched < thresholds.min_matched) {
    short.push(`${evidence.matched} matched targets, fewer than ${thresholds.min_matched}`);
  }
  if (evidence.kappa === null) short.push('κ is undefined');
  else if (evidence.kappa < thresholds.min_kappa) {
    short.push(`κ ${figureText(evidence.kappa)} is below ${thresholds.min_kappa}`);
  }
  return short;
}

/** A figure as messages write it: three decimals. */
export const figureText = (value: number): string => value.toFixed(3);

/** The evidence in one line: `κ 0.712 (95 % interval 0.601–0.803) over 64 matched targets`. */
export function evidenceLine(evidence: VersionAgreement): string {
  const kappa = evidence.kappa === null ? 'κ undefined' : `κ ${figureText(evidence.kappa)}`;
  const interval =
    evidence.interval === null
      ? ' (no interval)'
      : ` (${Math.round(evidence.interval.level * 100)} % interval ${figureText(evidence.interval.low)}–${figureText(evidence.interval.high)})`;
  return `${kappa}${interval} over ${evidence.matched} matched targets`;
}
