import type { FastifyRequest } from 'fastify';
import type { Actor, Envelope, Recorded } from '../../core/index.js';
import type { Command } from '../../store/index.js';
import { refuse } from '../errors.js';
import type { RouteDeps } from '../options.js';
import { callerOf } from '../plugins/authentication.js';

export type { Register, RouteDeps } from '../options.js';
export { callerOf };

/** Executes one command as `actor` in the caller's workspace; a rejection becomes its status. */
export async function execute(
  deps: RouteDeps,
  request: FastifyRequest,
  actor: Actor,
  command: Command,
): Promise<Recorded<Envelope>> {
  const outcome = await deps.store.execute({
    workspace_id: callerOf(request).workspaceId,
    actor,
    command,
    ...(request.commandId ? { command_id: request.commandId } : {}),
  });
  if (outcome.type !== 'recorded') throw refuse(outcome);
  return outcome;
}
