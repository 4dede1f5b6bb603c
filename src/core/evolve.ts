import { participantOf } from './actors.js';
import type { Envelope, Event } from './events.js';
import { judgeVersionId } from './judge-versions.js';
import { targetKey } from './keys.js';
import { rulesSetBy } from './rule-events.js';
import {
  artifactVersionKey,
  emptyState,
  messageKey,
  type ViewName,
  type ViewValue,
  type WorkspaceState,
} from './state.js';

// How each event changes the views. The store persists these changes in the transaction that
// appends the event; a replay applies them to an empty state. One function serves both, so a
// view can only differ from a replay of the log if the store loses or mangles a change.

/** An entity written (or, with `value: null`, removed) under its key. */
export type ViewChange = {
  [V in ViewName]: { view: V; key: string; value: ViewValue<V> | null };
}[ViewName];

/** An envelope of the events of these types. */
type Of<T extends Event['type']> = Envelope<Extract<Event, { type: T }>>;

const put = <V extends ViewName>(view: V, key: string, value: ViewValue<V>) =>
  ({ view, key, value }) as ViewChange;

/** The changes one envelope makes, given the state before it (which must hold what it touches). */
export function changesOf(state: WorkspaceState, envelope: Envelope): ViewChange[] {
  const { event, ts, seq, actor } = envelope;
  switch (event.type) {
    case 'thread_created':
      return [
        put('threads', event.thread_id, {
          thread_id: event.thread_id,
          title: event.title,
          created_at: ts,
        }),
      ];
    case 'thread_ended': {
      const thread = state.threads.get(event.thread_id);
      return thread ? [put('threads', thread.thread_id, { ...thread, ended_at: ts })] : [];
    }
    case 'run_started':
      return runStarted(state, envelope as Of<'run_started'>);
    case 'run_paused':
    case 'run_ended':
      return runStopped(state, envelope as Of<'run_paused' | 'run_ended'>);
    case 'message_posted':
      return messagePosted(state, envelope as Of<'message_posted'>);
    case 'artifact_put':
      return artifactPut(state, envelope as Of<'artifact_put'>);
    case 'artifact_archived': {
      const artifact = state.artifacts.get(event.artifact_id);
      return artifact
        ? [put('artifacts', artifact.artifact_id, { ...artifact, archived: true })]
        : [];
    }
    case 'feedback_given':
      return feedbackGiven(state, envelope as Of<'feedback_given'>);
    case 'rating_deleted':
      return [{ view: 'feedback', key: event.rating.id, value: null }];
    case 'feedback_withdrawn':
      return [{ view: 'feedback', key: event.identity.id, value: null }];
    case 'score_recorded':
      // A direct score is the log's and the sink's; no view keeps it.
      return [];
    case 'evaluation_rule_set':
    case 'evaluator_promoted':
      return rulesSetBy(event).map((rule) =>
        put('rules', rule.evaluator, { ...rule, set_by: participantOf(actor), set_at: ts, seq }),
      );
    case 'judge_version_recorded': {
      const version = event.judge_version;
      return [
        put('judgeVersions', judgeVersionId(version), {
          ...version,
          recordedBy: actor,
          recordedAt: ts,
          seq,
          ...(event.targets === undefined ? {} : { targets: event.targets }),
        }),
      ];
    }
    case 'review_queue_set': {
      const { type: _type, ...queue } = event;
      return [
        put('reviewQueues', queue.queue_id, {
          ...queue,
          set_by: participantOf(actor),
          set_at: ts,
          seq,
        }),
      ];
    }
  }
}

/** A run starts, or resumes: it keeps its first start, and reopens its thread. */
function runStarted(state: WorkspaceState, envelope: Of<'run_started'>): ViewChange[] {
  const { event, ts } = envelope;
  const run = state.runs.get(event.run_id);
  const trace_ids = [
    ...(run?.trace_ids ?? []),
    ...(event.trace_id === null ? [] : [event.trace_id]),
  ];
  return [
    put('runs', event.run_id, {
      run_id: event.run_id,
      thread_id: event.thread_id,
      status: 'running',
      trace_ids,
      pause_reason: null,
      // A resumed run keeps its first start.
      started_at: run?.started_at ?? event.started_at ?? ts,
      updated_at: event.started_at ?? ts,
    }),
    ...reopened(state, event.thread_id),
  ];
}

/** A run pauses (with its reason) or ends (with its status). */
function runStopped(state: WorkspaceState, envelope: Of<'run_paused' | 'run_ended'>): ViewChange[] {
  const { event, ts } = envelope;
  const run = state.runs.get(event.run_id);
  if (run === undefined) return [];
  const paused = event.type === 'run_paused';
  return [
    put('runs', run.run_id, {
      ...run,
      status: paused ? 'paused' : event.status,
      pause_reason: paused ? event.reason : null,
      // An ended run's updated_at is when it ended (lists and backfills select by it).
      updated_at: (event.type === 'run_ended' ? event.ended_at : undefined) ?? ts,
    }),
  ];
}

/** A message is kept as posted, and reopens its thread. */
function messagePosted(state: WorkspaceState, envelope: Of<'message_posted'>): ViewChange[] {
  const { event, ts, seq, actor } = envelope;
  const { message_id, thread_id, run_id, role, content } = event;
  return [
    put('messages', messageKey(thread_id, message_id), {
      message_id,
      thread_id,
      run_id,
      role,
      content,
      author: participantOf(actor),
      seq,
      posted_at: event.posted_at ?? ts,
    }),
    ...reopened(state, thread_id),
  ];
}

/** An artifact's new version, and the artifact pointing at it. */
function artifactPut(state: WorkspaceState, envelope: Of<'artifact_put'>): ViewChange[] {
  const { event, ts, seq, actor } = envelope;
  const artifact = state.artifacts.get(event.artifact_id);
  // The artifact belongs to the thread whose agent created it (a run does not change that).
  const authorThread = actor.kind === 'agent' ? actor.thread_id : null;
  return [
    put('artifacts', event.artifact_id, {
      artifact_id: event.artifact_id,
      kind: event.kind,
      current_version: event.version,
      archived: artifact?.archived ?? false,
      thread_id: artifact === undefined ? authorThread : artifact.thread_id,
    }),
    put('artifactVersions', artifactVersionKey(event.artifact_id, event.version), {
      artifact_id: event.artifact_id,
      version: event.version,
      kind: event.kind,
      data: event.data,
      trace_id: event.trace_id,
      run_id: event.run_id,
      author: participantOf(actor),
      thread_id: event.thread_id,
      created_at: ts,
      seq,
    }),
  ];
}

/** Feedback under its identity: a replacement keeps the replaced one's id, seq and time. */
function feedbackGiven(state: WorkspaceState, envelope: Of<'feedback_given'>): ViewChange[] {
  const { event, ts, seq, actor } = envelope;
  const replaced = event.replaces ? state.feedback.get(event.replaces.id) : undefined;
  const identity = replaced ?? { id: envelope.id, seq, ts };
  return [
    put('feedback', identity.id, {
      id: identity.id,
      seq: identity.seq,
      ts: identity.ts,
      feedback_type: event.feedback_type,
      target: event.target,
      target_key: targetKey(event.target),
      value: event.value,
      thread_id: event.thread_id,
      run_id: event.run_id,
      source: event.source,
      source_label: event.source_label ?? null,
      participant: participantOf(actor),
      actor,
      // Users replace only their ratings; a reviewer's replaceable feedback is no rating.
      rating: actor.kind === 'user' && event.replaces !== undefined,
      ...(event.shadow === true ? { shadow: true as const } : {}),
      updated_seq: seq,
      updated_at: ts,
    }),
  ];
}

/** A new run or message reopens a thread its host ended (docs/specification.md#threads). */
function reopened(state: WorkspaceState, thread_id: string): ViewChange[] {
  const thread = state.threads.get(thread_id);
  if (thread === undefined || (thread.ended_at ?? null) === null) return [];
  return [put('threads', thread_id, { ...thread, ended_at: null })];
}

export function applyChanges(
  state: WorkspaceState,
  changes: readonly ViewChange[],
): WorkspaceState {
  for (const change of changes) {
    const view = state[change.view] as Map<string, unknown>;
    if (change.value === null) view.delete(change.key);
    else view.set(change.key, change.value);
  }
  return state;
}

export function evolve(state: WorkspaceState, envelope: Envelope): WorkspaceState {
  return applyChanges(state, changesOf(state, envelope));
}

/** Every view, rebuilt from the log alone. */
export function replay(envelopes: Iterable<Envelope>, state = emptyState()): WorkspaceState {
  for (const envelope of envelopes) evolve(state, envelope);
  return state;
}
