import { z } from 'zod';
import { ReportedTime, RunEndStatus } from '../../core/index.js';
import { RoleName, Written } from '../../wire/entities.js';
import { defineRoutes } from './contract.js';
import { RunParams, ThreadParams } from './params.js';

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
