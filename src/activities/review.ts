import { participantOf } from '../core/index.js';
import { type Command, type Commands, commandIdOf, type EntityReads } from '../store/index.js';
import type { ApplyReviewInput, ReviewOutcome } from './types.js';

/**
 * The `applyReview` activity: a reviewer's submit, revise or withdraw, as the reviewer. A submit
 * when the reviewer already reviewed, or a revise when they did not, is refused; the review
 * workflow serializes actions per target, so this check and the write cannot interleave.
 */
export function reviewActivities({ store }: { store: Commands & EntityReads }) {
  return {
    async applyReview(input: ApplyReviewInput): Promise<ReviewOutcome> {
      const actor = { kind: 'reviewer' as const, ...input.reviewer };
      const participant = participantOf(actor);
      const own = await store.feedback(input.workspaceId, {
        target: input.target,
        participant,
        feedback_type: input.feedback_type,
      });
      if (input.kind === 'submit' && own.length > 0) {
        return {
          type: 'conflict',
          message: `${participant} already gave ${input.feedback_type} feedback here; revise it instead`,
        };
      }
      if (input.kind === 'revise' && own.length === 0) {
        return {
          type: 'not_found',
          message: `${participant} has no ${input.feedback_type} feedback here to revise`,
        };
      }
      const command: Command =
        input.kind === 'withdraw'
          ? { type: 'withdraw_feedback', feedback_type: input.feedback_type, target: input.target }
          : {
              type: 'give_feedback',
              feedback_type: input.feedback_type,
              target: input.target,
              value: input.value ?? {},
              source: 'HUMAN',
            };
      const outcome = await store.execute({
        workspace_id: input.workspaceId,
        actor,
        command,
        command_id: commandIdOf(input.requestId),
      });
      if (outcome.type !== 'recorded') return { type: outcome.type, message: outcome.message };
      const first = outcome.events[0];
      return {
        type: 'recorded',
        seq: first?.seq ?? 0,
        envelope_id: first?.id ?? null,
        is_update: outcome.is_update ?? false,
        ...(outcome.removed !== undefined ? { removed: outcome.removed } : {}),
      };
    },
  };
}
