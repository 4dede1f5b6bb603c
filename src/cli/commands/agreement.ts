import { type Command, InvalidArgumentError } from 'commander';
import { EvaluatedKindSchema, evaluatedKinds, type TargetKind } from '../../core/index.js';
import {
  AgreementQueryError,
  compareSides,
  mappingOf,
  queueDisagreements,
} from '../../evidence/index.js';
import { wireAgreement } from '../../wire/agreement.js';
import { APP_OPTION, CLI_ACTOR, identifier, usage, withInstantWindow } from '../context.js';
import { printAgreement } from '../presentation/agreement-report.js';
import { withExamples } from '../presentation/examples.js';
import { printTo, type Terminal } from '../terminal.js';
import { inOneWorkspace, ONE_WORKSPACE_OPTION } from './one-workspace.js';

// `evalflow agreement A B`: how two populations of stored verdicts agree, read from the store as
// GET /v1/agreement reads them, printed as tables (or, with --json, the API's answer).

/** The sides' syntax, shown in --help and the reference. */
export const SIDES_HELP =
  'name@version[:field] (an evaluator version), reviewers[:type.field], reviewer:ID[:type.field] or users[:type.field]';

/** `--map pass=true`, repeatable. */
export const mapEntry = (value: string, previous: string[] = []): string[] => [...previous, value];

export function evaluatedKind(value: string): TargetKind {
  const parsed = EvaluatedKindSchema.safeParse(value);
  if (!parsed.success) {
    throw new InvalidArgumentError(
      `a target kind is one of ${evaluatedKinds.join(', ')}, not ${value}`,
    );
  }
  return parsed.data;
}

/** An evidence refusal as the CLI's one-line usage error. */
export async function asUsage<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AgreementQueryError) return usage(error.message);
    throw error;
  }
}

interface AgreementOptions {
  workspace?: string;
  map?: string[];
  from?: string;
  to?: string;
  targetKind?: TargetKind;
  limit?: number;
  queue?: string;
  config?: string;
  json?: boolean;
}

function count(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 1000) {
    throw new InvalidArgumentError(`a whole number from 0 to 1000, not ${value}`);
  }
  return n;
}

/** The options agreement and promotion both slice the verdicts by, in this order. */
export function withSlices(command: Command): Command {
  return withInstantWindow(
    command.option(
      '--map <from=to>',
      'rename a label on both sides (repeatable): --map pass=true',
      mapEntry,
    ),
    ['--from', '--to'],
    'verdicts last given',
  ).option(
    '--target-kind <kind>',
    `only targets of one kind: ${evaluatedKinds.join(', ')}`,
    evaluatedKind,
  );
}

export function registerAgreement(program: Command, terminal: Terminal): void {
  const print = printTo(terminal);
  withExamples(
    withSlices(
      program
        .command('agreement')
        .description(
          'how two populations of stored verdicts agree on the same targets: Cohen’s κ with its 95 % interval, the confusion matrix, base rates, per-label figures (Pearson, Spearman, MAE and RMSE for numbers), and the disagreements',
        )
        .argument('<a>', `side A: ${SIDES_HELP}`)
        .argument(
          '<b>',
          'side B, written the same way; a population without a field takes side A’s',
        )
        .option(...ONE_WORKSPACE_OPTION),
    )
      .option(
        '--limit <n>',
        'disagreements listed (default 20 in the table, 100 with --json as the API; all are counted)',
        count,
      )
      .option(
        '--queue <id>',
        'also send every disagreeing target to this review queue, each once (recorded as system:cli)',
        identifier,
      )
      .option(...APP_OPTION)
      .option(
        '--json',
        'print the API’s answer (GET /v1/agreement) as one JSON object, with `workspace` (and `queued` with --queue)',
      ),
    'evalflow agreement politeness@2:polite reviewers --workspace acme',
    'evalflow agreement politeness@2:polite reviewer:grace:review_verdict.verdict --map pass=true --map fail=false',
    'evalflow agreement politeness@1:polite politeness@2:polite --json',
    'evalflow agreement politeness@2:polite reviewers --target-kind message --queue second-look',
  ).action(async (a: string, b: string, options: AgreementOptions) => {
    const { workspace, report, queued } = await inOneWorkspace(
      terminal,
      options,
      async (store, app, workspace) => {
        const query = {
          workspaceId: workspace,
          a,
          b,
          mapping: await asUsage(async () => mappingOf(options.map ?? [])),
          ...(options.from ? { from: options.from } : {}),
          ...(options.to ? { to: options.to } : {}),
          ...(options.targetKind ? { targetKind: options.targetKind } : {}),
        };
        const limit = options.limit ?? (options.json ? 100 : 20);
        const report = await asUsage(async () =>
          wireAgreement(await compareSides(store, app, { ...query, limit })),
        );
        const queueId = options.queue;
        const queued =
          queueId === undefined
            ? null
            : await asUsage(() =>
                queueDisagreements(store, app, {
                  ...query,
                  queueId,
                  by: CLI_ACTOR,
                  now: new Date(),
                }),
              );
        return { workspace, report, queued };
      },
    );
    if (options.json) {
      return print(JSON.stringify({ workspace, ...report, ...(queued ? { queued } : {}) }));
    }
    printAgreement(report, workspace, print);
    if (queued !== null) {
      print(
        `sent ${queued.disagreements} disagreeing targets to review queue ${queued.queueId}: ` +
          `${queued.added} added, ${queued.alreadyQueued} queued already`,
      );
    }
  });
}
