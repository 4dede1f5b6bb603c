import { ContractViolationError } from '../errors.js';

/** Throws `ContractViolationError` with the rule that was broken, when it was. */
export function must(condition: boolean, rule: string): asserts condition {
  if (!condition) throw new ContractViolationError(rule);
}
