import { describe, expect, it } from 'vitest';
import {
  RoutingRuleInput,
  routingRuleInputOf,
  routingRuleOf,
} from '../../src/config/review-queue-settings.js';
import { RoutingRule } from '../../src/core/index.js';

// One rule of each kind the core knows, in camelCase as people write it.
const written: RoutingRuleInput[] = [
  { kind: 'completed_runs', sampleRate: 0.25 },
  { kind: 'rating_at_most', feedbackType: 'thumbs', field: 'score', atMost: 2 },
  { kind: 'verdict_equals', evaluator: 'tone@1', field: 'label', equals: 'rude' },
  { kind: 'verdict_at_most', evaluator: 'tone@1', field: 'score', atMost: 0.5 },
  { kind: 'confidence_below', evaluator: 'tone@1', field: 'score', below: 0.6 },
  { kind: 'disagreement', evaluators: ['tone@1', 'tone@2'], field: 'label' },
];

describe('routing rules between camelCase and the core', () => {
  it('covers every kind of the core', () => {
    expect(written.map((rule) => rule.kind)).toEqual(
      RoutingRule.options.map((option) => option.shape.kind.value),
    );
  });

  it.each(written)(
    'maps $kind to a rule the core accepts, and back to what was written',
    (rule) => {
      const core = routingRuleOf(RoutingRuleInput.parse(rule));
      expect(RoutingRule.parse(core)).toEqual(core);
      expect(Object.keys(core).every((name) => /^[a-z_]+$/.test(name))).toBe(true);
      expect(routingRuleInputOf(core)).toEqual(rule);
    },
  );

  it('copies a rule’s arrays rather than sharing them', () => {
    const rule = written[5] as Extract<RoutingRuleInput, { kind: 'disagreement' }>;
    const core = routingRuleOf(rule) as Extract<RoutingRule, { kind: 'disagreement' }>;
    expect(core.evaluators).not.toBe(rule.evaluators);
  });
});
