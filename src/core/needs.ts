import type { Actor } from './actors.js';
import type { Command } from './commands.js';
import type { FeedbackTypeRegistry } from './feedback-types.js';
import { messageKey } from './state.js';

/**
 * The entities a command reads, by key, so a store loads exactly these before `decide` (the
 * seeds' "ask what it needs, load that, decide"). `ratingsOn` names the messages whose current
 * ratings are needed; `scoreConfigs` the configs whose status HUMAN feedback depends on.
 */
export interface Needs {
  threads: string[];
  runs: string[];
  artifacts: string[];
  messages: string[];
  ratingsOn: { thread_id: string; message_id: string }[];
  scoreConfigs: string[];
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
    scoreConfigs: [],
  };
  const optional = (list: string[], id: string | null | undefined) => {
    if (id) list.push(id);
  };
  switch (command.type) {
    case 'create_thread':
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
    case 'archive_artifact':
      needs.artifacts.push(command.artifact_id);
      break;
    case 'give_feedback': {
      const { target } = command;
      if (target.kind === 'artifact') needs.artifacts.push(target.artifact_id);
      if (target.kind === 'thread' || target.kind === 'message')
        needs.threads.push(target.thread_id);
      if (target.kind === 'turn') needs.runs.push(target.run_id);
      if (target.kind === 'message') optional(needs.runs, target.run_id);
      if (actor.kind === 'reviewer') {
        optional(needs.scoreConfigs, feedbackTypes.get(command.feedback_type)?.configName);
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
  }
  return needs;
}
