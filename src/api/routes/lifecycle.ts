import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  type Actor,
  type CommandOf,
  notFound,
  ReportedTime,
  RunEndStatus,
} from '../../core/index.js';
import { RoleName, roleOf, Written, written } from '../../wire/entities.js';
import { actorOf } from '../../wire/principals.js';
import { defineRoutes } from '../contracts/contract.js';
import { RunParams, ThreadParams } from '../contracts/params.js';
import { refuse } from '../errors.js';
import type { RouteDeps } from '../options.js';
import { bindRoutes } from './bind-routes.js';
import { callerOf, execute } from './context.js';

// What the host reports: threads, runs (start, resume, pause, end), messages, artifact versions.
// An agent key acts as the agent of the thread the command is about.

const id = z.string().min(1);
const allow = ['system', 'agent'] as const;
const tags = ['lifecycle'];
// When it happened by the reporter's clock (docs/specification.md#reported-times).
const reportedTime = ReportedTime.optional().describe(
  "when it happened, by the reporter's clock; at most 5 minutes ahead of the server's; default: now",
);

// The artifact a route is about (a thread's and a run's params are shared: params.ts).
const ArtifactParams = z.object({ artifactId: id });

export const CreateThreadBody = z.strictObject({
  threadId: id,
  title: z.string().nullable().optional(),
});
export const CreateThreadReply = Written.extend({ threadId: z.string() });
export const StartRunBody = z.strictObject({
  runId: id,
  traceId: id.nullable().optional(),
  startedAt: reportedTime,
});
export const StartRunReply = Written.extend({ runId: z.string(), resumed: z.boolean() });
// No body at all is a pause without a reason (Fastify hands the schema null for it).
export const PauseRunBody = z
  .strictObject({ reason: z.string().nullable().optional() })
  .nullable()
  .optional();
export const EndRunBody = z.strictObject({ status: RunEndStatus, endedAt: reportedTime });
export const PostMessageBody = z.strictObject({
  messageId: id.optional(),
  role: RoleName,
  content: z.string(),
  runId: id.nullable().optional(),
  postedAt: reportedTime,
  feedback: z.unknown().optional(),
});
export const PostMessageReply = Written.extend({ messageId: z.string() });
export const PutArtifactBody = z.strictObject({
  kind: id,
  data: z.unknown().describe('any JSON value').optional(),
  runId: id.nullable().optional(),
  traceId: id.nullable().optional(),
});
export const PutArtifactReply = Written.extend({ artifactId: z.string(), version: z.int() });

export const lifecycleRoutes = defineRoutes({
  createThread: {
    method: 'POST',
    path: '/v1/threads',
    allow,
    tags,
    summary: 'Create a thread',
    body: CreateThreadBody,
    answers: { 201: CreateThreadReply },
  },
  endThread: {
    method: 'POST',
    path: '/v1/threads/:threadId/end',
    allow,
    tags,
    summary: 'End a thread: its thread evaluators judge it now, not once it has gone quiet',
    description: 'A later run or message reopens it; it is judged again as a new generation.',
    params: ThreadParams,
    answers: { 200: Written },
  },
  startRun: {
    method: 'POST',
    path: '/v1/threads/:threadId/runs',
    allow,
    tags,
    summary: 'Start a run, or resume a paused one (appending its trace id)',
    params: ThreadParams,
    body: StartRunBody,
    answers: { 201: StartRunReply },
  },
  pauseRun: {
    method: 'POST',
    path: '/v1/runs/:runId/pause',
    allow,
    tags,
    summary: 'Pause a running run',
    params: RunParams,
    body: PauseRunBody,
    answers: { 200: Written },
  },
  endRun: {
    method: 'POST',
    path: '/v1/runs/:runId/end',
    allow,
    tags,
    summary: 'End a run; its evaluation starts',
    params: RunParams,
    body: EndRunBody,
    answers: { 200: Written },
  },
  postMessage: {
    method: 'POST',
    path: '/v1/threads/:threadId/messages',
    allow,
    tags,
    summary: 'Post a message (feedback sent along is ignored: sending is not a feedback path)',
    params: ThreadParams,
    body: PostMessageBody,
    answers: { 201: PostMessageReply },
  },
  putArtifact: {
    method: 'PUT',
    path: '/v1/artifacts/:artifactId',
    allow,
    tags,
    summary: 'Put a new version of an artifact',
    params: ArtifactParams,
    body: PutArtifactBody,
    answers: { 200: PutArtifactReply },
  },
  archiveArtifact: {
    method: 'POST',
    path: '/v1/artifacts/:artifactId/archive',
    allow,
    tags,
    summary: 'Archive an artifact: no new versions',
    params: ArtifactParams,
    answers: { 200: Written },
  },
});

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
