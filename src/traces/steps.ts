import {
  MAX_STEPS_PER_RUN,
  type RunStep,
  type RunSteps,
  STEP_TEXT_BYTES,
  type StepKind,
} from '../core/index.js';
import { boundedContent } from './bounded.js';
import { isRecord, structured } from './messages.js';
import type { SpanRole } from './roles.js';
import { type Attributes, type AttributeValue, errorOf, isoOfNs, type SpanRecord } from './span.js';

// A run's model calls and tool calls as steps, read from whichever convention wrote them: the
// GenAI conventions, OpenInference and the Vercel AI SDK (docs/traces.md#steps). Only model and
// tool spans are steps, so the Vercel AI SDK's root span, which repeats the sum of its steps'
// tokens, is counted once: as its steps.

/** The first attribute of `keys` that holds a non-empty string (or a number, as text). */
function text(attributes: Attributes, keys: readonly string[]): string | null {
  for (const key of keys) {
    const value = attributes[key];
    if (typeof value === 'string' && value !== '') return value;
    if (typeof value === 'number') return String(value);
  }
  return null;
}

/** The first attribute of `keys` that holds a whole count. */
function count(attributes: Attributes, keys: readonly string[]): number | null {
  for (const key of keys) {
    const value = attributes[key];
    const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof number === 'number' && Number.isInteger(number) && number >= 0) return number;
  }
  return null;
}

/** A tool call's arguments or result as text: strings as sent, structured values as JSON. */
function payload(attributes: Attributes, keys: readonly string[]): string | null {
  for (const key of keys) {
    const value = attributes[key];
    if (value === undefined || value === null || value === '') continue;
    return bounded(typeof value === 'string' ? value : JSON.stringify(value));
  }
  return null;
}

const bounded = (value: string): string => boundedContent(value, STEP_TEXT_BYTES);

const MODEL = ['gen_ai.response.model', 'gen_ai.request.model', 'llm.model_name'] as const;
const VERCEL_MODEL = ['ai.response.model', 'ai.model.id'] as const;
const PROVIDER = ['gen_ai.provider.name', 'gen_ai.system', 'llm.provider', 'llm.system'] as const;
const INPUT_TOKENS = [
  'gen_ai.usage.input_tokens',
  'gen_ai.usage.prompt_tokens',
  'llm.token_count.prompt',
  'ai.usage.inputTokens',
  'ai.usage.promptTokens',
] as const;
const OUTPUT_TOKENS = [
  'gen_ai.usage.output_tokens',
  'gen_ai.usage.completion_tokens',
  'llm.token_count.completion',
  'ai.usage.outputTokens',
  'ai.usage.completionTokens',
] as const;
const TOOL_NAME = ['gen_ai.tool.name', 'tool.name', 'ai.toolCall.name'] as const;
const CALL_ID = ['gen_ai.tool.call.id', 'tool_call.id', 'ai.toolCall.id'] as const;
const ARGUMENTS = [
  'gen_ai.tool.call.arguments',
  'ai.toolCall.args',
  'ai.toolCall.input',
  'tool.parameters',
  'input.value',
] as const;
const RESULT = [
  'gen_ai.tool.call.result',
  'ai.toolCall.result',
  'ai.toolCall.output',
  'output.value',
] as const;

interface RequestedCall {
  name: string | null;
  arguments: string | null;
}

/** The tool calls a model call asked for, by call id, in each convention's shape. */
function requestedCalls(span: SpanRecord): Map<string, RequestedCall> {
  const calls = new Map<string, RequestedCall>();
  const add = (id: unknown, name: unknown, args: unknown) => {
    if (typeof id !== 'string' || id === '' || calls.has(id)) return;
    const argumentsText =
      args === undefined || args === null
        ? null
        : bounded(typeof args === 'string' ? args : JSON.stringify(args));
    calls.set(id, { name: typeof name === 'string' ? name : null, arguments: argumentsText });
  };
  const a = span.attributes;
  const messages = structured(a['gen_ai.output.messages']);
  for (const message of Array.isArray(messages) ? messages : []) {
    if (!isRecord(message)) continue;
    for (const part of asList(message.parts)) {
      if (isRecord(part) && part.type === 'tool_call') add(part.id, part.name, part.arguments);
    }
    for (const call of asList(message.tool_calls)) {
      const fn = isRecord(call) && isRecord(call.function) ? call.function : undefined;
      if (isRecord(call)) add(call.id, fn?.name, fn?.arguments);
    }
  }
  for (const call of asList(structured(a['ai.response.toolCalls']))) {
    if (isRecord(call)) add(call.toolCallId, call.toolName, call.input ?? call.args);
  }
  // OpenInference: llm.output_messages.N.message.tool_calls.M.tool_call.{id,function.name,…}
  const flat = /^llm\.output_messages\.\d+\.message\.tool_calls\.(\d+)\.tool_call\.id$/;
  for (const [key, id] of Object.entries(a)) {
    if (!flat.test(key)) continue;
    const at = key.slice(0, -'id'.length);
    add(id, a[`${at}function.name`], a[`${at}function.arguments`]);
  }
  return calls;
}

const asList = (value: AttributeValue | undefined): AttributeValue[] =>
  Array.isArray(value) ? value : [];

function stepOf(span: SpanRecord, kind: StepKind, asked: ReadonlyMap<string, RequestedCall>) {
  const a = span.attributes;
  const error = errorOf(span);
  const callId = kind === 'tool' ? text(a, CALL_ID) : null;
  const request = callId === null ? undefined : asked.get(callId);
  const step: RunStep = {
    kind,
    span_id: span.spanId,
    name: span.name,
    operation: text(a, ['gen_ai.operation.name']) ?? (kind === 'model' ? 'chat' : 'execute_tool'),
    model: kind === 'model' ? (text(a, MODEL) ?? text(a, VERCEL_MODEL)) : null,
    provider: kind === 'model' ? text(a, [...PROVIDER, 'ai.model.provider']) : null,
    input_tokens: kind === 'model' ? count(a, INPUT_TOKENS) : null,
    output_tokens: kind === 'model' ? count(a, OUTPUT_TOKENS) : null,
    started_at: isoOfNs(span.startNs),
    ended_at: isoOfNs(span.endNs),
    status: error === null ? 'ok' : 'error',
    error: error === null ? null : bounded(error),
    tool_name: kind === 'tool' ? (text(a, TOOL_NAME) ?? request?.name ?? span.name) : null,
    call_id: callId,
    arguments: kind === 'tool' ? (payload(a, ARGUMENTS) ?? request?.arguments ?? null) : null,
    result: kind === 'tool' ? payload(a, RESULT) : null,
  };
  return step;
}

/**
 * The steps of a run's spans (sorted by start), each tool span joined by call id to the model
 * call that asked for it (its arguments when the tool span carries none).
 */
export function stepsOf(
  spans: readonly SpanRecord[],
  roles: ReadonlyMap<string, SpanRole>,
): RunSteps {
  const isStep = (span: SpanRecord) => {
    const role = roles.get(span.spanId);
    return role === 'model' || role === 'tool';
  };
  const kept = spans.filter(isStep);
  const asked = new Map<string, RequestedCall>();
  for (const span of kept) {
    if (roles.get(span.spanId) !== 'model') continue;
    for (const [id, call] of requestedCalls(span)) if (!asked.has(id)) asked.set(id, call);
  }
  const steps = kept
    .slice(0, MAX_STEPS_PER_RUN)
    .map((span) => stepOf(span, roles.get(span.spanId) as StepKind, asked));
  return { steps, omitted: Math.max(kept.length - MAX_STEPS_PER_RUN, 0) };
}
