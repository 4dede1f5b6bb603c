// The checks Langfuse's API makes on a score before it queues it. A failure is a 400: the whole
// response of `POST /scores`, or one event's entry in an ingestion 207.
import type { IncomingScore, StoredDataType } from './store.js';

const DATA_TYPES = ['NUMERIC', 'BOOLEAN', 'CATEGORICAL', 'TEXT', 'CORRECTION'];
const ENVIRONMENT = /^(?!langfuse)[a-z0-9-_]+$/;

export type ScoreCheck =
  | { readonly ok: true; readonly score: Omit<IncomingScore, 'id' | 'timestamp'> }
  | { readonly ok: false; readonly problems: string[] };

/** Checks a score body (as the spec shaped it) the way Langfuse's API does. */
export function checkScoreBody(body: Record<string, unknown>, source: unknown): ScoreCheck {
  const problems: string[] = [];
  const text = (key: string): string | null =>
    typeof body[key] === 'string' ? (body[key] as string) : null;
  const name = text('name');
  const value = body.value;
  const dataType = (text('dataType') as StoredDataType | null) ?? null;
  const traceId = text('traceId');
  const sessionId = text('sessionId');
  const datasetRunId = text('datasetRunId');
  const observationId = text('observationId');
  const environment = text('environment') ?? 'default';
  const configId = text('configId');

  if (!name) problems.push('name: a score needs a name');
  if (dataType !== null && !DATA_TYPES.includes(dataType)) problems.push('dataType: unknown');
  const targets = [traceId, sessionId, datasetRunId].filter((target) => target !== null);
  if (targets.length !== 1) {
    problems.push('exactly one of traceId, sessionId or datasetRunId must be provided');
  }
  if (observationId !== null && traceId === null) {
    problems.push('observationId: an observation score needs its traceId');
  }
  if (!ENVIRONMENT.test(environment) || environment.length > 40) {
    problems.push('environment: lowercase letters, digits, _ and -, not starting with langfuse');
  }
  if (source === 'EVAL') problems.push('source: EVAL scores cannot be created through the API');
  if (source === 'ANNOTATION' && configId === null) {
    problems.push('source: ANNOTATION scores need a configId');
  }
  if (dataType === 'CORRECTION' && configId !== null) {
    problems.push('configId: a correction takes no config');
  }
  if (dataType === 'NUMERIC' || dataType === 'BOOLEAN') {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      problems.push(`value: a ${dataType} score's value is a number`);
    } else if (dataType === 'BOOLEAN' && value !== 0 && value !== 1) {
      problems.push('value: a BOOLEAN score is 1 or 0');
    }
  } else if (dataType !== null) {
    if (typeof value !== 'string') problems.push(`value: a ${dataType} score's value is a string`);
    else if (dataType === 'TEXT' && (value.length < 1 || value.length > 500)) {
      problems.push('value: a TEXT score holds 1 to 500 characters');
    }
  } else if (typeof value !== 'number' && typeof value !== 'string') {
    problems.push('value: a number or a string');
  }
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    score: {
      name: dataType === 'CORRECTION' ? 'output' : (name as string),
      value: value as number | string,
      dataType,
      traceId,
      observationId,
      sessionId,
      datasetRunId,
      environment,
      metadata: body.metadata ?? null,
      comment: text('comment'),
      configId,
      source: source === 'ANNOTATION' ? 'ANNOTATION' : 'API',
    },
  };
}
