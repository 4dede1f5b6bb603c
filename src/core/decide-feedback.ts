import { type Actor, participantOf } from './actors.js';
import type { CommandOf } from './commands.js';
import { type DecideContext, type Decision, recorded } from './decision.js';
import type { FeedbackGiven } from './events.js';
import type { FeedbackType } from './feedback-types.js';
import { withArticle } from './ids.js';
import {
  forbidden,
  invalidState,
  issuesOf,
  notFound,
  type Rejection,
  validationFailed,
} from './rejections.js';
import { type ScoreSource, sourcesFor } from './sources.js';
import { ownFeedback, type WorkspaceState } from './state.js';
import type { Target, TargetKind } from './targets.js';

// give_feedback, in the order of checks of docs/specification.md#giving-feedback: type, target
// kind, value, then the target's existence, which also yields the event's scope. Source rules
// come last. A reviewer's feedback is their own to revise and withdraw
// (docs/specification.md#reviews): giving it again replaces it in place, as a user's rating is,
// and withdraw_feedback removes it.

type Checked<T> = { ok: true; value: T } | { ok: false; rejection: Rejection };
const fail = (rejection: Rejection) => ({ ok: false, rejection }) as const;

/** The type, and that it declares the target kind. */
function checkType(
  context: DecideContext,
  feedback_type: string,
  kind: TargetKind,
): Checked<FeedbackType> {
  const type = context.feedbackTypes.get(feedback_type);
  if (type === undefined) return fail(notFound('feedback type', feedback_type));
  if (!type.targets.includes(kind)) {
    return fail(
      validationFailed(
        `${type.name} feedback is given on ${type.targets.join(', ')}, not on ${withArticle(kind)}`,
      ),
    );
  }
  return { ok: true, value: type };
}

/** The type, the target kind it declares and the value, shared with message ratings. */
export function checkFeedback(
  context: DecideContext,
  feedback_type: string,
  kind: TargetKind,
  value: unknown,
): Checked<{ type: FeedbackType; value: Record<string, unknown> }> {
  const checked = checkType(context, feedback_type, kind);
  if (!checked.ok) return checked;
  const type = checked.value;
  const parsed = type.schema.safeParse(value);
  if (!parsed.success) {
    return fail(validationFailed(`invalid ${type.name} feedback`, issuesOf(parsed.error)));
  }
  // As JSON: what is stored is what any reader of the log gets back.
  return { ok: true, value: { type, value: JSON.parse(JSON.stringify(parsed.data)) } };
}

type Scope = { thread_id: string | null; run_id: string | null };

export function scopeOfTarget(state: WorkspaceState, target: Target): Checked<Scope> {
  switch (target.kind) {
    case 'artifact': {
      const artifact = state.artifacts.get(target.artifact_id);
      if (artifact === undefined) return fail(notFound('artifact', target.artifact_id));
      if (target.version > artifact.current_version) {
        return fail(notFound('artifact version', `${target.artifact_id} v${target.version}`));
      }
      return { ok: true, value: { thread_id: null, run_id: null } };
    }
    case 'thread':
      if (!state.threads.has(target.thread_id)) return fail(notFound('thread', target.thread_id));
      return { ok: true, value: { thread_id: target.thread_id, run_id: null } };
    case 'turn': {
      const run = state.runs.get(target.run_id);
      if (run === undefined) return fail(notFound('run', target.run_id));
      return { ok: true, value: { thread_id: run.thread_id, run_id: run.run_id } };
    }
    case 'message': {
      if (!state.threads.has(target.thread_id)) return fail(notFound('thread', target.thread_id));
      if (target.run_id !== null) {
        const run = state.runs.get(target.run_id);
        if (run === undefined) return fail(notFound('run', target.run_id));
        if (run.thread_id !== target.thread_id) {
          return fail(invalidState(`run ${run.run_id} belongs to thread ${run.thread_id}`));
        }
      }
      return { ok: true, value: { thread_id: target.thread_id, run_id: target.run_id } };
    }
  }
}

/**
 * Who may record which source: the actor's kind allows some, the type may be for one, and HUMAN
 * feedback needs the type's score config to exist and not be archived (the provider refuses a
 * reviewer's score without one).
 */
export function checkSource(
  context: DecideContext,
  actor: Actor,
  type: FeedbackType,
  declared: ScoreSource | undefined,
): Checked<ScoreSource> {
  const allowed = sourcesFor(actor);
  const source =
    declared ?? (type.source && allowed.includes(type.source) ? type.source : allowed[0]);
  if (source === undefined || !allowed.includes(source)) {
    const article = /^[aeio]/.test(actor.kind) ? 'an' : 'a';
    return fail(
      forbidden(`${article} ${actor.kind} gives ${allowed.join(' or ')} feedback, not ${declared}`),
    );
  }
  if (type.source !== null && type.source !== source) {
    return fail(forbidden(`${type.name} feedback comes from ${type.source}, not ${source}`));
  }
  if (source === 'HUMAN') {
    if (type.configName === null) {
      return fail(
        forbidden(`${type.name} feedback names no score config, so reviewers cannot give it`),
      );
    }
    const config = context.scoreConfigs?.get(type.configName);
    if (config === undefined) return fail(notFound('score config', type.configName));
    if (config.archived) return fail(invalidState(`score config ${type.configName} is archived`));
  }
  return { ok: true, value: source };
}

export function giveFeedback(
  state: WorkspaceState,
  actor: Actor,
  command: CommandOf<'give_feedback'>,
  context: DecideContext,
): Decision {
  const feedback = checkFeedback(
    context,
    command.feedback_type,
    command.target.kind,
    command.value,
  );
  if (!feedback.ok) return feedback.rejection;
  const scope = scopeOfTarget(state, command.target);
  if (!scope.ok) return scope.rejection;
  const source = checkSource(context, actor, feedback.value.type, command.source);
  if (!source.ok) return source.rejection;
  const event: FeedbackGiven = {
    type: 'feedback_given',
    feedback_type: feedback.value.type.name,
    target: command.target,
    value: feedback.value.value,
    ...scope.value,
    source: source.value,
    ...(command.source_label === undefined ? {} : { source_label: command.source_label }),
  };
  if (actor.kind !== 'reviewer') return recorded([event]);
  const previous = ownFeedback(state, participantOf(actor), event.feedback_type, command.target);
  return recorded(
    [{ ...event, replaces: previous ? { id: previous.id, ts: previous.ts } : null }],
    { is_update: previous !== undefined },
  );
}

/**
 * A reviewer withdraws their own feedback of a type on a target; other reviewers' stay. An
 * absent one is a success that records nothing. The type, target kind and target are checked
 * as for give_feedback (there is no value to check).
 */
export function withdrawFeedback(
  state: WorkspaceState,
  actor: Actor,
  command: CommandOf<'withdraw_feedback'>,
  context: DecideContext,
): Decision {
  if (actor.kind !== 'reviewer') return forbidden('only a reviewer can withdraw feedback');
  const type = checkType(context, command.feedback_type, command.target.kind);
  if (!type.ok) return type.rejection;
  const scope = scopeOfTarget(state, command.target);
  if (!scope.ok) return scope.rejection;
  const mine = ownFeedback(state, participantOf(actor), type.value.name, command.target);
  if (mine === undefined) return recorded([], { removed: false });
  return recorded(
    [
      {
        type: 'feedback_withdrawn',
        feedback_type: mine.feedback_type,
        target: mine.target,
        thread_id: mine.thread_id,
        run_id: mine.run_id,
        identity: { id: mine.id, ts: mine.ts },
      },
    ],
    { removed: true },
  );
}
