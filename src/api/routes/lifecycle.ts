import type { FastifyRequest } from 'fastify';
import { type Actor, type CommandOf, notFound } from '../../core/index.js';
import { roleOf, written } from '../../wire/entities.js';
import { actorOf } from '../../wire/principals.js';
import { lifecycleRoutes } from '../contracts/lifecycle.js';
import { refuse } from '../errors.js';
import type { RouteDeps } from '../options.js';
import { bindRoutes } from './bind-routes.js';
import { callerOf, execute } from './context.js';

// The lifecycle routes' handlers (their contracts: contracts/lifecycle.ts). An agent key acts as
// the agent of the thread the command is about.

/** The actor for a command about a thread; an agent key speaks for that thread's agent. */
const actorFor = (request: FastifyRequest, threadId: string): Actor =>
  actorOf(callerOf(request).principal, threadId);

async function runThread(deps: RouteDeps, request: FastifyRequest, runId: string) {
  const run = await deps.store.run(callerOf(request).workspaceId, runId);
  if (run === null) throw refuse(notFound('run', runId));
  return run.thread_id;
}

/** A command about an existing run, as that run's thread's agent when the key is an agent's. */
async function onRun(
  deps: RouteDeps,
  request: FastifyRequest,
  runId: string,
  command: Omit<CommandOf<'pause_run'>, 'run_id'> | Omit<CommandOf<'end_run'>, 'run_id'>,
) {
  const actor = actorFor(request, await runThread(deps, request, runId));
  return written((await execute(deps, request, actor, { ...command, run_id: runId })).events);
}

export const registerLifecycle = bindRoutes(lifecycleRoutes, {
  createThread: async ({ body: { threadId, title }, request, deps }) => {
    const outcome = await execute(deps, request, actorFor(request, threadId), {
      type: 'create_thread',
      thread_id: threadId,
      title: title ?? null,
    });
    return { threadId, ...written(outcome.events) };
  },

  endThread: async ({ params: { threadId }, request, deps }) => {
    const outcome = await execute(deps, request, actorFor(request, threadId), {
      type: 'end_thread',
      thread_id: threadId,
    });
    return written(outcome.events);
  },

  startRun: async ({ params: { threadId }, body, request, deps }) => {
    const outcome = await execute(deps, request, actorFor(request, threadId), {
      type: 'start_run',
      run_id: body.runId,
      thread_id: threadId,
      trace_id: body.traceId ?? null,
      started_at: body.startedAt,
    });
    const event = outcome.events[0]?.event;
    const resumed = event?.type === 'run_started' && event.resumed;
    return { runId: body.runId, resumed, ...written(outcome.events) };
  },

  pauseRun: async ({ params, body, request, deps }) =>
    onRun(deps, request, params.runId, { type: 'pause_run', reason: body?.reason ?? null }),

  endRun: async ({ params, body: { status, endedAt }, request, deps }) =>
    onRun(deps, request, params.runId, { type: 'end_run', status, ended_at: endedAt }),

  postMessage: async ({ params: { threadId }, body, request, deps }) => {
    const { messageId, role, content, runId, postedAt } = body;
    const outcome = await execute(deps, request, actorFor(request, threadId), {
      type: 'post_message',
      thread_id: threadId,
      ...(messageId ? { message_id: messageId } : {}),
      role: roleOf(role),
      content,
      run_id: runId ?? null,
      posted_at: postedAt,
    });
    const event = outcome.events[0]?.event;
    const posted = event?.type === 'message_posted' ? event.message_id : (messageId ?? '');
    return { messageId: posted, ...written(outcome.events) };
  },

  putArtifact: async ({ params: { artifactId }, body, request, deps }) => {
    const { kind, data, runId, traceId } = body;
    const caller = callerOf(request);
    let threadId: string | undefined;
    if (caller.principal.kind === 'agent') {
      threadId = runId
        ? await runThread(deps, request, runId)
        : ((await deps.store.artifact(caller.workspaceId, artifactId))?.thread_id ?? undefined);
      if (threadId === undefined) {
        throw refuse({
          type: 'validation_failed',
          message: 'an agent names the run that produced a new artifact (runId)',
          errors: [],
        });
      }
    }
    const outcome = await execute(deps, request, actorOf(caller.principal, threadId), {
      type: 'put_artifact',
      artifact_id: artifactId,
      kind,
      data: data ?? null,
      run_id: runId ?? null,
      trace_id: traceId ?? null,
    });
    const event = outcome.events[0]?.event;
    const version = event?.type === 'artifact_put' ? event.version : 0;
    return { artifactId, version, ...written(outcome.events) };
  },

  archiveArtifact: async ({ params: { artifactId }, request, deps }) => {
    const caller = callerOf(request);
    const artifact = await deps.store.artifact(caller.workspaceId, artifactId);
    if (artifact === null) throw refuse(notFound('artifact', artifactId));
    const outcome = await execute(
      deps,
      request,
      actorOf(caller.principal, artifact.thread_id ?? undefined),
      { type: 'archive_artifact', artifact_id: artifactId },
    );
    return written(outcome.events);
  },
});
