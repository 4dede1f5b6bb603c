import { v5 as uuidv5 } from 'uuid';

// A fixed namespace: changing it would change every derived envelope id, and with them the ids
// of scores already recorded from those envelopes.
const ENVELOPE_NAMESPACE = '2e3eaec3-a0d1-40c4-96e2-ed39d52e348b';

/**
 * The id of the `index`th envelope appended by an idempotent command. A caller can compute it
 * before executing, and a retry gets the same one, so feedback identity never depends on timing.
 */
export function envelopeIdFor(workspace_id: string, command_id: string, index: number): string {
  return uuidv5(`${workspace_id}/${command_id}/${index}`, ENVELOPE_NAMESPACE);
}
