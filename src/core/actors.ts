import { z } from 'zod';
import { Id } from './ids.js';
import { evaluatorParticipant } from './keys.js';
import { EVALUATOR_ID_PART } from './rules.js';

// Who sends a command. Actors are compared by participant id, never by display fields such as
// `name`, so a user renamed between two ratings is still the same rater. Ids and names follow the
// id rule (`ids.ts`); an evaluator's name and version also keep to the characters that join into
// its participant id unambiguously.
const evaluatorPart = Id.regex(
  EVALUATOR_ID_PART,
  'an evaluator name or version holds only A-Z a-z 0-9 _ . -',
);
export const UserActor = z.strictObject({
  kind: z.literal('user'),
  id: Id,
  name: Id.optional(),
});
export const AgentActor = z.strictObject({
  kind: z.literal('agent'),
  thread_id: Id,
  name: Id.optional(),
});
export const SystemActor = z.strictObject({
  kind: z.literal('system'),
  name: Id.default('system'),
});
// Each version of an evaluator is its own participant, so verdicts of two versions never mix.
export const EvaluatorActor = z.strictObject({
  kind: z.literal('evaluator'),
  name: evaluatorPart,
  version: evaluatorPart,
});
export const ReviewerActor = z.strictObject({
  kind: z.literal('reviewer'),
  id: Id,
  name: Id.optional(),
});

export const Actor = z.discriminatedUnion('kind', [
  UserActor,
  AgentActor,
  SystemActor,
  EvaluatorActor,
  ReviewerActor,
]);
export type Actor = z.output<typeof Actor>;
export type ActorKind = Actor['kind'];

/** The participant id an actor is known by: `user:{id}`, `evaluator:{name}@{version}`, ... */
export function participantOf(actor: Actor): string {
  switch (actor.kind) {
    case 'user':
      return `user:${actor.id}`;
    case 'agent':
      return `agent:${actor.thread_id}`;
    case 'system':
      return `system:${actor.name}`;
    case 'evaluator':
      return evaluatorParticipant(actor);
    case 'reviewer':
      return `reviewer:${actor.id}`;
  }
}

export { evaluatorId, evaluatorIdOf, evaluatorParticipant } from './keys.js';

export const systemActor: Actor = { kind: 'system', name: 'system' };
