import { type Actor, participantOf } from './actors.js';
import type { Command } from './commands.js';
import type { FeedbackTypeRegistry } from './feedback-types.js';
import { messageKey } from './state.js';
import type { Target } from './targets.js';

/**
 * The entities a command reads, by key, so a store loads exactly these before `decide` (the
 * core's "ask what it needs, load that, decide"). `ratingsOn` names the messages whose current
 * ratings are needed; `ownFeedback` a participant's current feedback of a type on a target (by
 * target key, as `ownFeedback` in state finds it); `scoreConfigs` the configs whose status HUMAN
 * feedback depends on.
 */
export interface Needs {
  threads: string[];
  runs: string[];
  artifacts: string[];
  messages: string[];
  ratingsOn: { thread_id: string; message_id: string }[];
  ownFeedback: { participant: string; feedback_type: string; target: Target }[];
  scoreConfigs: string[];
  /**
   * Judge versions by id: the one recorded (which must not exist yet) and its base, or those a
   * rule or a promotion names.
   */
  judgeVersions: string[];
}

export function needsOf(
  actor: Actor,
  command: Command,
  feedbackTypes: FeedbackTypeRegistry,
): Needs {
  const needs: Needs = {
    threads: [],
    runs: [],
    artifacts: [],
    messages: [],
    ratingsOn: [],
    ownFeedback: [],
    scoreConfigs: [],
    judgeVersions: [],
  };
  const optional = (list: string[], id: string | null | undefined) => {
    if (id) list.push(id);
  };
  switch (command.type) {
    case 'create_thread':
    case 'end_thread':
      needs.threads.push(command.thread_id);
      break;
    case 'start_run':
      needs.threads.push(command.thread_id);
      needs.runs.push(command.run_id);
      break;
    case 'pause_run':
    case 'end_run':
      needs.runs.push(command.run_id);
      break;
    case 'post_message':
      needs.threads.push(command.thread_id);
      optional(needs.runs, command.run_id);
      if (command.message_id)
        needs.messages.push(messageKey(command.thread_id, command.message_id));
      break;
    case 'put_artifact':
      needs.artifacts.push(command.artifact_id);
      optional(needs.runs, command.run_id);
      break;
    case 'archive_artifact':
      needs.artifacts.push(command.artifact_id);
      break;
    case 'give_feedback':
    case 'withdraw_feedback': {
      const { target, feedback_type } = command;
      if (target.kind === 'artifact') needs.artifacts.push(target.artifact_id);
      if (target.kind === 'thread' || target.kind === 'message')
        needs.threads.push(target.thread_id);
      if (target.kind === 'turn') needs.runs.push(target.run_id);
      if (target.kind === 'message') optional(needs.runs, target.run_id);
      if (actor.kind === 'reviewer') {
        // A reviewer's own feedback here is replaced or withdrawn.
        needs.ownFeedback.push({ participant: participantOf(actor), feedback_type, target });
        if (command.type === 'give_feedback') {
          optional(needs.scoreConfigs, feedbackTypes.get(feedback_type)?.configName);
        }
      }
      break;
    }
    case 'rate_message':
    case 'delete_rating': {
      const key = messageKey(command.thread_id, command.message_id);
      needs.threads.push(command.thread_id);
      needs.messages.push(key);
      needs.ratingsOn.push({ thread_id: command.thread_id, message_id: command.message_id });
      break;
    }
    case 'record_judge_version': {
      const { judge, version, tunedFrom } = command.judge_version;
      needs.judgeVersions.push(`${judge}@${version}`, `${judge}@${tunedFrom}`);
      break;
    }
    case 'set_evaluation_rule':
      // A rule replaces the one before it whole; it reads only the version it names, which may
      // be recorded as data rather than declared.
      needs.judgeVersions.push(command.evaluator);
      break;
    case 'promote_evaluator':
      needs.judgeVersions.push(command.evaluator);
      optional(needs.judgeVersions, command.replacing);
      break;
    case 'set_review_queue':
    case 'record_score':
      // A queue replaces the one before it whole, and a trace is no entity: they read nothing.
      break;
  }
  return needs;
}
