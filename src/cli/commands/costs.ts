import { type Command, InvalidArgumentError } from 'commander';
import { usdText } from '../../core/index.js';
import {
  type CostDimension,
  CostDimensions,
  type CostsReply,
  DEFAULT_COST_DIMENSIONS,
  EvaluatorFilter,
  readCosts,
  UtcDay,
} from '../../wire/costs.js';
import { EVERY_WORKSPACE_OPTION, usage, withStore } from '../context.js';
import { withExamples } from '../presentation/examples.js';
import { renderTable } from '../presentation/table.js';
import { configOf, printTo, type Terminal } from '../terminal.js';

// `evalflow costs`: what judging cost, read from the store's usage ledger as GET /v1/costs reads
// it, as a table (or, with --json, the API's answer).

const firstIssue = (error: { issues: { message: string }[] }) =>
  error.issues[0]?.message ?? 'not valid';

function dimensions(value: string): CostDimension[] {
  const parsed = CostDimensions.safeParse(value);
  if (!parsed.success) {
    throw new InvalidArgumentError(
      `a comma list of version, evaluator, workspace, day, model (${firstIssue(parsed.error)}), not ${value}`,
    );
  }
  return parsed.data;
}

function utcDay(value: string): string {
  if (!UtcDay.safeParse(value).success) {
    throw new InvalidArgumentError(`a UTC day written 2026-05-01, not ${value}`);
  }
  return value;
}

function evaluator(value: string): string {
  if (!EvaluatorFilter.safeParse(value).success) {
    throw new InvalidArgumentError(`an evaluator is written name or name@version, not ${value}`);
  }
  return value;
}

/** Dollars to the micro-dollar: judging one evaluation often costs less than a cent. */
export const costText = (usd: number): string => usdText(usd, 6);

/** `$0.012345`, or `unknown` when no report had a price (the unpriced column says how many). */
export function moneyText(row: { costUsd: number; reports: number; unpricedReports: number }) {
  if (row.reports > 0 && row.unpricedReports === row.reports) return 'unknown';
  return costText(row.costUsd);
}

interface CostsOptions {
  by?: CostDimension[];
  from?: string;
  to?: string;
  evaluator?: string;
  workspace?: string;
  json?: boolean;
}

export function registerCosts(program: Command, terminal: Terminal): void {
  const print = printTo(terminal);
  withExamples(
    program
      .command('costs')
      .description(
        'what judging cost: evaluations, tokens and dollars per evaluator version, workspace, UTC day and model (usage with no price is counted as unpriced, never as $0)',
      )
      .option(
        '--by <dimensions>',
        'group by a comma list of version, evaluator, workspace, day, model (default version,day)',
        dimensions,
      )
      .option('--from <day>', 'first UTC day included (2026-05-01)', utcDay)
      .option('--to <day>', 'last UTC day included', utcDay)
      .option('--evaluator <name>', 'one evaluator (name) or one version (name@version)', evaluator)
      .option(...EVERY_WORKSPACE_OPTION)
      .option('--json', 'print the API’s answer (GET /v1/costs) as one JSON object'),
    'evalflow costs',
    'evalflow costs --by evaluator,workspace --from 2026-05-01 --to 2026-05-31',
    'evalflow costs --evaluator politeness@2 --by day,model --json',
  ).action(async (options: CostsOptions) => {
    if (options.from && options.to && options.from > options.to) {
      usage(`--from ${options.from} is after --to ${options.to}`);
    }
    const reply = await withStore(configOf(terminal), (store) =>
      readCosts(store, {
        by: options.by ?? DEFAULT_COST_DIMENSIONS,
        workspace: options.workspace ?? null,
        from: options.from,
        to: options.to,
        evaluator: options.evaluator,
      }),
    );
    if (options.json) return print(JSON.stringify(reply));
    for (const line of costsTable(reply)) print(line);
  });
}

const header: Record<CostDimension, string> = {
  version: 'evaluator',
  evaluator: 'evaluator',
  workspace: 'workspace',
  day: 'day',
  model: 'model',
};

export function costsTable(reply: CostsReply): string[] {
  if (reply.rows.length === 0) return ['no usage recorded'];
  const cell = (row: CostsReply['rows'][number], dimension: CostDimension) =>
    (dimension === 'version' || dimension === 'evaluator' ? row.evaluator : row[dimension]) ?? '';
  const figures = (row: CostsReply['total']) => [
    String(row.evaluations),
    String(row.inputTokens),
    String(row.outputTokens),
    moneyText(row),
    String(row.unpricedReports),
  ];
  return renderTable(
    [
      ...reply.by.map((dimension) => header[dimension]),
      'evaluations',
      'input tokens',
      'output tokens',
      'cost',
      'unpriced',
    ],
    [
      ...reply.rows.map((row) => [...reply.by.map((d) => cell(row, d)), ...figures(row)]),
      ['total', ...reply.by.slice(1).map(() => ''), ...figures(reply.total)],
    ],
  );
}
