import { z } from 'zod';
import {
  evaluatorIdOf,
  type FeedbackRecord,
  type FeedbackTypeRegistry,
  type ScoreSource,
} from '../core/index.js';
import { isComparable, scoreValues } from '../scores/index.js';
import type { EntityReads } from '../store/index.js';
import { SourceName, sourceName } from './entities.js';

// The scores of a workspace's stored feedback, summarized by population
// (docs/specification.md#score-sources): grouped by source, so end-user sentiment, reviewer
// assessment and automated measurements never merge;
// JUDGE and HARNESS groups are per evaluator version, and a `sourceLabel` is a group of its own.
// A thread judged again counts once per evaluator: its latest generation's verdict. Feedback of a
// type the app no longer declares is summarized too (`declared: false`), read from its fields.
// `GET /v1/scores/summary` and `evalflow scores summary` both answer with this.

export const ScoreSummaryGroup = z.object({
  source: SourceName,
  /** The evaluator version (`name@version`) for JUDGE and HARNESS scores. */
  producer: z.string().nullable(),
  sourceLabel: z.string().nullable(),
  /** A shadow version's verdicts (listed only with `includeShadow`): never the current verdict. */
  shadow: z.boolean(),
  name: z.string(),
  /**
   * False for a feedback type the app no longer declares: its stored values are still counted,
   * each boolean, number or text field a score named `{type}.{field}`.
   */
  declared: z.boolean(),
  /**
   * Whether its field can be compared with another population's (GET /v1/agreement): booleans,
   * categories and numbers of a declared type; a free text is not.
   */
  comparable: z.boolean(),
  /** The UTC day (`YYYY-MM-DD`) the group's feedback was last given on, with `per=day` only. */
  day: z.string().optional(),
  count: z.int(),
  /** Numbers and booleans (true as 1); null for categories and text. */
  mean: z.number().nullable(),
  /** How often each value occurs, for booleans and categories. */
  distribution: z.record(z.string(), z.int()).nullable(),
});
export type ScoreSummaryGroup = z.output<typeof ScoreSummaryGroup>;

export interface ScoreSummaryFilter {
  source?: ScoreSource;
  /** Only scores of this config name. */
  name?: string;
  /** ISO-8601 instants: feedback last changed at or after `from` and before `to`. */
  from?: string;
  to?: string;
  /**
   * Shadow versions' verdicts too, each version's in groups of their own (`shadow: true`); left
   * out by default, since they are not their feedback type's current verdict.
   */
  includeShadow?: boolean;
  /** `day`: each group split by the UTC day its feedback was last given on (`day` on each). */
  per?: 'day';
}

export async function summarizeScores(
  store: EntityReads,
  feedbackTypes: FeedbackTypeRegistry,
  workspaceId: string,
  filter: ScoreSummaryFilter = {},
): Promise<ScoreSummaryGroup[]> {
  const { source, name, from, to, includeShadow = false, per } = filter;
  const records = current(await store.feedback(workspaceId, source ? { source } : {}));
  const groups = new Map<string, Group>();
  for (const record of records) {
    if (from !== undefined && record.updated_at < new Date(from).toISOString()) continue;
    if (to !== undefined && record.updated_at >= new Date(to).toISOString()) continue;
    const shadow = record.shadow === true;
    if (shadow && !includeShadow) continue;
    for (const scored of scoresOf(feedbackTypes, record)) {
      if (name !== undefined && scored.name !== name) continue;
      const producer = isAutomated(record.source) ? evaluatorIdOf(record.participant) : null;
      // updated_at is an ISO instant in UTC, so its first ten characters are its UTC day.
      const day = per === 'day' ? record.updated_at.slice(0, 10) : undefined;
      const key = JSON.stringify([
        record.source,
        producer,
        record.source_label,
        shadow,
        scored.name,
        day ?? null,
      ]);
      let group = groups.get(key);
      if (group === undefined) {
        group = {
          source: record.source,
          producer,
          sourceLabel: record.source_label,
          shadow,
          name: scored.name,
          declared: scored.declared,
          comparable: scored.comparable,
          ...(day !== undefined ? { day } : {}),
          values: [],
        };
        groups.set(key, group);
      }
      group.values.push(scored.value);
    }
  }
  return [...groups.values()].map(summarize);
}

/**
 * The feedback that counts: all of it, except that a thread judged again keeps only each
 * evaluator's latest verdict on it, its current one. Earlier generations stay in the log, the
 * ledger and the score backend (docs/specification.md#threads).
 */
function current(records: readonly FeedbackRecord[]): FeedbackRecord[] {
  const latest = new Map<string, FeedbackRecord>();
  const key = (r: FeedbackRecord) => JSON.stringify([r.participant, r.feedback_type, r.target_key]);
  for (const record of records) {
    if (record.target.kind !== 'thread' || record.actor.kind !== 'evaluator') continue;
    const held = latest.get(key(record));
    if (held === undefined || held.seq < record.seq) latest.set(key(record), record);
  }
  return records.filter(
    (r) => r.target.kind !== 'thread' || r.actor.kind !== 'evaluator' || latest.get(key(r)) === r,
  );
}

const isAutomated = (source: ScoreSource) => source === 'JUDGE' || source === 'HARNESS';

interface Group {
  source: ScoreSource;
  producer: string | null;
  sourceLabel: string | null;
  shadow: boolean;
  name: string;
  declared: boolean;
  comparable: boolean;
  day?: string;
  values: (number | boolean | string)[];
}

function scoresOf(feedbackTypes: FeedbackTypeRegistry, record: FeedbackRecord) {
  const type = feedbackTypes.get(record.feedback_type);
  if (type === undefined) return undeclaredScores(record);
  return scoreValues(type.schema, record.value, { typeName: type.name }).map(
    ({ config, value }) => ({
      name: config.name,
      declared: true,
      comparable: isComparable(config.dataType),
      value,
    }),
  );
}

/**
 * A value of a type the app no longer declares, with no schema to read it by: each field that
 * holds a boolean, a finite number or a non-empty text, as its scores were named. Without a
 * schema nothing says what its labels mean, so none is comparable.
 */
function undeclaredScores(record: FeedbackRecord) {
  return Object.entries(record.value).flatMap(([field, value]) =>
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value)) ||
    (typeof value === 'string' && value !== '')
      ? [{ name: `${record.feedback_type}.${field}`, value, declared: false, comparable: false }]
      : [],
  );
}

function summarize(group: Group): ScoreSummaryGroup {
  const numbers = group.values.filter((v) => typeof v !== 'string').map(Number);
  const counted =
    group.values.every((v) => typeof v === 'boolean') ||
    group.values.every((v) => typeof v === 'string');
  const distribution: Record<string, number> = {};
  if (counted)
    for (const v of group.values) distribution[String(v)] = (distribution[String(v)] ?? 0) + 1;
  return {
    source: sourceName(group.source),
    producer: group.producer,
    sourceLabel: group.sourceLabel,
    shadow: group.shadow,
    name: group.name,
    declared: group.declared,
    comparable: group.comparable,
    ...(group.day !== undefined ? { day: group.day } : {}),
    count: group.values.length,
    mean:
      numbers.length === group.values.length
        ? numbers.reduce((a, b) => a + b, 0) / numbers.length
        : null,
    distribution: counted ? distribution : null,
  };
}
