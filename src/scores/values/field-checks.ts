// Checks one scored field's value against its own schema: by the schema's compiled check where
// it proves the value, else by zod's parse, whose output, errors, transforms and defaults are
// the result.
import { z } from 'zod';
import type { ScoredFieldPlan } from '../configs/schema-configs.js';
import { InvalidScoreValueError, problemsOf } from '../errors.js';
import { compiledCheck, type FieldCheck, NOT_PROVEN } from './compiled-checks.js';

const checksOfPlans = new WeakMap<readonly ScoredFieldPlan[], readonly (FieldCheck | null)[]>();

/** Each scored field's compiled check, in plan order; looked up once per type, not per field. */
export function fieldChecks(plans: readonly ScoredFieldPlan[]): readonly (FieldCheck | null)[] {
  let checks = checksOfPlans.get(plans);
  if (checks === undefined) {
    checks = plans.map((plan) => compiledCheck(plan.schema));
    checksOfPlans.set(plans, checks);
  }
  return checks;
}

/**
 * The field's value (not undefined or null) as its schema gives it.
 *
 * @throws InvalidScoreValueError naming the field and what its schema reported.
 */
export function checkedField(
  plan: ScoredFieldPlan,
  check: FieldCheck | null,
  raw: unknown,
): unknown {
  if (check !== null) {
    const proven = check(raw);
    if (proven !== NOT_PROVEN) return proven;
  }
  return parsedAlone(plan, raw);
}

/**
 * One field's value parsed by its own schema with zod.
 *
 * @throws InvalidScoreValueError naming the field and what its schema reported.
 */
export function parsedAlone(plan: ScoredFieldPlan, raw: unknown): unknown {
  const parsed = z.safeParse(plan.schema, raw);
  if (parsed.success) return parsed.data;
  const problems = problemsOf(parsed.error);
  throw new InvalidScoreValueError(
    `${plan.config.name}: the value does not match its schema (${problems.join('; ')})`,
    plan.config.field,
    problems,
  );
}
