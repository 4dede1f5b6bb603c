import type { Event } from './events.js';
import type { EvaluationRule } from './rules.js';

/** The event types that set rules: a plan pinned after one of them follows what it set. */
export const ruleEventTypes = ['evaluation_rule_set', 'evaluator_promoted'] as const;

/** The rules an event sets, in order; none for an event that sets no rule. */
export function rulesSetBy(event: Event): EvaluationRule[] {
  switch (event.type) {
    case 'evaluation_rule_set': {
      const { type: _type, ...rule } = event;
      return [rule];
    }
    case 'evaluator_promoted':
      return event.rules;
    default:
      return [];
  }
}
