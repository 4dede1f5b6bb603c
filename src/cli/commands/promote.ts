import type { Command } from 'commander';
import {
  type BacktestEvidence,
  EvaluatorId,
  evidenceLine,
  figureText,
  intervalText,
  type PromotionEvidence,
  type TargetKind,
} from '../../core/index.js';
import { mappingOf, preparePromotion } from '../../evidence/index.js';
import { CLI_ACTOR, type Print, usage } from '../context.js';
import { withExamples } from '../presentation/examples.js';
import { printTo, type Terminal } from '../terminal.js';
import { asUsage, SIDES_HELP, withSlices } from './agreement.js';
import { inOneWorkspace, withOneWorkspace } from './one-workspace.js';

// `evalflow rules promote`: measures a version's agreement now and promotes it on that evidence,
// as POST /v1/evaluation-rules/{evaluator}/promote does, recorded as system:cli: one
// `evaluator_promoted` event switches both rules and keeps the evidence. Short evidence is
// refused with its figures (exit 1), unless --force, which the event records.

interface PromoteOptions {
  replacing?: string;
  against: string;
  field?: string;
  map?: string[];
  from?: string;
  to?: string;
  targetKind?: TargetKind;
  minKappa: number;
  minMatched: number;
  force?: boolean;
  backtest?: boolean;
  workspace?: string;
  config?: string;
  json?: boolean;
}

const evaluatorId = (value: string) => {
  if (!EvaluatorId.safeParse(value).success) {
    usage(`an evaluator version is written name@version, not ${value}`);
  }
  return value;
};

function kappa(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < -1 || n > 1) {
    usage(`--min-kappa is a number from -1 to 1, not ${value}`);
  }
  return n;
}

function matched(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) usage(`--min-matched is a whole number from 1, not ${value}`);
  return n;
}

export function registerPromote(rules: Command, terminal: Terminal): void {
  const print = printTo(terminal);
  withExamples(
    withOneWorkspace(
      withSlices(
        rules
          .command('promote')
          .description(
            'promote an evaluator version on its agreement measured now: it goes live with the replaced version’s settings and that one is disabled, in one event that keeps the evidence (recorded as system:cli); refused with the figures when they are short of the thresholds',
          )
          .argument('<evaluator>', 'the version to promote, name@version')
          .option(
            '--replacing <evaluator>',
            'the version it replaces, of the same feedback type',
            evaluatorId,
          )
          .requiredOption(
            '--against <side>',
            `what its verdicts are checked against: ${SIDES_HELP}`,
          )
          .option(
            '--field <field>',
            'the promoted version’s field (default: its type’s only comparable one)',
          )
          .requiredOption(
            '--min-kappa <kappa>',
            'the least Cohen’s κ the evidence must show',
            kappa,
          )
          .requiredOption(
            '--min-matched <n>',
            'the fewest matched targets the evidence must count',
            matched,
          ),
      )
        .option(
          '--backtest',
          'take the evidence from a tuned version’s backtest: its held-out targets alone, beside the version it was tuned from, which it replaces; the held-out set must give κ an interval and κ must gain over that version’s',
        )
        .option('--force', 'promote even on short evidence; the event records it as forced'),
    ).option('--json', 'print the recorded event as one JSON object, with `workspace` and `seq`'),
    'evalflow rules promote politeness@2 --replacing politeness@1 --against reviewers --min-kappa 0.6 --min-matched 50',
    'evalflow rules promote politeness@2 --against reviewer:grace:review_verdict.verdict --map pass=true --map fail=false --min-kappa 0.7 --min-matched 30 --workspace acme',
    'evalflow rules promote llm_judge@tuned-1 --backtest --against reviewers:review.passed --min-kappa 0.6 --min-matched 30',
  ).action(async (evaluator: string, options: PromoteOptions) => {
    evaluatorId(evaluator);
    const result = await inOneWorkspace(terminal, options, async (store, app, workspace) => {
      const { command } = await asUsage(async () =>
        preparePromotion(store, app, {
          workspaceId: workspace,
          evaluator,
          replacing: options.replacing ?? null,
          against: options.against,
          mapping: mappingOf(options.map ?? []),
          minKappa: options.minKappa,
          minMatched: options.minMatched,
          force: options.force === true,
          backtest: options.backtest === true,
          ...(options.field ? { field: options.field } : {}),
          ...(options.from ? { from: options.from } : {}),
          ...(options.to ? { to: options.to } : {}),
          ...(options.targetKind ? { targetKind: options.targetKind } : {}),
        }),
      );
      const outcome = await store.execute({ workspace_id: workspace, actor: CLI_ACTOR, command });
      if (outcome.type !== 'recorded') usage(`${workspace}: ${outcome.message}`);
      const envelope = outcome.events[0];
      if (envelope?.event.type !== 'evaluator_promoted') throw new Error('no promotion recorded');
      return { workspace, seq: envelope.seq, event: envelope.event };
    });
    if (options.json) return print(JSON.stringify(result));
    printPromotion(result, print);
  });
}

function printPromotion(
  {
    workspace,
    seq,
    event,
  }: {
    workspace: string;
    seq: number;
    event: {
      evaluator: string;
      replacing: string | null;
      evidence: PromotionEvidence;
      forced: boolean;
      shortfalls: string[];
    };
  },
  out: Print,
): void {
  const replaced = event.replacing === null ? '' : `, replacing ${event.replacing} (now disabled)`;
  out(
    `promoted ${event.evaluator} in ${workspace}${replaced} (seq ${seq})${event.forced ? ', forced' : ''}`,
  );
  out(
    `evidence: ${event.evidence.compared} against ${event.evidence.against}: ${evidenceLine(event.evidence)}`,
  );
  if (event.evidence.replaced !== null) {
    out(`beside it: ${event.evidence.replaced.compared}: ${evidenceLine(event.evidence.replaced)}`);
  }
  const { backtest } = event.evidence;
  if (backtest !== undefined) out(`backtest: ${backtestLine(backtest)}`);
  if (event.forced) out(`short of the thresholds: ${event.shortfalls.join('; ')}`);
}

/** `12 held-out targets, κ gain 0.824 (95 % interval 0.512–1.000), McNemar p 0.375`. */
function backtestLine(backtest: BacktestEvidence): string {
  const gain = backtest.kappa_difference;
  const difference = gain === null ? 'undefined' : figureText(gain);
  return `${backtest.held_out} held-out targets, κ gain ${difference}${intervalText(backtest.difference_interval)}, McNemar p ${figureText(backtest.mcnemar_p)}`;
}
