import { z } from 'zod';
import {
  DEFAULT_IDLE_FOR,
  type Envelope,
  EvaluatedKindSchema,
  type EvaluationRule,
  type FeedbackRecord,
  type Message,
  MessageRole,
  modeOf,
  type RatedMessage,
  RuleModeSchema,
  type Run,
  RunStatus,
  type RunStep,
  type RunSteps,
  ScoreSource,
  type Target,
  type Thread,
} from '../core/index.js';

// The HTTP API's JSON, docs/specification.md#wire-names: camelCase and enum names (ROLE_ASSISTANT,
// SCORE_SOURCE_HUMAN), each mapped to and from the core's wire words here, once. Events keep the
// core's snake_case envelope (the shape shared with the Python libraries).

const id = z.string().min(1);

/** `ROLE_USER`, `ROLE_ASSISTANT`, ...: roles over HTTP (docs/specification.md#wire-names). */
export const roleName = (role: MessageRole) =>
  `ROLE_${role.toUpperCase() as Uppercase<MessageRole>}` as const;
export type RoleName = ReturnType<typeof roleName>;
export const RoleName = z.enum(MessageRole.options.map(roleName) as [RoleName, ...RoleName[]]);
export const roleOf = (name: string): MessageRole =>
  name.slice('ROLE_'.length).toLowerCase() as MessageRole;

/** `SCORE_SOURCE_USER`, ...: the core's sources over HTTP (docs/specification.md#wire-names). */
export const sourceName = (source: ScoreSource) => `SCORE_SOURCE_${source}` as const;
export type SourceName = ReturnType<typeof sourceName>;
export const SourceName = z.enum(
  ScoreSource.options.map(sourceName) as [SourceName, ...SourceName[]],
);
export const sourceOf = (name: string): ScoreSource =>
  name.slice('SCORE_SOURCE_'.length) as ScoreSource;

export const WireTarget = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('turn'), runId: id }),
  z.strictObject({
    kind: z.literal('message'),
    messageId: id,
    threadId: id,
    runId: id.nullable().optional(),
  }),
  z.strictObject({ kind: z.literal('artifact'), artifactId: id, version: z.int().min(1) }),
  z.strictObject({ kind: z.literal('thread'), threadId: id }),
]);
export type WireTarget = z.output<typeof WireTarget>;

export function targetOf(wire: WireTarget): Target {
  switch (wire.kind) {
    case 'turn':
      return { kind: 'turn', run_id: wire.runId };
    case 'message':
      return {
        kind: 'message',
        message_id: wire.messageId,
        thread_id: wire.threadId,
        run_id: wire.runId ?? null,
      };
    case 'artifact':
      return { kind: 'artifact', artifact_id: wire.artifactId, version: wire.version };
    case 'thread':
      return { kind: 'thread', thread_id: wire.threadId };
  }
}

export function wireTarget(target: Target): WireTarget {
  switch (target.kind) {
    case 'turn':
      return { kind: 'turn', runId: target.run_id };
    case 'message':
      return {
        kind: 'message',
        messageId: target.message_id,
        threadId: target.thread_id,
        runId: target.run_id,
      };
    case 'artifact':
      return { kind: 'artifact', artifactId: target.artifact_id, version: target.version };
    case 'thread':
      return { kind: 'thread', threadId: target.thread_id };
  }
}

/** What a write recorded: the seq of its last event (null when it recorded none) and their ids. */
export const Written = z.object({ seq: z.int().nullable(), eventIds: z.array(z.string()) });
export const written = (events: readonly Envelope[]) => ({
  seq: events.at(-1)?.seq ?? null,
  eventIds: events.map((e) => e.id),
});

export const FeedbackEntry = z.object({
  rater: z.string(),
  feedbackType: z.string(),
  value: z.record(z.string(), z.unknown()),
});
export const WireRatedMessage = z.object({
  messageId: z.string(),
  threadId: z.string(),
  runId: z.string().nullable(),
  feedback: z.array(FeedbackEntry),
});
export const wireRatedMessage = (rated: RatedMessage) => ({
  messageId: rated.message_id,
  threadId: rated.thread_id,
  runId: rated.run_id,
  feedback: rated.feedback.map((entry) => ({
    rater: entry.rater,
    feedbackType: entry.feedback_type,
    value: entry.value,
  })),
});

export const WireFeedback = z.object({
  id: z.string(),
  feedbackType: z.string(),
  target: WireTarget,
  value: z.record(z.string(), z.unknown()),
  source: SourceName,
  sourceLabel: z.string().nullable(),
  rater: z.string(),
  updatedAt: z.string(),
  /** Present, true, on a shadow version's verdict: not its feedback type's current verdict. */
  shadow: z.literal(true).optional(),
});
export const wireFeedback = (record: FeedbackRecord) => ({
  id: record.id,
  feedbackType: record.feedback_type,
  target: wireTarget(record.target),
  value: record.value,
  source: sourceName(record.source),
  sourceLabel: record.source_label,
  rater: record.participant,
  updatedAt: record.updated_at,
  ...(record.shadow === true ? { shadow: true as const } : {}),
});

export const WireMessage = z.object({
  messageId: z.string(),
  threadId: z.string(),
  runId: z.string().nullable(),
  role: RoleName,
  content: z.string(),
  author: z.string(),
  seq: z.int(),
  postedAt: z.string(),
  /** An assistant message's current feedback, every rater's. */
  feedback: z.array(WireFeedback).optional(),
});
export const wireMessage = (message: Message, feedback?: readonly FeedbackRecord[]) => ({
  messageId: message.message_id,
  threadId: message.thread_id,
  runId: message.run_id,
  role: roleName(message.role),
  content: message.content,
  author: message.author,
  seq: message.seq,
  postedAt: message.posted_at,
  ...(feedback ? { feedback: feedback.map(wireFeedback) } : {}),
});

export const WireThread = z.object({
  threadId: z.string(),
  title: z.string().nullable(),
  createdAt: z.string(),
  /** When its host ended it; null while open (a new run or message reopens an ended thread). */
  endedAt: z.string().nullable(),
});
export const wireThread = (thread: Thread) => ({
  threadId: thread.thread_id,
  title: thread.title,
  createdAt: thread.created_at,
  endedAt: thread.ended_at ?? null,
});

export const WireRun = z.object({
  runId: z.string(),
  threadId: z.string(),
  status: RunStatus,
  traceIds: z.array(z.string()),
  pauseReason: z.string().nullable(),
  startedAt: z.string(),
  updatedAt: z.string(),
});
export const wireRun = (run: Run) => ({
  runId: run.run_id,
  threadId: run.thread_id,
  status: run.status,
  traceIds: run.trace_ids,
  pauseReason: run.pause_reason,
  startedAt: run.started_at,
  updatedAt: run.updated_at,
});

/** A model or tool call inside a run, read from the agent's spans (docs/traces.md#steps). */
export const WireStep = z.object({
  kind: z.enum(['model', 'tool']),
  spanId: z.string(),
  name: z.string(),
  operation: z.string(),
  model: z.string().nullable(),
  provider: z.string().nullable(),
  inputTokens: z.int().nullable(),
  outputTokens: z.int().nullable(),
  startedAt: z.string(),
  endedAt: z.string(),
  status: z.enum(['ok', 'error']),
  error: z.string().nullable(),
  toolName: z.string().nullable(),
  callId: z.string().nullable(),
  arguments: z.string().nullable(),
  result: z.string().nullable(),
});
export const wireStep = (step: RunStep): z.output<typeof WireStep> => ({
  kind: step.kind,
  spanId: step.span_id,
  name: step.name,
  operation: step.operation,
  model: step.model,
  provider: step.provider,
  inputTokens: step.input_tokens,
  outputTokens: step.output_tokens,
  startedAt: step.started_at,
  endedAt: step.ended_at,
  status: step.status,
  error: step.error,
  toolName: step.tool_name,
  callId: step.call_id,
  arguments: step.arguments,
  result: step.result,
});
/** A run's steps on the wire, with how many past the limit are not listed. */
export const WireSteps = {
  steps: z.array(WireStep),
  stepsOmitted: z.int().describe('steps past the per-run limit, counted and not listed'),
};
export const wireSteps = ({ steps, omitted }: RunSteps) => ({
  steps: steps.map(wireStep),
  stepsOmitted: omitted,
});

export const WireRule = z.object({
  evaluator: z.string(),
  targets: z.array(EvaluatedKindSchema),
  sampleRate: z.number(),
  filter: z.object({
    workspaces: z.array(z.string()).optional(),
    artifactKinds: z.array(z.string()).optional(),
  }),
  enabled: z.boolean(),
  /** `live`, or `shadow`: judging beside the live versions, never the current verdict. */
  mode: RuleModeSchema,
  /** How long a thread is quiet before this rule's evaluator judges it; null without threads. */
  idleFor: z.string().nullable(),
  /** Where it comes from: the app's config file, or this workspace's own rule. */
  origin: z.enum(['config', 'workspace']),
  setBy: z.string().nullable(),
  setAt: z.string().nullable(),
});
export const wireRule = (
  rule: EvaluationRule & { set_by?: string; set_at?: string },
  origin: 'config' | 'workspace',
) => ({
  evaluator: rule.evaluator,
  targets: rule.targets,
  sampleRate: rule.sample_rate,
  filter: {
    ...(rule.filter.workspaces ? { workspaces: rule.filter.workspaces } : {}),
    ...(rule.filter.artifact_kinds ? { artifactKinds: rule.filter.artifact_kinds } : {}),
  },
  enabled: rule.enabled,
  mode: modeOf(rule),
  idleFor: rule.targets.includes('thread') ? (rule.idle_for ?? DEFAULT_IDLE_FOR) : null,
  origin,
  setBy: rule.set_by ?? null,
  setAt: rule.set_at ?? null,
});

/** Envelopes go out as stored, in the log's snake_case (docs/specification.md#event-shape). */
export const WireEnvelope = z.object({
  seq: z.int(),
  id: z.string(),
  ts: z.string(),
  workspace_id: z.string(),
  thread_id: z.string().nullable(),
  run_id: z.string().nullable(),
  actor: z.record(z.string(), z.unknown()),
  event: z.object({ type: z.string() }).loose(),
});
