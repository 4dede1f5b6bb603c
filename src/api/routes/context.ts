import type { FastifyRequest } from 'fastify';
import type { Actor, Envelope, Recorded } from '../../core/index.js';
import type { Command, CredentialKind } from '../../store/index.js';
import { issueCredential } from '../../wire/credentials.js';
import type { Principal } from '../../wire/principals.js';
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

/**
 * Issues a short-lived credential for `principal` in the caller's workspace, expiring after
 * `ttlSeconds`, as the token routes answer it (the secret shown this once).
 */
export async function issueExpiring(
  deps: RouteDeps,
  request: FastifyRequest,
  issue: { kind: CredentialKind; principal: Principal; name: string | null; ttlSeconds: number },
) {
  const expiresAt = new Date(deps.now().getTime() + issue.ttlSeconds * 1000);
  const issued = await issueCredential(deps.store, {
    kind: issue.kind,
    workspaceId: callerOf(request).workspaceId,
    principal: issue.principal,
    name: issue.name,
    expiresAt,
  });
  return {
    id: issued.record.id,
    token: issued.key,
    principal: issued.record.principal,
    expiresAt: expiresAt.toISOString(),
  };
}
