import type { z } from 'zod';

// Rejections are values, a union on `type`, never thrown. Messages state facts with ids in them.
export type Rejection =
  | { type: 'not_found'; entity: string; id: string; message: string }
  | { type: 'invalid_state'; message: string }
  | { type: 'validation_failed'; message: string; errors: unknown[] }
  | { type: 'forbidden'; message: string }
  | { type: 'conflict'; message: string };

export type RejectionType = Rejection['type'];
// Every type once: the record's keys must be exactly the union's, so the list cannot drift.
const everyType: Record<RejectionType, true> = {
  not_found: true,
  invalid_state: true,
  validation_failed: true,
  forbidden: true,
  conflict: true,
};
export const rejectionTypes = Object.keys(everyType) as readonly RejectionType[];

export const notFound = (entity: string, id: string): Rejection => ({
  type: 'not_found',
  entity,
  id,
  message: `${entity} ${id} does not exist`,
});
export const invalidState = (message: string): Rejection => ({ type: 'invalid_state', message });
export const forbidden = (message: string): Rejection => ({ type: 'forbidden', message });
export const conflict = (message: string): Rejection => ({ type: 'conflict', message });
export const validationFailed = (message: string, errors: unknown[] = []): Rejection => ({
  type: 'validation_failed',
  message,
  errors,
});

/** zod issues as plain JSON values, so a rejection can cross any wire unchanged. */
export function issuesOf(error: z.ZodError): unknown[] {
  return error.issues.map((issue) => JSON.parse(JSON.stringify(issue)) as unknown);
}

/**
 * The first issues as one line, each with the field it is about: `thread_id: an id cannot be
 * empty; value: not JSON: $.a: a bigint is not a JSON value`.
 */
export function summaryOf(error: z.ZodError, shown = 3, whole = ''): string {
  const lines = error.issues.slice(0, shown).map((issue) => issueLine(issue, whole));
  const more = error.issues.length - shown;
  return more > 0 ? `${lines.join('; ')} (and ${more} more)` : lines.join('; ');
}

/**
 * One zod issue as `field: message`, the field as a JavaScript path (`rules[0].evaluator`); an
 * issue of the whole value is its message alone, or `{whole}: message` when the whole is named.
 * Every zod error evalflow reports, outside the pure scores module, is written by this.
 */
export function issueLine(issue: z.core.$ZodIssue, whole = ''): string {
  const field = issue.path
    .map((part, at) =>
      typeof part === 'number' ? `[${part}]` : `${at > 0 ? '.' : ''}${String(part)}`,
    )
    .join('');
  const subject = field === '' ? whole : field;
  return subject === '' ? issue.message : `${subject}: ${issue.message}`;
}

/**
 * A union's issue as what its options said, not zod's bare "Invalid input" (an app definition's
 * errors are written so; the OTLP receiver's reasons and commands' refusals keep zod's own words,
 * which the protobuf reader and the conformance cases repeat): the option that got
 * deepest into the value (an object's field, say), or, when none got past the value itself, each
 * option's own complaint, joined by "or" (`expected string, received number, or not a feedback
 * type from defineFeedbackType`). Every issue keeps the whole path from the root.
 */
export function specificIssue(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return issue;
  const options = issue.errors.map((branch) =>
    branch.map((inner) => specificIssue({ ...inner, path: [...issue.path, ...inner.path] })),
  );
  const found = options.flat();
  if (found.length === 0) return issue;
  const deepest = Math.max(...found.map((inner) => inner.path.length));
  const atDeepest = found.filter((inner) => inner.path.length === deepest);
  const first = atDeepest[0] as z.core.$ZodIssue;
  const samePlace = atDeepest.filter((inner) => samePath(inner.path, first.path));
  const messages = [...new Set(samePlace.map((inner) => inner.message))];
  return messages.length === 1 ? first : { ...first, message: messages.join(', or ') };
}

const samePath = (a: readonly PropertyKey[], b: readonly PropertyKey[]) =>
  a.length === b.length && a.every((part, at) => part === b[at]);

export function isRejection(value: { type: string }): value is Rejection {
  return (rejectionTypes as readonly string[]).includes(value.type);
}
