import { type Actor, EvaluatorId, parseEvaluatorId } from '../core/index.js';

// Who a key or token speaks for. Every identity in an event comes from here, never from a body.

export type Principal =
  | { kind: 'system' }
  | { kind: 'admin' }
  /** Reports lifecycle; what it posts is the thread's agent's. */
  | { kind: 'agent' }
  | { kind: 'user'; id: string; name?: string }
  | { kind: 'reviewer'; id: string }
  | { kind: 'evaluator'; name: string; version: string };
export type PrincipalKind = Principal['kind'];

export const PRINCIPAL_FORMS = [
  'system',
  'admin',
  'agent',
  'user:<id>',
  'reviewer:<id>',
  'evaluator:<name>@<version>',
] as const;

/** A principal from its text, or null when it is none of `PRINCIPAL_FORMS`. */
export function parsePrincipal(text: string): Principal | null {
  if (text === 'system' || text === 'admin' || text === 'agent') return { kind: text };
  const colon = text.indexOf(':');
  if (colon < 0) return null;
  const kind = text.slice(0, colon);
  const rest = text.slice(colon + 1);
  if (rest === '') return null;
  if (kind === 'user' || kind === 'reviewer') return { kind, id: rest };
  if (kind === 'evaluator' && EvaluatorId.safeParse(rest).success) {
    return { kind, ...parseEvaluatorId(rest) };
  }
  return null;
}

export function principalText(principal: Principal): string {
  switch (principal.kind) {
    case 'user':
    case 'reviewer':
      return `${principal.kind}:${principal.id}`;
    case 'evaluator':
      return `evaluator:${principal.name}@${principal.version}`;
    default:
      return principal.kind;
  }
}

/**
 * The actor a principal acts as. An agent key acts as the agent of the thread the command is
 * about, so the caller names that thread; the system and admin keys act as the system.
 */
export function actorOf(principal: Principal, threadId?: string): Actor {
  switch (principal.kind) {
    case 'system':
      return { kind: 'system', name: 'api' };
    case 'admin':
      return { kind: 'system', name: 'admin' };
    case 'agent':
      return { kind: 'agent', thread_id: threadId ?? '' };
    case 'user':
      return {
        kind: 'user',
        id: principal.id,
        ...(principal.name ? { name: principal.name } : {}),
      };
    case 'reviewer':
      return { kind: 'reviewer', id: principal.id };
    case 'evaluator':
      return { kind: 'evaluator', name: principal.name, version: principal.version };
  }
}
