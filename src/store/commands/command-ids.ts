import { v5 as uuidv5 } from 'uuid';
import { COMMAND_ID_MAX_LENGTH, idProblem } from '../../core/index.js';

// A fixed namespace: changing it would change the command ids derived from long composites, so a
// retry after an upgrade would no longer find its first attempt.
const COMMAND_NAMESPACE = '9b4c1f0e-6a57-4d1e-8f3a-5c2d7e9b0a14';

/**
 * The command id for a composite the engine derives (a workflow id, a participant, a target, a
 * generation): the composite itself while it follows the command id rule, which keeps the ids
 * already recorded, else a UUIDv5 of it, so long ids still make a short, stable key.
 */
export function commandIdOf(composite: string): string {
  return idProblem(composite, COMMAND_ID_MAX_LENGTH) === null
    ? composite
    : uuidv5(composite, COMMAND_NAMESPACE);
}
