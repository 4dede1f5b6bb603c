import { EvaluatorId } from '../../core/index.js';
import { readBacktest } from '../../evidence/index.js';
import { type WireBacktest, wireBacktest } from '../../wire/backtest.js';
import { type Print, usage } from '../context.js';
import { printTo, type Terminal } from '../terminal.js';
import { asUsage } from './agreement.js';
import { inOneWorkspace } from './one-workspace.js';

// `evalflow judges backtest`: a recorded version against its base on the version's held-out
// targets, from the verdicts stored on them: κ of each against the reviewers, the paired
// difference, McNemar's test and the verdicts that changed (src/agreement's backtestStatistics).

export interface BacktestOptions {
  against: string;
  field?: string;
  workspace?: string;
  config?: string;
  json?: boolean;
}

export async function backtestJudge(
  terminal: Terminal,
  candidate: string,
  options: BacktestOptions,
): Promise<void> {
  if (!EvaluatorId.safeParse(candidate).success) {
    usage(`a judge version is written name@version, not ${candidate}`);
  }
  const result = await inOneWorkspace(terminal, options, async (store, app, workspace) => {
    const version = await store.judgeVersions.get(workspace, candidate);
    if (version === null) usage(`${candidate} is not recorded in ${workspace}`);
    const statistics = await asUsage(() =>
      readBacktest(store, app, {
        workspaceId: workspace,
        version,
        against: options.against,
        ...(options.field ? { field: options.field } : {}),
      }),
    );
    return wireBacktest(workspace, version, statistics);
  });
  const print = printTo(terminal);
  if (options.json) return print(JSON.stringify(result));
  printBacktest(result, print);
}

const figure = (f: { value: number | null; reason?: string }) =>
  f.value === null ? `undefined (${f.reason})` : f.value.toFixed(3);

function printBacktest(result: WireBacktest, print: Print): void {
  const { statistics: s } = result;
  print(
    `backtest of ${result.candidate} against ${result.base} in ${result.workspace}: ${s.targets} held-out targets, ${s.compared} with all three verdicts, ${s.incomplete.length} incomplete`,
  );
  print(
    `κ against the reviewers: ${result.base} ${figure(s.old.kappa)}, ${result.candidate} ${figure(s.new.kappa)}`,
  );
  print(`κ difference: ${figure(s.kappaDifference.difference)}`);
  print(`McNemar (${s.mcnemar.test}): p ${s.mcnemar.pValue.toFixed(3)}`);
  print(`changed verdicts: ${s.changed.length}`);
}
