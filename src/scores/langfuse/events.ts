// How a `Score` travels to Langfuse: one `score-create` event through `/api/public/ingestion`.
// `body.id` is the score's id and the envelope timestamp is the score's time, because Langfuse
// replaces a stored score only when id, name and UTC date of the timestamp all match.

import type { LangfuseClient } from '@langfuse/client';
import { v4 as uuidv4 } from 'uuid';
import { InvalidScoreError } from '../errors.js';
import { type Score, scoreMetadata } from '../model/score.js';
import { MAX_TEXT } from '../model/score-config.js';

export type IngestionRequest = Parameters<LangfuseClient['api']['ingestion']['batch']>[0];
export type IngestionEvent = IngestionRequest['batch'][number];
export type ScoreCreateEvent = Extract<IngestionEvent, { type: 'score-create' }>;

/** Langfuse refuses batches over 3.5 MB; this leaves room for the envelope and headers. */
export const DEFAULT_MAX_BATCH_BYTES = 3_000_000;

export interface ScoreEventOptions {
  readonly environment?: string;
  readonly configId?: string;
  /** The time given to a score that has none. */
  readonly now: Date;
}

/**
 * The `score-create` event of one score. The envelope id is fresh on every send: Langfuse drops
 * an event whose envelope id it has seen, which would swallow a changed value sent again.
 * A score with a trace is attached to it (and its span, as the observation); Langfuse takes one
 * target, so its session is used only when it has no trace.
 */
export function scoreEvent(score: Score, options: ScoreEventOptions): ScoreCreateEvent {
  const metadata = scoreMetadata(score);
  const body = {
    id: score.id,
    name: score.name,
    value: typeof score.value === 'boolean' ? (score.value ? 1 : 0) : score.value,
    dataType: score.dataType,
    ...(score.traceId === undefined
      ? { sessionId: score.sessionId }
      : { traceId: score.traceId, ...(score.spanId && { observationId: score.spanId }) }),
    ...(Object.keys(metadata).length > 0 && { metadata }),
    ...(options.environment && { environment: options.environment }),
    ...(options.configId && { configId: options.configId }),
  };
  const timestamp = new Date(score.timestamp ?? options.now).toISOString();
  return { type: 'score-create', id: uuidv4(), timestamp, body };
}

/**
 * Refuses, before anything is sent, the scores Langfuse cannot hold: one with neither a trace
 * nor a session, and a category or text outside 1–`MAX_TEXT` characters.
 */
export function checkLangfuseScores(scores: readonly Score[]): void {
  const problems: string[] = [];
  for (const score of scores) {
    const label = `score ${score.name} (${score.id})`;
    if (score.traceId === undefined && score.sessionId === undefined) {
      problems.push(`${label}: Langfuse attaches a score to a trace or a session; it has neither`);
    }
    if (typeof score.value === 'string' && (score.value === '' || score.value.length > MAX_TEXT)) {
      problems.push(`${label}: Langfuse holds 1 to ${MAX_TEXT} characters of text`);
    }
  }
  if (problems.length > 0) {
    throw new InvalidScoreError(
      `Langfuse cannot hold these scores: ${problems.join('; ')}`,
      problems,
    );
  }
}

/** Splits events into requests whose JSON stays under `maxBytes`, keeping their order. */
export function batches(
  events: readonly ScoreCreateEvent[],
  maxBytes: number,
): ScoreCreateEvent[][] {
  const encoder = new TextEncoder();
  const envelope = encoder.encode('{"batch":[]}').length;
  const result: ScoreCreateEvent[][] = [];
  let current: ScoreCreateEvent[] = [];
  let size = envelope;
  for (const event of events) {
    const eventBytes = encoder.encode(JSON.stringify(event)).length + 1;
    if (envelope + eventBytes > maxBytes) {
      const problem = `score ${event.body.name} is ${eventBytes} bytes, over the batch limit of ${maxBytes}`;
      throw new InvalidScoreError(problem, [problem]);
    }
    if (size + eventBytes > maxBytes && current.length > 0) {
      result.push(current);
      current = [];
      size = envelope;
    }
    current.push(event);
    size += eventBytes;
  }
  if (current.length > 0) result.push(current);
  return result;
}
