import { type BackfillSelection, selectorTargetsProblem } from '../store/index.js';
import { InvalidRequestError } from './errors.js';

/** A backfill's own targets (`selection.targets`) are of the kind it selects. */
export function checkTargets(selection: BackfillSelection | undefined): void {
  const problem = selection === undefined ? null : selectorTargetsProblem(selection);
  if (problem !== null) throw new InvalidRequestError(problem);
}
