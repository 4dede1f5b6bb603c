// Checks the scored fields of one value against their own schemas. One zod call per field is
// slow next to zod's compiled object parse, so the value is first parsed whole by an object
// schema of the scored fields alone. When that passes, every present field passed its own
// schema; when it fails (an empty field that its schema refuses, or a bad value) the present
// fields are checked one by one, which gives the exact result and names the failing field.
import { z } from 'zod';
import type { ScoredFieldPlan } from '../configs/schema-configs.js';
import { InvalidScoreValueError, problemsOf } from '../errors.js';

const checkers = new WeakMap<readonly ScoredFieldPlan[], z.core.$ZodType | null>();

/** The value parsed by all the scored fields' schemas at once, or null when that fails. */
export function parsedTogether(
  plans: readonly ScoredFieldPlan[],
  value: Record<string, unknown>,
): Record<string, unknown> | null {
  const checker = objectChecker(plans);
  if (checker === null) return null;
  const parsed = z.safeParse(checker, value);
  return parsed.success ? (parsed.data as Record<string, unknown>) : null;
}

/**
 * One field's value parsed by its own schema.
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

/** An object schema of the scored fields, made once per plan; none for an odd field name. */
function objectChecker(plans: readonly ScoredFieldPlan[]): z.core.$ZodType | null {
  const known = checkers.get(plans);
  if (known !== undefined) return known;
  const odd = plans.some((plan) => plan.config.field === '__proto__');
  const checker = odd
    ? null
    : z.object(Object.fromEntries(plans.map((plan) => [plan.config.field, plan.schema])));
  checkers.set(plans, checker);
  return checker;
}
