import { type Actor, participantOf } from './actors.js';
import type { CommandOf } from './commands.js';
import { checkFeedback, checkSource } from './decide-feedback.js';
import { type DecideContext, type Decision, type RatingEntry, recorded } from './decision.js';
import { withArticle } from './ids.js';
import { forbidden, invalidState, notFound } from './rejections.js';
import {
  type FeedbackRecord,
  type Message,
  messageKey,
  ratingsOn,
  type WorkspaceState,
} from './state.js';

// Message ratings (docs/specification.md#message-ratings): a user's own rating of an assistant
// message, one per feedback type, created or replaced by rate_message and removed by delete_rating.

const entryOf = (record: FeedbackRecord): RatingEntry => ({
  rater: record.participant,
  feedback_type: record.feedback_type,
  value: record.value,
});

function ratedMessage(message: Message, feedback: RatingEntry[]) {
  const { message_id, thread_id, run_id } = message;
  return { message_id, thread_id, run_id, feedback };
}

function findMessage(state: WorkspaceState, thread_id: string, message_id: string) {
  if (!state.threads.has(thread_id)) return notFound('thread', thread_id);
  return state.messages.get(messageKey(thread_id, message_id)) ?? notFound('message', message_id);
}

export function rateMessage(
  state: WorkspaceState,
  actor: Actor,
  command: CommandOf<'rate_message'>,
  context: DecideContext,
): Decision {
  if (actor.kind !== 'user') return forbidden('only a user can rate a message');
  const feedback = checkFeedback(context, command.feedback_type, 'message', command.value);
  if (!feedback.ok) return feedback.rejection;
  const message = findMessage(state, command.thread_id, command.message_id);
  if ('type' in message) return message;
  if (message.role !== 'assistant') {
    return invalidState(
      `message ${message.message_id} is ${withArticle(message.role)} message; only assistant messages can be rated`,
    );
  }
  const source = checkSource(context, actor, feedback.value.type, 'USER');
  if (!source.ok) return source.rejection;

  const rater = participantOf(actor);
  const { type, value } = feedback.value;
  const ratings = ratingsOn(state, message.thread_id, message.message_id);
  const previous = ratings.find((r) => r.participant === rater && r.feedback_type === type.name);
  const after = ratings.map(entryOf);
  const mine = { rater, feedback_type: type.name, value };
  if (previous) after[ratings.indexOf(previous)] = mine;
  else after.push(mine);
  return recorded(
    [
      {
        type: 'feedback_given',
        feedback_type: type.name,
        target: {
          kind: 'message',
          message_id: message.message_id,
          thread_id: message.thread_id,
          run_id: message.run_id,
        },
        value,
        thread_id: message.thread_id,
        run_id: message.run_id,
        source: source.value,
        replaces: previous ? { id: previous.id, ts: previous.ts } : null,
      },
    ],
    { is_update: previous !== undefined, rated_message: ratedMessage(message, after) },
  );
}

/** Removes only the caller's entry; an absent rating is a success that records nothing. */
export function deleteRating(
  state: WorkspaceState,
  actor: Actor,
  command: CommandOf<'delete_rating'>,
): Decision {
  if (actor.kind !== 'user') return forbidden('only a user can rate a message');
  const message = findMessage(state, command.thread_id, command.message_id);
  if ('type' in message) return message;
  const rater = participantOf(actor);
  const ratings = ratingsOn(state, message.thread_id, message.message_id);
  const mine = ratings.find(
    (r) => r.participant === rater && r.feedback_type === command.feedback_type,
  );
  const after = ratings.filter((r) => r !== mine).map(entryOf);
  if (mine === undefined) {
    return recorded([], { removed: false, rated_message: ratedMessage(message, after) });
  }
  return recorded(
    [
      {
        type: 'rating_deleted',
        feedback_type: mine.feedback_type,
        message_id: message.message_id,
        thread_id: message.thread_id,
        run_id: message.run_id,
        rating: { id: mine.id, ts: mine.ts },
      },
    ],
    { removed: true, rated_message: ratedMessage(message, after) },
  );
}
