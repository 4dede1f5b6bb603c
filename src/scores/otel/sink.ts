import { context, ROOT_CONTEXT, TraceFlags, trace } from '@opentelemetry/api';
import { type LoggerProvider, logs, SeverityNumber } from '@opentelemetry/api-logs';
import { parseScores, type Score } from '../model/score.js';
import type { ScoreSink } from '../ports.js';
import { EVALUATION_RESULT, evaluationAttributes } from './attributes.js';

export const INSTRUMENTATION_SCOPE = 'evalflow.scores';

export interface OtelEventSinkOptions {
  /** The global provider by default, a no-op until the application sets up the SDK. */
  readonly loggerProvider?: LoggerProvider;
}

/**
 * Records each score as one `gen_ai.evaluation.result` event through the OpenTelemetry logs
 * API, so evaluation results reach any backend. The event's time is the score's timestamp, its
 * context the judged trace and span (unlike a span event, it can be emitted after the span
 * ended), and `session.id` its session. Events are append-only: each carries the score's id
 * (`evalflow.score.id`), so a reader that keys by it keeps the latest.
 */
export class OtelEventSink implements ScoreSink {
  readonly #provider: LoggerProvider | undefined;

  constructor(options: OtelEventSinkOptions = {}) {
    this.#provider = options.loggerProvider;
  }

  /** @throws InvalidScoreError before emitting anything, when a score is invalid. */
  async record(scores: readonly Score[]): Promise<void> {
    const valid = parseScores(scores);
    const logger = (this.#provider ?? logs.getLoggerProvider()).getLogger(INSTRUMENTATION_SCOPE);
    const explained = explanations(valid);
    valid.forEach((score, index) => {
      logger.emit({
        eventName: EVALUATION_RESULT,
        severityNumber: SeverityNumber.INFO,
        ...(score.timestamp !== undefined && { timestamp: new Date(score.timestamp) }),
        context: judged(score),
        attributes: evaluationAttributes(score, explained[index] ?? ''),
      });
    });
  }
}

/**
 * The judged span as the event's context. A trace without a span cannot be a valid span
 * context, so it travels as an attribute instead, and the event takes the current context.
 */
function judged(score: Score) {
  if (score.traceId === undefined || score.spanId === undefined) return context.active();
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: score.traceId,
    spanId: score.spanId,
    traceFlags: TraceFlags.SAMPLED,
    isRemote: true,
  });
}

/** Each score's explanation: a text score's text; for another, its verdict's texts. */
function explanations(scores: readonly Score[]): string[] {
  const texts = new Map<string, string[]>();
  for (const score of scores) {
    if (score.dataType !== 'TEXT') continue;
    const key = verdictKey(score);
    texts.set(key, [...(texts.get(key) ?? []), String(score.value)]);
  }
  return scores.map((score) =>
    score.dataType === 'TEXT'
      ? String(score.value)
      : (texts.get(verdictKey(score)) ?? []).join('\n'),
  );
}

/** Scores of one verdict share their type, evaluator, version and what they are attached to. */
function verdictKey(score: Score): string {
  const typeName = score.name.slice(0, Math.max(0, score.name.lastIndexOf('.')));
  return JSON.stringify([
    typeName,
    score.evaluator,
    score.version,
    score.traceId,
    score.spanId,
    score.sessionId,
  ]);
}
