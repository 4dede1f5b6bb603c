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
import { refusalResponses, refuse } from '../errors.js';
import { callerOf, execute, type Register } from './context.js';

// What the host reports: threads, runs (start, resume, pause, end), messages, artifact versions.
// An agent key acts as the agent of the thread the command is about.

const id = z.string().min(1);
const reporters = ['system', 'agent'] as const;
const tags = ['lifecycle'];
// When it happened by the reporter's clock (docs/specification.md#reported-times).
const reportedTime = ReportedTime.optional().describe(
  "when it happened, by the reporter's clock; at most 5 minutes ahead of the server's; default: now",
);

// Each route's body and answer, named so that the HTTP client's types are these very schemas.
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

export const registerLifecycle: Register = (api, deps) => {
  /** The actor for a command about a thread; an agent key speaks for that thread's agent. */
  const actorFor = (request: Parameters<typeof callerOf>[0], threadId: string): Actor =>
    actorOf(callerOf(request).principal, threadId);
  const runThread = async (request: Parameters<typeof callerOf>[0], runId: string) => {
    const run = await deps.store.run(callerOf(request).workspaceId, runId);
    if (run === null) throw refuse(notFound('run', runId));
    return run.thread_id;
  };

  /** A command about an existing run, as that run's thread's agent when the key is an agent's. */
  const onRun = async (
    request: Parameters<typeof callerOf>[0],
    runId: string,
    command: Omit<CommandOf<'pause_run'>, 'run_id'> | Omit<CommandOf<'end_run'>, 'run_id'>,
  ) => {
    const actor = actorFor(request, await runThread(request, runId));
    return written((await execute(deps, request, actor, { ...command, run_id: runId })).events);
  };

  api.post('/v1/threads', {
    config: { allow: reporters },
    schema: {
      tags,
      summary: 'Create a thread',
      body: CreateThreadBody,
      response: { 201: CreateThreadReply, ...refusalResponses },
    },
    handler: async (request, reply) => {
      const { threadId, title } = request.body;
      const outcome = await execute(deps, request, actorFor(request, threadId), {
        type: 'create_thread',
        thread_id: threadId,
        title: title ?? null,
      });
      return reply.code(201).send({ threadId, ...written(outcome.events) });
    },
  });

  api.post('/v1/threads/:threadId/end', {
    config: { allow: reporters },
    schema: {
      tags,
      summary: 'End a thread: its thread evaluators judge it now, not once it has gone quiet',
      description: 'A later run or message reopens it; it is judged again as a new generation.',
      params: z.object({ threadId: id }),
      response: { 200: Written, ...refusalResponses },
    },
    handler: async (request) => {
      const { threadId } = request.params;
      const outcome = await execute(deps, request, actorFor(request, threadId), {
        type: 'end_thread',
        thread_id: threadId,
      });
      return written(outcome.events);
    },
  });

  api.post('/v1/threads/:threadId/runs', {
    config: { allow: reporters },
    schema: {
      tags,
      summary: 'Start a run, or resume a paused one (appending its trace id)',
      params: z.object({ threadId: id }),
      body: StartRunBody,
      response: { 201: StartRunReply, ...refusalResponses },
    },
    handler: async (request, reply) => {
      const { threadId } = request.params;
      const outcome = await execute(deps, request, actorFor(request, threadId), {
        type: 'start_run',
        run_id: request.body.runId,
        thread_id: threadId,
        trace_id: request.body.traceId ?? null,
        started_at: request.body.startedAt,
      });
      const event = outcome.events[0]?.event;
      const resumed = event?.type === 'run_started' && event.resumed;
      return reply
        .code(201)
        .send({ runId: request.body.runId, resumed, ...written(outcome.events) });
    },
  });

  api.post('/v1/runs/:runId/pause', {
    config: { allow: reporters },
    schema: {
      tags,
      summary: 'Pause a running run',
      params: z.object({ runId: id }),
      body: PauseRunBody,
      response: { 200: Written, ...refusalResponses },
    },
    handler: async (request) => {
      return onRun(request, request.params.runId, {
        type: 'pause_run',
        reason: request.body?.reason ?? null,
      });
    },
  });

  api.post('/v1/runs/:runId/end', {
    config: { allow: reporters },
    schema: {
      tags,
      summary: 'End a run; its evaluation starts',
      params: z.object({ runId: id }),
      body: EndRunBody,
      response: { 200: Written, ...refusalResponses },
    },
    handler: async (request) => {
      const { status, endedAt } = request.body;
      return onRun(request, request.params.runId, { type: 'end_run', status, ended_at: endedAt });
    },
  });

  api.post('/v1/threads/:threadId/messages', {
    config: { allow: reporters },
    schema: {
      tags,
      summary: 'Post a message (feedback sent along is ignored: sending is not a feedback path)',
      params: z.object({ threadId: id }),
      body: PostMessageBody,
      response: { 201: PostMessageReply, ...refusalResponses },
    },
    handler: async (request, reply) => {
      const { threadId } = request.params;
      const { messageId, role, content, runId, postedAt } = request.body;
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
      return reply.code(201).send({ messageId: posted, ...written(outcome.events) });
    },
  });

  api.put('/v1/artifacts/:artifactId', {
    config: { allow: reporters },
    schema: {
      tags,
      summary: 'Put a new version of an artifact',
      params: z.object({ artifactId: id }),
      body: PutArtifactBody,
      response: { 200: PutArtifactReply, ...refusalResponses },
    },
    handler: async (request) => {
      const { artifactId } = request.params;
      const { kind, data, runId, traceId } = request.body;
      const caller = callerOf(request);
      let threadId: string | undefined;
      if (caller.principal.kind === 'agent') {
        threadId = runId
          ? await runThread(request, runId)
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
  });

  api.post('/v1/artifacts/:artifactId/archive', {
    config: { allow: reporters },
    schema: {
      tags,
      summary: 'Archive an artifact: no new versions',
      params: z.object({ artifactId: id }),
      response: { 200: Written, ...refusalResponses },
    },
    handler: async (request) => {
      const { artifactId } = request.params;
      const caller = callerOf(request);
      const artifact = await deps.store.artifact(caller.workspaceId, artifactId);
      if (artifact === null) {
        throw refuse(notFound('artifact', artifactId));
      }
      const outcome = await execute(
        deps,
        request,
        actorOf(caller.principal, artifact.thread_id ?? undefined),
        { type: 'archive_artifact', artifact_id: artifactId },
      );
      return written(outcome.events);
    },
  });
};
