import { type Actor, participantOf } from './actors.js';
import type { CommandOf } from './commands.js';
import { type DecideContext, type Decision, recorded } from './decision.js';
import { withArticle } from './ids.js';
import { conflict, forbidden, invalidState, notFound, type Rejection } from './rejections.js';
import { beforeRunStart, recordedTime, refusedTime } from './reported-times.js';
import { messageKey, type WorkspaceState } from './state.js';

// Threads, runs, messages and artifacts: the facts the host reports.

const mayRecordFor = (actor: Actor, thread_id: string) =>
  actor.kind === 'system' || (actor.kind === 'agent' && actor.thread_id === thread_id);

const notThreadsAgent = (thread_id: string, what: string): Rejection =>
  forbidden(`only thread ${thread_id}'s agent or the system may record its ${what}`);

export function createThread(state: WorkspaceState, command: CommandOf<'create_thread'>): Decision {
  if (state.threads.has(command.thread_id)) {
    return conflict(`thread ${command.thread_id} exists already`);
  }
  return recorded([{ type: 'thread_created', thread_id: command.thread_id, title: command.title }]);
}

/**
 * The host ends a conversation: its thread evaluators judge it at once. Runs still open stay as
 * they are (their own evaluation waits for their end); a later run or message reopens it.
 */
export function endThread(
  state: WorkspaceState,
  actor: Actor,
  command: CommandOf<'end_thread'>,
): Decision {
  const { thread_id } = command;
  if (!mayRecordFor(actor, thread_id)) {
    return forbidden(`only thread ${thread_id}'s agent or the system may end it`);
  }
  const thread = state.threads.get(thread_id);
  if (thread === undefined) return notFound('thread', thread_id);
  if ((thread.ended_at ?? null) !== null) {
    return invalidState(`thread ${thread_id} has ended already; a new run or message reopens it`);
  }
  return recorded([{ type: 'thread_ended', thread_id }]);
}

/** A resumed run keeps its first start: a resumption's reported time may not precede it. */
export function startRun(
  state: WorkspaceState,
  actor: Actor,
  command: CommandOf<'start_run'>,
  context: DecideContext,
): Decision {
  const { run_id, thread_id, trace_id } = command;
  if (!mayRecordFor(actor, thread_id)) return notThreadsAgent(thread_id, 'runs');
  if (!state.threads.has(thread_id)) return notFound('thread', thread_id);
  const run = state.runs.get(run_id);
  if (run !== undefined) {
    if (run.thread_id !== thread_id) {
      return invalidState(`run ${run_id} belongs to thread ${run.thread_id}`);
    }
    if (run.status !== 'paused') {
      return invalidState(`run ${run_id} is ${run.status} and cannot start again`);
    }
  }
  const of = { field: 'started_at', what: run ? 'the resumption' : 'the start' } as const;
  const started_at = recordedTime(of, command.started_at, context.now);
  if (refusedTime(started_at)) return started_at;
  const early = run && beforeRunStart(of, started_at, run);
  if (early) return early;
  return recorded([
    {
      type: 'run_started',
      run_id,
      thread_id,
      trace_id,
      resumed: run !== undefined,
      ...(started_at === undefined ? {} : { started_at }),
    },
  ]);
}

export function pauseRun(
  state: WorkspaceState,
  actor: Actor,
  command: CommandOf<'pause_run'>,
): Decision {
  const run = state.runs.get(command.run_id);
  if (run === undefined) return notFound('run', command.run_id);
  if (!mayRecordFor(actor, run.thread_id)) return notThreadsAgent(run.thread_id, 'runs');
  if (run.status !== 'running') {
    return invalidState(`run ${run.run_id} is ${run.status}, not running`);
  }
  return recorded([
    { type: 'run_paused', run_id: run.run_id, thread_id: run.thread_id, reason: command.reason },
  ]);
}

export function endRun(
  state: WorkspaceState,
  actor: Actor,
  command: CommandOf<'end_run'>,
  context: DecideContext,
): Decision {
  const run = state.runs.get(command.run_id);
  if (run === undefined) return notFound('run', command.run_id);
  if (!mayRecordFor(actor, run.thread_id)) return notThreadsAgent(run.thread_id, 'runs');
  if (run.status !== 'running' && run.status !== 'paused') {
    return invalidState(`run ${run.run_id} is ${run.status} and has ended already`);
  }
  const of = { field: 'ended_at', what: 'the end' } as const;
  const ended_at = recordedTime(of, command.ended_at, context.now);
  if (refusedTime(ended_at)) return ended_at;
  const early = beforeRunStart(of, ended_at, run);
  if (early) return early;
  return recorded([
    {
      type: 'run_ended',
      run_id: run.run_id,
      thread_id: run.thread_id,
      status: command.status,
      ...(ended_at === undefined ? {} : { ended_at }),
    },
  ]);
}

/**
 * Anyone but an evaluator may post; an assistant message speaks for the thread's agent, so only
 * that agent or the system may post one. A message's run must be one of its thread's, and live
 * (running or paused), and the message no earlier than its start.
 */
export function postMessage(
  state: WorkspaceState,
  actor: Actor,
  command: CommandOf<'post_message'> & { message_id: string },
  context: DecideContext,
): Decision {
  const { thread_id, message_id, run_id, role, content } = command;
  if (role === 'assistant' && !mayRecordFor(actor, thread_id)) {
    return notThreadsAgent(thread_id, 'assistant messages');
  }
  if (!state.threads.has(thread_id)) return notFound('thread', thread_id);
  const of = { field: 'posted_at', what: `message ${message_id}` } as const;
  const posted_at = recordedTime(of, command.posted_at, context.now);
  if (refusedTime(posted_at)) return posted_at;
  if (run_id !== null) {
    const run = state.runs.get(run_id);
    if (run === undefined) return notFound('run', run_id);
    if (run.thread_id !== thread_id)
      return invalidState(`run ${run_id} belongs to thread ${run.thread_id}`);
    // An ended run is evaluated already: a message recorded now would never be judged.
    if (run.status !== 'running' && run.status !== 'paused') {
      return invalidState(
        `run ${run_id} is ${run.status}; a run's messages are posted while it is running or paused`,
      );
    }
    const early = beforeRunStart(of, posted_at, run);
    if (early) return early;
  }
  if (state.messages.has(messageKey(thread_id, message_id))) {
    return conflict(`message ${message_id} exists already in thread ${thread_id}`);
  }
  const at = posted_at === undefined ? {} : { posted_at };
  return recorded([
    { type: 'message_posted', message_id, thread_id, run_id, role, content, ...at },
  ]);
}

/**
 * Artifacts are workspace-scoped but belong to the thread whose agent created them: only that
 * agent or the system records their versions. A new version is the current one + 1. The run
 * that produced it, when named, must be live (running or paused) and of the artifact's thread
 * (or the putting agent's, for an artifact no agent owns yet); the system's own artifacts take a
 * run of any thread.
 */
export function putArtifact(
  state: WorkspaceState,
  actor: Actor,
  command: CommandOf<'put_artifact'>,
): Decision {
  const { artifact_id, kind, data, trace_id, run_id } = command;
  const artifact = state.artifacts.get(artifact_id);
  const refused = mayRecordArtifact(actor, artifact?.thread_id ?? null);
  if (refused) return refused;
  if (artifact?.archived) return invalidState(`artifact ${artifact_id} is archived`);
  if (artifact !== undefined && artifact.kind !== kind) {
    return invalidState(
      `artifact ${artifact_id} is ${withArticle(artifact.kind)}, not ${withArticle(kind)}`,
    );
  }
  const authorThread = actor.kind === 'agent' ? actor.thread_id : null;
  let thread_id = authorThread;
  if (run_id !== null) {
    const run = state.runs.get(run_id);
    if (run === undefined) return notFound('run', run_id);
    const owner = artifact?.thread_id ?? authorThread;
    if (owner !== null && run.thread_id !== owner) {
      return invalidState(`run ${run_id} belongs to thread ${run.thread_id}`);
    }
    if (run.status !== 'running' && run.status !== 'paused') {
      return invalidState(`run ${run_id} is ${run.status}`);
    }
    thread_id = run.thread_id;
  }
  const version = (artifact?.current_version ?? 0) + 1;
  return recorded([
    { type: 'artifact_put', artifact_id, kind, version, data, trace_id, run_id, thread_id },
  ]);
}

export function archiveArtifact(
  state: WorkspaceState,
  actor: Actor,
  command: CommandOf<'archive_artifact'>,
): Decision {
  const artifact = state.artifacts.get(command.artifact_id);
  if (artifact === undefined) return notFound('artifact', command.artifact_id);
  const refused = mayRecordArtifact(actor, artifact.thread_id);
  if (refused) return refused;
  if (artifact.archived)
    return invalidState(`artifact ${artifact.artifact_id} is archived already`);
  return recorded([{ type: 'artifact_archived', artifact_id: artifact.artifact_id }]);
}

function mayRecordArtifact(actor: Actor, owner: string | null): Rejection | null {
  if (owner !== null)
    return mayRecordFor(actor, owner) ? null : notThreadsAgent(owner, 'artifacts');
  if (actor.kind === 'system' || actor.kind === 'agent') return null;
  return forbidden(`only an agent or the system may record artifacts, not ${participantOf(actor)}`);
}
