// Agreement among more than two raters on a categorical or boolean field: Fleiss' κ (every
// target rated the same number of times) and Krippendorff's α for nominal data (any number of
// ratings per target; a target with fewer than two cannot be paired and is left out). Both read
// only how many times each label was given on each target, so who gave which rating is not an
// input. Sums are integer counts, with one division at the end.

import { defined, type Figure, undefinedFigure } from './figures.js';
import { compareCodePoints, type LabelMapping, labelCoder, type MaybeLabel } from './labels.js';

/** How the raters' labels are read. */
export interface RaterOptions {
  /** Renames labels before counting; see `LabelMapping`. */
  readonly mapping?: LabelMapping;
}

/** How several raters' labels on the same targets agree. Plain JSON. */
export interface RaterAgreement {
  /** Targets given. */
  readonly targets: number;
  /** Targets with two or more ratings: every figure below is over these. */
  readonly pairableTargets: number;
  /** Ratings on the pairable targets. */
  readonly ratings: number;
  /**
   * Ratings per target when every target with a rating has the same number, else null. Fleiss' κ
   * needs it; a target with no rating at all is left out.
   */
  readonly ratingsPerTarget: number | null;
  /** The labels given, in code-point order. */
  readonly labels: readonly string[];
  /**
   * Share of pairs of ratings on the same target that agree, each target weighted by its ratings
   * (Krippendorff's 1 − D_o; with equal ratings per target, Fleiss' P̄).
   */
  readonly observedAgreement: Figure;
  /** Fleiss' κ (1971): statsmodels' `fleiss_kappa(table, method='fleiss')`. */
  readonly fleissKappa: Figure;
  /** Krippendorff's α, nominal: the `krippendorff` package's `alpha(level_of_measurement='nominal')`. */
  readonly krippendorffAlpha: Figure;
}

/**
 * How the raters agree: `targets[i]` lists the labels given to target i, one per rating (null
 * entries are skipped, as missing ratings).
 *
 * @throws AgreementInputError when a value is not a label.
 */
export function raterAgreement(
  targets: readonly (readonly MaybeLabel[])[],
  options: RaterOptions = {},
): RaterAgreement {
  const coder = labelCoder(options.mapping);
  const coded = targets.map((ratings) => {
    const own: number[] = [];
    for (const rating of ratings) {
      if (rating !== null && rating !== undefined) own.push(coder.code(rating));
    }
    return own;
  });
  const size = coder.labels.length;
  const totals = new Float64Array(size);
  const counts = new Float64Array(size);
  let pairable = 0;
  let ratings = 0;
  let perTarget: number | null = null;
  let unequal = false;
  // Σ over targets of (m² − Σ n²) / (m − 1), and of Σ n² (Fleiss).
  let disagreement = 0;
  let agreeingPairs = 0;
  for (const own of coded) {
    const m = own.length;
    if (m === 0) continue;
    if (perTarget === null) perTarget = m;
    else if (perTarget !== m) unequal = true;
    if (m < 2) continue;
    counts.fill(0);
    for (const code of own) counts[code] = (counts[code] as number) + 1;
    let squares = 0;
    for (let c = 0; c < size; c += 1) {
      const n = counts[c] as number;
      squares += n * n;
      totals[c] = (totals[c] as number) + n;
    }
    disagreement += (m * m - squares) / (m - 1);
    agreeingPairs += squares - m;
    pairable += 1;
    ratings += m;
  }
  const labels = [...coder.labels].sort(compareCodePoints);
  const base = {
    targets: targets.length,
    pairableTargets: pairable,
    ratings,
    ratingsPerTarget: unequal ? null : perTarget,
    labels,
  };
  if (pairable === 0) {
    const none = undefinedFigure('no_pairable_targets');
    return { ...base, observedAgreement: none, fleissKappa: none, krippendorffAlpha: none };
  }
  let totalSquares = 0;
  for (const total of totals) totalSquares += total * total;
  const chanceDisagreement = ratings * ratings - totalSquares;
  const observedAgreement = defined(1 - disagreement / ratings);
  if (chanceDisagreement === 0) {
    const one = undefinedFigure('one_value_only');
    return { ...base, observedAgreement, fleissKappa: one, krippendorffAlpha: one };
  }
  const alpha = 1 - ((ratings - 1) * disagreement) / chanceDisagreement;
  let fleiss: Figure;
  if (unequal || perTarget === null) {
    fleiss = undefinedFigure('unequal_ratings');
  } else {
    // P̄ = Σ (Σ n² − m) / (N·m·(m − 1)); P̄e = Σ T² / (N·m)².
    const m = perTarget;
    const meanAgreement = agreeingPairs / (pairable * m * (m - 1));
    const chance = totalSquares / (ratings * ratings);
    fleiss = defined((meanAgreement - chance) / (chanceDisagreement / (ratings * ratings)));
  }
  return { ...base, observedAgreement, fleissKappa: fleiss, krippendorffAlpha: defined(alpha) };
}
