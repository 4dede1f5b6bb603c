import type { FastifyRequest } from 'fastify';
import type { Actor, Envelope, Recorded } from '../../core/index.js';
import type { VerifiedCaller } from '../credentials.js';
import { refuse } from '../errors.js';
import type { Api, ApiOptions } from '../server.js';

export type RouteDeps = ApiOptions & { now: () => Date };
export type Register = (api: Api, deps: RouteDeps) => void;

/** The verified caller; routes run only after authentication, so there is one. */
export const callerOf = (request: FastifyRequest): VerifiedCaller => {
  if (request.caller === null) throw new Error('route ran without a verified caller');
  return request.caller;
};

/** Executes one command as `actor` in the caller's workspace; a rejection becomes its status. */
export async function execute(
  deps: RouteDeps,
  request: FastifyRequest,
  actor: Actor,
  command: Record<string, unknown>,
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
