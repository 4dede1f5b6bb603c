import type { Actor } from './actors.js';
import type { CommandOf } from './commands.js';
import { type DecideContext, type Decision, recorded } from './decision.js';
import { forbidden } from './rejections.js';
import { reviewQueueProblem } from './review-queues.js';

/**
 * Only the system sets review queues. The queue must name a reviewers' feedback type, only
 * target kinds it is given on, and routing rules whose evaluator versions are deployed and whose
 * fields exist: a queue is data, so a mistake is refused here rather than found when a target is
 * routed.
 */
export function setReviewQueue(
  actor: Actor,
  command: CommandOf<'set_review_queue'>,
  context: DecideContext,
): Decision {
  if (actor.kind !== 'system') return forbidden('only the system sets review queues');
  const { type: _type, command_id: _id, ...queue } = command;
  const problem = reviewQueueProblem(queue, context);
  if (problem !== null) return problem;
  return recorded([
    { type: 'review_queue_set', ...queue, target_kinds: [...new Set(queue.target_kinds)].sort() },
  ]);
}
