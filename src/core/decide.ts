import type { z } from 'zod';
import { Actor } from './actors.js';
import { Command } from './commands.js';
import { giveFeedback, withdrawFeedback } from './decide-feedback.js';
import { recordJudgeVersion } from './decide-judge-versions.js';
import {
  archiveArtifact,
  createThread,
  endRun,
  endThread,
  pauseRun,
  postMessage,
  putArtifact,
  startRun,
} from './decide-lifecycle.js';
import { promoteEvaluator } from './decide-promotions.js';
import { deleteRating, rateMessage } from './decide-ratings.js';
import { setReviewQueue } from './decide-review-queues.js';
import { setEvaluationRule } from './decide-rules.js';
import { recordScore } from './decide-scores.js';
import { type DecideContext, type Decision, withRecordedVersions } from './decision.js';
import { forbidden, issuesOf, type Rejection, summaryOf, validationFailed } from './rejections.js';
import type { WorkspaceState } from './state.js';

export type Admitted =
  | { ok: true; actor: Actor; command: Command }
  | { ok: false; rejection: Rejection };

/** The context with the workspace's recorded judge versions beside the deployed ones. */
const withRecorded = (state: WorkspaceState, context: DecideContext): DecideContext => ({
  ...context,
  evaluators: withRecordedVersions(context.evaluators, state.judgeVersions),
});

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Parses an actor and a command off the wire. An evaluator may only give feedback, and that is
 * refused before anything else, the command's shape included
 * (docs/specification.md#who-may-give-feedback). Anything at all may arrive, so nothing here
 * throws: what cannot be read is a `validation_failed`.
 */
export function admit(actor: unknown, command: unknown): Admitted {
  try {
    if (
      isRecord(actor) &&
      actor.kind === 'evaluator' &&
      (!isRecord(command) || command.type !== 'give_feedback')
    ) {
      return { ok: false, rejection: forbidden('an evaluator can only give feedback') };
    }
    const parsedActor = Actor.safeParse(actor);
    if (!parsedActor.success) return refused('invalid actor', parsedActor.error);
    const parsedCommand = Command.safeParse(command);
    if (!parsedCommand.success) return refused('invalid command', parsedCommand.error);
    return { ok: true, actor: parsedActor.data, command: parsedCommand.data };
  } catch (error) {
    // A getter or proxy that throws while being read.
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, rejection: validationFailed(`unreadable input: ${reason}`) };
  }
}

const refused = (what: string, error: z.ZodError): Admitted => ({
  ok: false,
  rejection: validationFailed(`${what}: ${summaryOf(error)}`, issuesOf(error)),
});

/**
 * Decides an admitted command against the entities it needs. Pure: ids and the clock are the
 * store's, so a post_message must carry its `message_id` by now (the store assigns a missing one)
 * and reported times are checked against `context.now`.
 */
export function decideCommand(
  state: WorkspaceState,
  actor: Actor,
  command: Command,
  context: DecideContext,
): Decision {
  switch (command.type) {
    case 'create_thread':
      return createThread(state, command);
    case 'end_thread':
      return endThread(state, actor, command);
    case 'start_run':
      return startRun(state, actor, command, context);
    case 'pause_run':
      return pauseRun(state, actor, command);
    case 'end_run':
      return endRun(state, actor, command, context);
    case 'post_message':
      if (command.message_id === undefined) {
        return validationFailed('a message needs a message_id to be decided', []);
      }
      return postMessage(state, actor, { ...command, message_id: command.message_id }, context);
    case 'put_artifact':
      return putArtifact(state, actor, command);
    case 'archive_artifact':
      return archiveArtifact(state, actor, command);
    case 'give_feedback':
      return giveFeedback(state, actor, command, context);
    case 'withdraw_feedback':
      return withdrawFeedback(state, actor, command, context);
    case 'rate_message':
      return rateMessage(state, actor, command, context);
    case 'delete_rating':
      return deleteRating(state, actor, command);
    case 'set_evaluation_rule':
      return setEvaluationRule(actor, command, withRecorded(state, context));
    case 'promote_evaluator':
      return promoteEvaluator(actor, command, withRecorded(state, context));
    case 'record_score':
      return recordScore(actor, command);
    case 'set_review_queue':
      return setReviewQueue(actor, command, context);
    case 'record_judge_version':
      return recordJudgeVersion(state, actor, command, context);
  }
}

/** `admit` then `decideCommand`: a wire command in, events or a rejection out. */
export function decide(
  state: WorkspaceState,
  actor: unknown,
  command: unknown,
  context: DecideContext,
): Decision {
  const admitted = admit(actor, command);
  if (!admitted.ok) return admitted.rejection;
  return decideCommand(state, admitted.actor, admitted.command, context);
}
