import { type SpanContext, TraceFlags, trace } from '@opentelemetry/api';
import { targetKey } from '../core/index.js';
import type { Subject } from '../evaluators/index.js';
import type { EvaluateInput } from './types.js';

// What the evaluate activity's span says of its evaluation, when evalflow traces its own work
// (docs/traces.md#evalflows-own-spans): the span Temporal's interceptor makes for the activity
// (`RunActivity:evaluate`) is the active one, and the judge's `chat` spans are its children.

/** The link's `evalflow.link.type`: the agent span of the run the evaluation judges. */
export const JUDGED_AGENT_SPAN = 'judged_agent_span';

/**
 * Names the evaluation on the active span (workspace, evaluator, target, and the judged run as
 * `evalflow.judged_run.id`), and links it to the run's agent span when the run came over OTLP,
 * its id `{traceId}-{spanId}`. Not `evalflow.run.id`: on a span, that attribute makes the span
 * part of the run it names (docs/traces.md), which an evaluation is not. Does nothing when no
 * span is recording (no tracer provider registered).
 */
export function describeEvaluationSpan(input: EvaluateInput, subject: Subject): void {
  const span = trace.getActiveSpan();
  if (span === undefined || !span.isRecording()) return;
  const runId = runOf(subject);
  span.setAttributes({
    'evalflow.workspace.id': input.workspaceId,
    'evalflow.evaluator.name': input.evaluator.name,
    'evalflow.evaluator.version': input.evaluator.version,
    'evalflow.target': targetKey(input.target),
    ...(runId !== null ? { 'evalflow.judged_run.id': runId } : {}),
  });
  const agent = agentSpanContextOf(runId);
  if (agent !== undefined) {
    span.addLink({ context: agent, attributes: { 'evalflow.link.type': JUDGED_AGENT_SPAN } });
  }
}

function runOf(subject: Subject): string | null {
  if (subject.kind === 'turn') return subject.run.run_id;
  if (subject.kind === 'message') return subject.message.run_id;
  return null;
}

/** The agent span a run read from OTLP is named after (`{traceId}-{spanId}`, docs/traces.md). */
export function agentSpanContextOf(runId: string | null | undefined): SpanContext | undefined {
  const match = /^([0-9a-f]{32})-([0-9a-f]{16})$/.exec(runId ?? '');
  if (match === null) return undefined;
  return {
    traceId: match[1] as string,
    spanId: match[2] as string,
    traceFlags: TraceFlags.SAMPLED,
    isRemote: true,
  };
}
