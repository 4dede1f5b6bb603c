// The promotion gate's arithmetic, importing nothing: what the core decides a promotion on, and
// what the reviewers' page reads a backtest by, so the two say the same.

/** The figures a promotion is decided on (`PromotionEvidence`, in `promotions.ts`). */
export interface GateEvidence {
  kappa: number | null;
  matched: number;
  interval: { low: number; high: number } | null;
  /** The version it replaces, as compared (`llm_judge@1:passed`); null without one. */
  replaced: { compared: string } | null;
  /** Present when the evidence is a tuned version's backtest. */
  backtest?: { kappa_difference: number | null } | undefined;
}

export interface GateThresholds {
  min_kappa: number;
  min_matched: number;
}

/** A figure as messages write it: three decimals. */
export const figureText = (value: number): string => value.toFixed(3);

/**
 * Why the evidence falls short of the thresholds; none when it meets them. A backtest must
 * also be large enough to give κ an interval, and must show the version beating the one it
 * replaces on the same held-out targets: a tuning that gained nothing is not promoted.
 */
export function shortfallsOf(evidence: GateEvidence, thresholds: GateThresholds): string[] {
  const short: string[] = [];
  if (evidence.matched < thresholds.min_matched) {
    short.push(`${evidence.matched} matched targets, fewer than ${thresholds.min_matched}`);
  }
  if (evidence.kappa === null) short.push('κ is undefined');
  else if (evidence.kappa < thresholds.min_kappa) {
    short.push(`κ ${figureText(evidence.kappa)} is below ${thresholds.min_kappa}`);
  }
  if (evidence.backtest !== undefined) short.push(...backtestShortfalls(evidence));
  return short;
}

function backtestShortfalls(evidence: GateEvidence): string[] {
  const short: string[] = [];
  if (evidence.interval === null) {
    short.push(
      `the held-out set is too small: ${evidence.matched} compared targets give κ no interval`,
    );
  }
  const difference = evidence.backtest?.kappa_difference ?? null;
  if (evidence.replaced !== null && (difference === null || difference <= 0)) {
    const gain = difference === null ? 'undefined' : figureText(difference);
    short.push(`no gain over ${evidence.replaced.compared}: κ difference ${gain}`);
  }
  return short;
}
