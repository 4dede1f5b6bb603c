// The attributes of a `gen_ai.evaluation.result` event, following the OpenTelemetry GenAI
// conventions where they have a name, and `evalflow.*` for the rest, so a score can be rebuilt
// from its event.
import type { AnyValueMap } from '@opentelemetry/api-logs';
import type { Score } from '../model/score.js';

export const EVALUATION_RESULT = 'gen_ai.evaluation.result';

export const ATTRIBUTES = {
  name: 'gen_ai.evaluation.name',
  value: 'gen_ai.evaluation.score.value',
  label: 'gen_ai.evaluation.score.label',
  explanation: 'gen_ai.evaluation.explanation',
  sessionId: 'session.id',
  scoreId: 'evalflow.score.id',
  dataType: 'evalflow.score.data_type',
  traceId: 'evalflow.trace_id',
  evaluator: 'evalflow.evaluator.name',
  version: 'evalflow.evaluator.version',
  confidence: 'evalflow.confidence',
  sourcePrefix: 'evalflow.source.',
} as const;

/**
 * - `gen_ai.evaluation.score.value`: a number, or 1 or 0 for a yes or no
 * - `gen_ai.evaluation.score.label`: a category, or `true` / `false`
 * - `gen_ai.evaluation.explanation`: a text score's text; for the other scores, the texts of
 *   the same verdict recorded with them (such as its reason)
 * - `evalflow.trace_id`: the trace, when the score has no span to carry it in the context
 * - `evalflow.source.{key}`: each source entry, verbatim. They may identify people or tenants,
 *   so a score's source must hold nothing the log pipeline may not.
 */
export function evaluationAttributes(score: Score, explanation: string): AnyValueMap {
  const attributes: AnyValueMap = {
    [ATTRIBUTES.name]: score.name,
    [ATTRIBUTES.scoreId]: score.id,
    [ATTRIBUTES.dataType]: score.dataType,
  };
  if (score.dataType === 'BOOLEAN') {
    attributes[ATTRIBUTES.value] = score.value ? 1 : 0;
    attributes[ATTRIBUTES.label] = score.value ? 'true' : 'false';
  } else if (score.dataType === 'NUMERIC') {
    attributes[ATTRIBUTES.value] = score.value;
  } else if (score.dataType === 'CATEGORICAL') {
    attributes[ATTRIBUTES.label] = score.value;
  }
  if (explanation !== '') attributes[ATTRIBUTES.explanation] = explanation;
  if (score.sessionId !== undefined) attributes[ATTRIBUTES.sessionId] = score.sessionId;
  if (score.traceId !== undefined && score.spanId === undefined) {
    attributes[ATTRIBUTES.traceId] = score.traceId;
  }
  if (score.evaluator !== undefined) attributes[ATTRIBUTES.evaluator] = score.evaluator;
  if (score.version !== undefined) attributes[ATTRIBUTES.version] = score.version;
  if (score.confidence !== undefined) attributes[ATTRIBUTES.confidence] = score.confidence;
  for (const [key, value] of Object.entries(score.source)) {
    attributes[`${ATTRIBUTES.sourcePrefix}${key}`] = value;
  }
  return attributes;
}
