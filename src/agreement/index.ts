// The public surface of evalflow's agreement statistics: how two populations of verdicts on the
// same targets agree (an evaluator version against the reviewers, the reviewers against the
// users), and how several raters agree. Pure: no imports from node, no I/O, no other evalflow
// folder. Results are plain JSON; a figure the data leave undefined is null with its reason.

export {
  DEFAULT_LEVEL,
  DEFAULT_RESAMPLES,
  DEFAULT_SEED,
  type DefinedInterval,
  type Interval,
  type IntervalOptions,
  kappaInterval,
  MIN_MATCHED_FOR_INTERVAL,
  type UndefinedInterval,
} from './bootstrap.js';
export {
  type CategoricalAgreement,
  type CategoricalOptions,
  categoricalAgreement,
  categoricalAgreementOfCodes,
  type LabelAgreement,
  type MacroAgreement,
} from './categorical.js';
export { AgreementInputError } from './errors.js';
export {
  type DefinedFigure,
  type Figure,
  UNDEFINED_REASONS,
  type UndefinedCode,
  type UndefinedFigure,
} from './figures.js';
export {
  compareCodePoints,
  encodeLabels,
  type Label,
  type LabelCodes,
  type LabelMapping,
  labelText,
  type MaybeLabel,
} from './labels.js';
export {
  type ChiSquareMcNemar,
  EXACT_BELOW,
  type ExactMcNemar,
  type McNemar,
  mcnemar,
  type NoDisagreement,
} from './mcnemar.js';
export { type MaybeNumber, type NumericAgreement, numericAgreement } from './numeric.js';
export {
  type BacktestOptions,
  type BacktestSide,
  type BacktestStatistics,
  backtestStatistics,
  type ChangedVerdict,
  type HeldOutTarget,
  type IncompleteTarget,
  type KappaDifference,
} from './paired.js';
// The seeded generator, for tuning's seeded split and choice of examples; the samplers are
// internal, the bootstraps are their only users.
export { Random, SEED_LIMIT } from './random.js';
export { averageRanks } from './ranks.js';
export { type RaterAgreement, type RaterOptions, raterAgreement } from './raters.js';
