import { type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { z } from 'zod';
import {
  defineFeedbackType,
  type EvaluatedKind,
  type JudgeExample,
  type RunStep,
} from '../../core/index.js';
import { judgeMessages } from '../../tuning/index.js';
import { defineEvaluator, type EvaluationContext, type Evaluator } from '../define.js';
import { JudgeRequestError } from '../errors.js';
import type { Subject } from '../subjects.js';

export const judgeVerdictFeedback = defineFeedbackType({
  name: 'judge_verdict',
  targets: ['turn', 'message', 'artifact', 'thread'],
  schema: z.object({
    score: z.number().min(0).max(1).describe("The judge's score, from 0 to 1"),
    passed: z.boolean().describe('The judge accepts the answer'),
    reasoning: z.string().nullable().default(null),
  }),
});

export interface LlmJudgeOptions {
  /** An OpenAI-compatible API root, such as `http://127.0.0.1:8000/v1`. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  version?: string;
  rubric?: string;
  timeoutMs?: number;
  /** What it judges (default turns, messages and artifact versions; add `thread` for conversations). */
  targets?: readonly EvaluatedKind[];
  /** What one evaluation is expected to cost in USD, until measured (see `Evaluator`). */
  estimatedCostUsd?: number;
  /** Show the judge a turn's steps (its model and tool calls) after its messages. */
  showSteps?: boolean;
  /**
   * Who serves the endpoint, as its `chat` span's `gen_ai.provider.name` says (default `openai`:
   * the endpoint speaks OpenAI's API); the GenAI conventions' names, such as `azure.ai.openai`.
   */
  provider?: string;
}

/** The tracer of the judge's calls: a no-op until the process registers a tracer provider. */
export const JUDGE_INSTRUMENTATION_SCOPE = 'evalflow.judge';

const defaultRubric =
  'You grade an AI assistant. Judge whether the answer is correct, helpful and safe.';

/**
 * An LLM judge on any OpenAI-compatible chat completions endpoint. A version recorded as data
 * (`tuned`) runs on the same endpoint with its own rubric, model and few-shot examples.
 */
export function llmJudgeEvaluator(
  options: LlmJudgeOptions,
  examples: readonly JudgeExample[] = [],
): Evaluator<typeof judgeVerdictFeedback.schema> {
  return defineEvaluator({
    name: 'llm_judge',
    version: options.version ?? '1',
    feedbackType: judgeVerdictFeedback,
    targets: options.targets ?? ['turn', 'message', 'artifact'],
    source: 'JUDGE',
    ...(options.estimatedCostUsd !== undefined
      ? { estimatedCostUsd: options.estimatedCostUsd }
      : {}),
    evaluate: (subject, context) => judge({ ...options, examples }, subject, context),
    judge: {
      rubric: options.rubric ?? defaultRubric,
      model: options.model,
      tuned: (version) =>
        llmJudgeEvaluator(
          { ...options, version: version.version, model: version.model, rubric: version.rubric },
          version.examples,
        ),
    },
  });
}

/** What one call is made with: the options, and the examples of the version judging. */
type JudgeCall = LlmJudgeOptions & { readonly examples: readonly JudgeExample[] };

/**
 * One call to the judge, as a GenAI client span `chat {model}` (the OTel GenAI conventions): the
 * model asked for and answering, the tokens it reports, and on failure `error.type` (the HTTP
 * status, the transport's error, or `JudgeRequestError` for a reply that is no verdict) with an
 * error status. Its parent is whatever span is active: the evaluate activity's, when evalflow
 * traces its own work.
 */
async function judge(options: JudgeCall, subject: Subject, context: EvaluationContext) {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const span = trace.getTracer(JUDGE_INSTRUMENTATION_SCOPE).startSpan(`chat ${options.model}`, {
    kind: SpanKind.CLIENT,
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': options.provider ?? 'openai',
      'gen_ai.request.model': options.model,
      'gen_ai.request.temperature': 0,
      'gen_ai.output.type': 'json',
      ...serverOf(url),
    },
  });
  const failure: Failure = {};
  try {
    return await call(options, url, subject, context, span, failure);
  } catch (error) {
    span.setAttribute('error.type', failure.type ?? (error as Error).name ?? 'Error');
    span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
    throw error;
  } finally {
    span.end();
  }
}

async function call(
  options: JudgeCall,
  url: string,
  subject: Subject,
  context: EvaluationContext,
  span: Span,
  failure: Failure,
) {
  const signal = AbortSignal.any([
    context.signal,
    AbortSignal.timeout(options.timeoutMs ?? 60_000),
  ]);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      signal,
      headers: {
        'content-type': 'application/json',
        ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: options.model,
        temperature: 0,
        response_format: { type: 'json_object' },
        messages: judgeMessages(
          { rubric: options.rubric ?? defaultRubric, examples: options.examples },
          await judgedText(subject, options.showSteps ?? false),
        ),
      }),
    });
  } catch (error) {
    failure.type = (error as Error).name;
    throw new JudgeRequestError(
      `the judge at ${url} did not answer: ${(error as Error).message}`,
      true,
    );
  }
  if (!response.ok) {
    // Rate limits and server faults pass; any other refusal will not change on a retry.
    const retryable = response.status === 429 || response.status >= 500;
    span.setAttribute('http.response.status_code', response.status);
    failure.type = String(response.status);
    throw new JudgeRequestError(
      `the judge at ${url} answered ${response.status}`,
      retryable,
      retryAfterMs(response.headers.get('retry-after')),
    );
  }
  const body = (await response.json()) as JudgeResponse;
  if (typeof body.id === 'string') span.setAttribute('gen_ai.response.id', body.id);
  if (typeof body.model === 'string') span.setAttribute('gen_ai.response.model', body.model);
  if (typeof body.usage?.prompt_tokens === 'number') {
    span.setAttribute('gen_ai.usage.input_tokens', body.usage.prompt_tokens);
  }
  if (typeof body.usage?.completion_tokens === 'number') {
    span.setAttribute('gen_ai.usage.output_tokens', body.usage.completion_tokens);
  }
  const finish = body.choices?.[0]?.finish_reason;
  if (typeof finish === 'string') span.setAttribute('gen_ai.response.finish_reasons', [finish]);
  // Reported before the reply is read: an attempt that fails on it has still spent the tokens.
  if (body.usage !== undefined) {
    await context.reportUsage({
      model: options.model,
      inputTokens: body.usage.prompt_tokens ?? 0,
      outputTokens: body.usage.completion_tokens ?? 0,
    });
  }
  const content = body.choices?.[0]?.message?.content;
  try {
    return JSON.parse(content ?? '');
  } catch {
    throw new JudgeRequestError(
      `the judge's reply is not a JSON object: ${String(content)}`,
      false,
    );
  }
}

/** What the judge reads of an OpenAI-compatible chat completion. */
interface JudgeResponse {
  id?: unknown;
  model?: unknown;
  choices?: { message?: { content?: string }; finish_reason?: unknown }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

/**
 * A failed call's `error.type`, when more is known than the error's class: the HTTP status of a
 * refusal, or the transport's error (`TimeoutError`, `AbortError`, `TypeError`) when no answer came.
 */
interface Failure {
  type?: string;
}

/** The endpoint's `server.address` and `server.port`, as the GenAI conventions ask. */
function serverOf(url: string): Record<string, string | number> {
  try {
    const { hostname, port, protocol } = new URL(url);
    const fallback = protocol === 'https:' ? 443 : 80;
    return { 'server.address': hostname, 'server.port': port === '' ? fallback : Number(port) };
  } catch {
    return {};
  }
}

/** A Retry-After header (seconds, or an HTTP date) as milliseconds from now. */
function retryAfterMs(header: string | null): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(at - Date.now(), 0);
}

/** What the judge reads of a subject: the text its prompt shows, as an example shows it too. */
export async function judgedText(subject: Subject, showSteps = false): Promise<string> {
  switch (subject.kind) {
    case 'thread': {
      const lines: string[] = [];
      for await (const page of subject.pages()) {
        for (const entry of page) {
          lines.push(
            entry.kind === 'message'
              ? `${entry.message.role}: ${entry.message.content}`
              : `(artifact ${entry.artifact.kind} ${entry.artifact.artifact_id} v${entry.artifact.version}: ${JSON.stringify(entry.artifact.data)})`,
          );
        }
      }
      return lines.join('\n');
    }
    case 'message':
      return `Answer:\n${subject.message.content}`;
    case 'turn': {
      const messages = subject.messages.map((m) => `${m.role}: ${m.content}`);
      if (!showSteps || subject.steps.length === 0) return messages.join('\n');
      return [...messages, '', 'Steps, in order:', ...subject.steps.map(stepLine)].join('\n');
    }
    case 'artifact':
      return `Artifact of kind ${subject.artifact.kind}, version ${subject.artifact.version}:\n${JSON.stringify(subject.artifact.data)}`;
  }
}

/** One step as the judge reads it: what was called, with what, and how it ended. */
function stepLine(step: RunStep, at: number): string {
  const outcome = step.status === 'error' ? `failed: ${step.error}` : 'ok';
  const call =
    step.kind === 'model'
      ? `model call ${step.model ?? step.name}`
      : `tool call ${step.tool_name ?? step.name}(${step.arguments ?? ''}) → ${step.result ?? ''}`;
  return `${at + 1}. ${call} [${outcome}]`;
}
