// The ledger's words: every (target, evaluator version, generation) ends in one evaluation state,
// every score the mirror sends in one score state. Declared once; the store, the activities, the
// workflows and the API derive theirs from these.

export const evaluationStates = ['recorded', 'sampled_out', 'failed', 'skipped'] as const;
/** The one final state of each (target, evaluator version, generation). */
export type EvaluationState = (typeof evaluationStates)[number];

export const scoreStates = ['pending', 'confirmed', 'failed', 'deleted'] as const;
/** Where a score the mirror sent stands: pending until read back, then settled. */
export type ScoreState = (typeof scoreStates)[number];
