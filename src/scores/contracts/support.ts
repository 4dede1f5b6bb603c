import { ContractViolation } from '../errors.js';

/** Throws `ContractViolation` with the rule that was broken, when it was. */
export function must(condition: boolean, rule: string): asserts condition {
  if (!condition) throw new ContractViolation(rule);
}
