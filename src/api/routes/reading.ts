import { z } from 'zod';
import {
  type EvaluationTarget,
  evaluationStates,
  type FeedbackRecord,
  notFound,
  type ScoreSource,
} from '../../core/index.js';
import { scoreValues } from '../../scores/index.js';
import { refusalResponses, refuse } from '../errors.js';
import {
  SourceName,
  sourceName,
  sourceOf,
  WireRun,
  WireTarget,
  wireRun,
  wireTarget,
} from '../wire.js';
import { callerOf, type Register } from './context.js';

// Reading back: a run with its evaluation ledger, the ledger in pages, and a summary of scores
// grouped so that no two populations are ever merged (seed 002).

const readers = ['system', 'admin', 'agent', 'reviewer'] as const;

export const LedgerEntry = z.object({
  generation: z.string(),
  evaluator: z.string(),
  target: WireTarget,
  state: z.enum(evaluationStates),
  reason: z.string().nullable(),
  eventId: z.string().nullable(),
  settledAt: z.string(),
});
const ledgerEntry = (entry: {
  generation: string;
  participant: string;
  target: unknown;
  state: (typeof evaluationStates)[number];
  reason: string | null;
  envelope_id: string | null;
  settled_at: string;
}) => ({
  generation: entry.generation,
  evaluator: entry.participant.replace(/^evaluator:/, ''),
  target: wireTarget(entry.target as EvaluationTarget),
  state: entry.state,
  reason: entry.reason,
  eventId: entry.envelope_id,
  settledAt: entry.settled_at,
});

// Each route's query and answer, named so that the HTTP client's types are these very schemas.
export const RunReply = z.object({ run: WireRun, evaluations: z.array(LedgerEntry) });
export const LedgerQuery = z.object({
  runId: z.string().min(1).optional(),
  state: z.enum(evaluationStates).optional(),
  cursor: z.string().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
export const LedgerReply = z.object({
  entries: z.array(LedgerEntry),
  nextCursor: z.string().nullable(),
});
export const ScoresSummaryQuery = z.object({
  source: SourceName.optional(),
  name: z.string().min(1).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});
export const ScoresSummaryReply = z.object({
  groups: z.array(
    z.object({
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
    }),
  ),
});

/** A ledger target's run: a turn's, a message's, or none for an artifact version. */
const runOfTarget = (target: EvaluationTarget) => ('run_id' in target ? target.run_id : null);

export const registerReading: Register = (api, deps) => {
  api.get('/v1/runs/:runId', {
    config: { allow: readers },
    schema: {
      tags: ['reading'],
      summary: "A run and each (target, evaluator version)'s ledger state with its reason",
      params: z.object({ runId: z.string().min(1) }),
      response: { 200: RunReply, ...refusalResponses },
    },
    handler: async (request) => {
      const { workspaceId } = callerOf(request);
      const run = await deps.store.run(workspaceId, request.params.runId);
      if (run === null) {
        throw refuse(notFound('run', request.params.runId));
      }
      // A run's own evaluation (generation `run`): its turn, its messages, the versions it produced.
      const entries = [];
      for (const entry of await deps.store.ledger.evaluations(workspaceId, { generation: 'run' })) {
        const target = entry.target as EvaluationTarget;
        const ofRun =
          target.kind === 'artifact'
            ? (await deps.store.artifact(workspaceId, target.artifact_id, target.version))?.run_id
            : runOfTarget(target);
        if (ofRun === run.run_id) entries.push(entry);
      }
      return { run: wireRun(run), evaluations: entries.map(ledgerEntry) };
    },
  });

  api.get('/v1/ledger', {
    config: { allow: readers },
    schema: {
      tags: ['reading'],
      summary: 'The evaluation ledger in pages, oldest key first',
      querystring: LedgerQuery,
      response: { 200: LedgerReply, ...refusalResponses },
    },
    handler: async (request) => {
      const { runId, state, cursor, limit } = request.query;
      const all = (
        await deps.store.ledger.evaluations(callerOf(request).workspaceId, state ? { state } : {})
      )
        .filter(
          (entry) => runId === undefined || runOfTarget(entry.target as EvaluationTarget) === runId,
        )
        .map((entry) => ({
          entry,
          key: `${entry.generation} ${entry.participant} ${entry.target_key}`,
        }));
      const start = cursor === undefined ? 0 : all.findIndex(({ key }) => key > cursor);
      const page = start < 0 ? [] : all.slice(start, start + limit);
      const more = start >= 0 && start + limit < all.length;
      return {
        entries: page.map(({ entry }) => ledgerEntry(entry)),
        nextCursor: more ? (page.at(-1)?.key ?? null) : null,
      };
    },
  });

  api.get('/v1/scores/summary', {
    config: { allow: readers },
    schema: {
      tags: ['reading'],
      summary: 'Counts, means and distributions of the stored feedback’s scores, by population',
      description:
        'Grouped by source, so end-user sentiment, reviewer assessment and automated ' +
        'measurements never merge; JUDGE and HARNESS groups are per evaluator version, and ' +
        '`sourceLabel` stays a group of its own.',
      querystring: ScoresSummaryQuery,
      response: { 200: ScoresSummaryReply, ...refusalResponses },
    },
    handler: async (request) => {
      const { source, name, from, to } = request.query;
      const records = await deps.store.feedback(
        callerOf(request).workspaceId,
        source ? { source: sourceOf(source) } : {},
      );
      const groups = new Map<string, Group>();
      for (const record of records) {
        if (from !== undefined && record.updated_at < new Date(from).toISOString()) continue;
        if (to !== undefined && record.updated_at >= new Date(to).toISOString()) continue;
        for (const scored of scoresOf(deps, record)) {
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
      return { groups: [...groups.values()].map(summarize) };
    },
  });
};

const isAutomated = (source: ScoreSource) => source === 'JUDGE' || source === 'HARNESS';

interface Group {
  source: ScoreSource;
  producer: string | null;
  sourceLabel: string | null;
  name: string;
  values: (number | boolean | string)[];
}

function scoresOf(deps: Parameters<Register>[1], record: FeedbackRecord) {
  const type = deps.app.feedbackTypes.get(record.feedback_type);
  if (type === undefined) return [];
  return scoreValues(type.schema, record.value, { typeName: type.name }).map(
    ({ config, value }) => ({
      name: config.name,
      value,
      dataType: config.dataType,
    }),
  );
}

function summarize(group: Group) {
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
