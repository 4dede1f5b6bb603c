import {
  createFeedbackTypeRegistry,
  type DecideContext,
  type EvaluatorCatalog,
} from '../../src/core/index.js';

// What promotion tests share: the versions an app deploys, with the feedback type of each
// (tone@1 and tone@2 of one type, mood@1 of another), and a promotion of tone@2 over tone@1.

const versionTypes: Record<string, string> = {
  'tone@1': 'tone',
  'tone@2': 'tone',
  'mood@1': 'mood',
};
export const targetsOf: EvaluatorCatalog['targetsOf'] = (id) =>
  id in versionTypes ? ['turn', 'message'] : undefined;
export const feedbackTypes = createFeedbackTypeRegistry([]);
export const promotionContext: DecideContext = {
  feedbackTypes,
  evaluators: { targetsOf, feedbackTypeOf: (id) => versionTypes[id] },
};
export const evidence = {
  compared: 'tone@2:warm',
  against: 'reviewers',
  matched: 80,
  kappa: 0.64,
  interval: null,
  raw_agreement: 0.9,
  as_of_seq: 7,
};
export const promotion = {
  type: 'promote_evaluator',
  evaluator: 'tone@2',
  replacing: 'tone@1',
  rule: { targets: ['turn'] },
  replaced_rule: { targets: ['turn'] },
  min_kappa: 0.6,
  min_matched: 50,
  evidence,
};
