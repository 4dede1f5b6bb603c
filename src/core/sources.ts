import { z } from 'zod';
import type { Actor } from './actors.js';

// Score sources (docs/specification.md#score-sources): populations never aggregated together.
export const ScoreSource = z.enum(['USER', 'HUMAN', 'JUDGE', 'HARNESS', 'EVAL']);
export type ScoreSource = z.output<typeof ScoreSource>;

/**
 * The sources each kind of actor may record, the first being its default. Users give USER
 * feedback, reviewers HUMAN; an evaluator declares JUDGE or HARNESS; the system records harness
 * results or EVAL scores imported from the provider; an agent's self-assessment is a harness one.
 */
const sourcesByActor: Record<Actor['kind'], readonly ScoreSource[]> = {
  user: ['USER'],
  reviewer: ['HUMAN'],
  evaluator: ['JUDGE', 'HARNESS'],
  system: ['HARNESS', 'EVAL'],
  agent: ['HARNESS'],
};

export function sourcesFor(actor: Actor): readonly ScoreSource[] {
  return sourcesByActor[actor.kind];
}
