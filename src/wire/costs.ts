import { z } from 'zod';
import { EVALUATOR_ID_PART, evaluatorIdOf, usdOf } from '../core/index.js';
import type { EvaluationRecords, SpendDimension, SpendFilter, SpendRow } from '../store/index.js';

// What judging cost, on the wire: `GET /v1/costs`, `evalflow costs --json` and the workbench's
// spend chart read this shape. Money is `costUsd`, dollars from the ledger's nano-dollars, always
// beside `unpricedReports`: usage with no known price is counted, never shown as $0 silently.

/** What spend can be grouped by: an evaluator version, an evaluator (all its versions), ... */
export const costDimensions = ['version', 'evaluator', 'workspace', 'day', 'model'] as const;
export type CostDimension = (typeof costDimensions)[number];
export const DEFAULT_COST_DIMENSIONS: readonly CostDimension[] = ['version', 'day'];

const storeDimension: Record<CostDimension, SpendDimension> = {
  version: 'participant',
  // Summed over its versions here: a version's evaluations are its own, so counts add up.
  evaluator: 'participant',
  workspace: 'workspace',
  day: 'day',
  model: 'model',
};

/** `version,day`: each dimension once, `version` and `evaluator` not both. */
export const CostDimensions = z
  .string()
  .transform((text) => text.split(',').map((part) => part.trim()))
  .pipe(z.array(z.enum(costDimensions)).min(1))
  .refine((list) => new Set(list).size === list.length, 'each dimension once')
  .refine(
    (list) => !(list.includes('version') && list.includes('evaluator')),
    'group by version or by evaluator, not both',
  );

/** A UTC day, `2026-05-01`. */
export const UtcDay = z.iso.date();

/** `politeness` (every version) or `politeness@2` (one). */
export const EvaluatorFilter = z
  .string()
  .max(401)
  .refine((text) => {
    const parts = text.split('@');
    return parts.length <= 2 && parts.every((part) => EVALUATOR_ID_PART.test(part));
  }, 'an evaluator is written name or name@version');

export const CostsTotal = z.object({
  /** Evaluations that reported usage. */
  evaluations: z.int(),
  reports: z.int(),
  inputTokens: z.int(),
  outputTokens: z.int(),
  /** Dollars, summed exactly in nano-dollars; usage without a price adds nothing here. */
  costUsd: z.number(),
  /** Reports whose cost is unknown (no `costUsd` given and the model not in `pricing`). */
  unpricedReports: z.int(),
});
export const CostsRow = CostsTotal.extend({
  /** `name@version` by version, `name` by evaluator; null when not grouped by either. */
  evaluator: z.string().nullable(),
  workspace: z.string().nullable(),
  day: z.string().nullable(),
  model: z.string().nullable(),
});
export type CostsRow = z.output<typeof CostsRow>;
export const CostsReply = z.object({
  by: z.array(z.enum(costDimensions)),
  /** The workspace read, or null across every workspace (a system key's). */
  workspace: z.string().nullable(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  rows: z.array(CostsRow),
  total: CostsTotal,
});
export type CostsReply = z.output<typeof CostsReply>;

export interface CostsRequest {
  by: readonly CostDimension[];
  /** Null: every workspace. */
  workspace: string | null;
  from?: string | undefined;
  to?: string | undefined;
  evaluator?: string | undefined;
}

const figures = (row: SpendRow) => ({
  evaluations: row.evaluations,
  reports: row.reports,
  inputTokens: row.input_tokens,
  outputTokens: row.output_tokens,
  costUsd: usdOf(row.cost_nanos),
  unpricedReports: row.unpriced_reports,
});

const nameOf = (participant: string) => evaluatorIdOf(participant).split('@')[0] as string;

/** Spend as the request groups and filters it, with the total over the same filter. */
export async function readCosts(
  store: Pick<EvaluationRecords, 'usage'>,
  request: CostsRequest,
): Promise<CostsReply> {
  const filter: SpendFilter = {
    ...(request.workspace !== null ? { workspace_id: request.workspace } : {}),
    ...(request.from ? { from_day: request.from } : {}),
    ...(request.to ? { to_day: request.to } : {}),
    ...(request.evaluator === undefined
      ? {}
      : request.evaluator.includes('@')
        ? { participant: `evaluator:${request.evaluator}` }
        : { evaluator_name: request.evaluator }),
  };
  const by = [...request.by];
  const byName = by.includes('evaluator');
  const [grouped, [all]] = await Promise.all([
    store.usage.spend(
      filter,
      by.map((dimension) => storeDimension[dimension]),
    ),
    store.usage.spend(filter, []),
  ]);
  const named = grouped.map((row) => ({
    ...row,
    participant:
      row.participant === null
        ? null
        : byName
          ? nameOf(row.participant)
          : evaluatorIdOf(row.participant),
  }));
  return {
    by,
    workspace: request.workspace,
    from: request.from ?? null,
    to: request.to ?? null,
    rows: (byName ? summedByName(named, by) : named).map((row) => ({
      evaluator: row.participant,
      workspace: row.workspace_id,
      day: row.day,
      model: row.model,
      ...figures(row),
    })),
    total: figures(
      all ?? {
        participant: null,
        workspace_id: null,
        day: null,
        model: null,
        evaluations: 0,
        reports: 0,
        input_tokens: 0,
        output_tokens: 0,
        cost_nanos: 0,
        unpriced_reports: 0,
      },
    ),
  };
}

/** One evaluator's versions summed into one row, ordered as the store orders: by `by`. */
function summedByName(rows: SpendRow[], by: readonly CostDimension[]): SpendRow[] {
  const merged = new Map<string, SpendRow>();
  for (const row of rows) {
    const key = JSON.stringify([row.participant, row.workspace_id, row.day, row.model]);
    const seen = merged.get(key);
    if (seen === undefined) {
      merged.set(key, { ...row });
      continue;
    }
    seen.evaluations += row.evaluations;
    seen.reports += row.reports;
    seen.input_tokens += row.input_tokens;
    seen.output_tokens += row.output_tokens;
    seen.cost_nanos += row.cost_nanos;
    seen.unpriced_reports += row.unpriced_reports;
  }
  const column = (row: SpendRow, dimension: CostDimension) =>
    (dimension === 'workspace'
      ? row.workspace_id
      : dimension === 'day' || dimension === 'model'
        ? row[dimension]
        : row.participant) ?? '';
  return [...merged.values()].sort((a, b) => {
    for (const dimension of by) {
      const [x, y] = [column(a, dimension), column(b, dimension)];
      if (x !== y) return x < y ? -1 : 1;
    }
    return 0;
  });
}
