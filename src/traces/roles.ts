import type { SpanRecord } from './span.js';

// What a span is to an agent's run, read from the three conventions real exporters use: the OTel
// GenAI conventions (`gen_ai.operation.name`), OpenInference (`openinference.span.kind`) and the
// Vercel AI SDK (its span names). docs/traces.md has the table.

export type SpanRole = 'agent' | 'model' | 'tool' | 'genai' | 'other';

const AGENT_OPERATIONS = new Set(['invoke_agent', 'invoke_workflow']);
const MODEL_OPERATIONS = new Set(['chat', 'generate_content', 'text_completion']);
const VERCEL_CALLS = /^ai\.(generateText|streamText|generateObject|streamObject)$/;
const VERCEL_MODEL_CALLS =
  /^ai\.(generateText|streamText|generateObject|streamObject)\.do(Generate|Stream)$/;
const GENAI_PREFIXES = ['gen_ai.', 'llm.', 'openinference.', 'ai.', 'evalflow.'];

export function roleOf(span: SpanRecord): SpanRole {
  const operation = span.attributes['gen_ai.operation.name'];
  const kind = span.attributes['openinference.span.kind'];
  const vercel = span.attributes['ai.operationId'] ?? span.name;
  if (
    (typeof operation === 'string' && AGENT_OPERATIONS.has(operation)) ||
    kind === 'AGENT' ||
    (typeof vercel === 'string' && VERCEL_CALLS.test(vercel))
  ) {
    return 'agent';
  }
  if (
    (typeof operation === 'string' && MODEL_OPERATIONS.has(operation)) ||
    kind === 'LLM' ||
    (typeof vercel === 'string' && VERCEL_MODEL_CALLS.test(vercel))
  ) {
    return 'model';
  }
  if (operation === 'execute_tool' || kind === 'TOOL' || vercel === 'ai.toolCall') return 'tool';
  return Object.keys(span.attributes).some((key) => GENAI_PREFIXES.some((p) => key.startsWith(p)))
    ? 'genai'
    : 'other';
}

/**
 * Whether evalflow keeps a span: an agent's, a model call's, a tool call's or another GenAI span,
 * and every trace's root (a run of a trace with no agent span is its root's). The rest (HTTP,
 * databases) are counted and not stored.
 */
export const isKept = (span: SpanRecord, role: SpanRole = roleOf(span)): boolean =>
  span.parentSpanId === null || role !== 'other';
