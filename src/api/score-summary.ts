import { z } from 'zod';
import type { FeedbackRecord, FeedbackTypeRegistry, ScoreSource } from '../core/index.js';
import { scoreValues } from '../scores/index.js';
import type { Store } from '../store/index.js';
import { SourceName, sourceName } from './wire.js';

// The scores of a workspace's stored feedback, summarized by population
// (docs/specification.md#score-sources): grouped by source, so end-user sentiment, reviewer
// assessment and automated measurements never merge;
// JUDGE and HARNESS groups are per evaluator version, and a `sourceLabel` is a group of its own.
// A thread judged again counts once per evaluator: its latest generation's verdict.
// `GET /v1/scores/summary` and `evalflow scores summary` both answer with this.

export const ScoreSummaryGroup = z.object({
  source: SourceName,
  /** The evaluator version (`name@version`) for JUDGE and HARNESS scores. */
  producer: z.string().nullable(),
  sourceLabel: z.string().nullable(),
  name: z.string(),
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
}

export async function summarizeScores(
  store: Store,
  feedbackTypes: FeedbackTypeRegistry,
  workspaceId: string,
  filter: ScoreSummaryFilter = {},
): Promise<ScoreSummaryGroup[]> {
  const { source, name, from, to } = filter;
  const records = current(await store.feedback(workspaceId, source ? { source } : {}));
  const groups = new Map<string, Group>();
  for (const record of records) {
    if (from !== undefined && record.updated_at < new Date(from).toISOString()) continue;
    if (to !== undefined && record.updated_at >= new Date(to).toISOString()) continue;
    for (const scored of scoresOf(feedbackTypes, record)) {
      if (name !== undefined && scored.name !== name) continue;
      const producer = isAutomated(record.source)
        ? record.participant.replace(/^evaluator:/, '')
        : null;
      const key = JSON.stringify([record.source, producer, record.source_label, scored.name]);
      let group = groups.get(key);
      if (group === undefined) {
        group = {
          source: record.source,
          producer,
          sourceLabel: record.source_label,
          name: scored.name,
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
  name: string;
  values: (number | boolean | string)[];
}

function scoresOf(feedbackTypes: FeedbackTypeRegistry, record: FeedbackRecord) {
  const type = feedbackTypes.get(record.feedback_type);
  if (type === undefined) return [];
  return scoreValues(type.schema, record.value, { typeName: type.name }).map(
    ({ config, value }) => ({ name: config.name, value }),
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
    name: group.name,
    count: group.values.length,
    mean:
      numbers.length === group.values.length
        ? numbers.reduce((a, b) => a + b, 0) / numbers.length
        : null,
    distribution: counted ? distribution : null,
  };
}
