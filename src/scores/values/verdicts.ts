import { v5 as uuidv5 } from 'uuid';
import type { z } from 'zod';
import { objectShape } from '../configs/schema-reading.js';
import { InvalidScoreError } from '../errors.js';
import { checkedNamespace, EVALFLOW_SCORE_NAMESPACE } from '../model/ids.js';
import { parseScores, type Score } from '../model/score.js';
import { scoreValues } from './score-values.js';

/** What an evaluator returns: a value of its verdict type, and who made it. */
export interface Verdict<S extends z.core.$ZodType = z.core.$ZodType> {
  readonly schema: S;
  /** The `{type}` of the scores' names; pass the feedback type's name where they coincide. */
  readonly typeName: string;
  readonly value: z.output<S>;
  readonly evaluator: string;
  readonly version: string;
  /** The probability that each field's value is right, for the fields the evaluator has one for. */
  readonly confidence?: Readonly<Record<string, number>>;
  /** The trace the evaluation ran in, as 32 lowercase hex digits. */
  readonly traceId?: string;
}

export interface VerdictScoreOptions {
  /** What the verdict is about, such as a run id. It keys the ids; pass it when there is no trace. */
  readonly subject?: string;
  /** The trace to attach the scores to; the verdict's own by default. */
  readonly traceId?: string;
  readonly spanId?: string;
  readonly sessionId?: string;
  readonly timestamp?: string;
  /** The namespace of the ids; evalflow's by default, `EVALR_SCORE_NAMESPACE` to keep evalr's. */
  readonly namespace?: string;
}

/**
 * One score per field of a verdict that has a value, in field order, built on `scoreValues`.
 * Ids are UUIDv5 of `"{subject | trace | content}|{evaluator}|{version}|{name}"`, so recording the
 * same verdict again replaces its scores. Without a subject or a trace the key is derived from
 * the value's JSON, so two equal verdicts share their scores.
 *
 * @throws InvalidScoreValueError when the value does not match its schema.
 * @throws InvalidScoreError when confidence names fields the verdict type lacks, or a score is invalid.
 */
export function scores(verdict: Verdict, options: VerdictScoreOptions = {}): Score[] {
  const namespace = checkedNamespace(options.namespace ?? EVALFLOW_SCORE_NAMESPACE);
  const values = scoreValues(verdict.schema, verdict.value, { typeName: verdict.typeName });
  checkConfidence(verdict);
  const traceId = options.traceId ?? verdict.traceId;
  const key = options.subject ?? traceId ?? uuidv5(JSON.stringify(verdict.value), namespace);
  return parseScores(
    values.map(({ config, value }) =>
      withoutUndefined({
        id: uuidv5(`${key}|${verdict.evaluator}|${verdict.version}|${config.name}`, namespace),
        name: config.name,
        value,
        dataType: config.dataType,
        traceId,
        spanId: options.spanId,
        sessionId: options.sessionId,
        timestamp: options.timestamp,
        evaluator: verdict.evaluator,
        version: verdict.version,
        confidence: verdict.confidence?.[config.field],
      }),
    ),
  );
}

function checkConfidence(verdict: Verdict): void {
  const fields = objectShape(verdict.schema);
  const unknown = Object.keys(verdict.confidence ?? {}).filter(
    (field) => !Object.hasOwn(fields, field),
  );
  if (unknown.length > 0) {
    const problem = `confidence for fields the verdict does not have: ${unknown.join(', ')}`;
    throw new InvalidScoreError(`${verdict.typeName} verdict: ${problem}`, [problem]);
  }
}

/** Leaves absent fields out, so a score compares equal to one built without them. */
export function withoutUndefined<T extends object>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as T;
}
