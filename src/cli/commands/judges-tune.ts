import { EvaluatorId } from '../../core/index.js';
import { prepareTuning } from '../../evidence/index.js';
import { type WireTuned, wireTuned } from '../../wire/judge-versions.js';
import { CLI_ACTOR, type Print, usage } from '../context.js';
import { printTo, type Terminal } from '../terminal.js';
import { asUsage } from './agreement.js';
import { inOneWorkspace } from './one-workspace.js';

// `evalflow judges tune`: a candidate version of an LLM judge from the targets both it and the
// reviewers gave verdicts on — split (seeded, stratified by the reviewers' label), examples chosen
// from the training part (src/evidence's prepareTuning) — recorded as system:cli with the
// examples' provenance and the held-out targets its backtest is to judge.

export interface TuneOptions {
  against: string;
  field?: string;
  as?: string;
  heldOutShare?: number;
  seed?: number;
  maxExamples?: number;
  workspace?: string;
  config?: string;
  json?: boolean;
}

export async function tuneJudge(terminal: Terminal, base: string, options: TuneOptions) {
  if (!EvaluatorId.safeParse(base).success) {
    usage(`a judge version is written name@version, not ${base}`);
  }
  const tuned = await inOneWorkspace(terminal, options, async (store, app, workspace) => {
    const prepared = await asUsage(() =>
      prepareTuning(store, app, {
        workspaceId: workspace,
        base,
        against: options.against,
        by: CLI_ACTOR,
        now: new Date(),
        ...(options.field ? { field: options.field } : {}),
        ...(options.as ? { as: options.as } : {}),
        ...(options.heldOutShare === undefined ? {} : { heldOutShare: options.heldOutShare }),
        ...(options.seed === undefined ? {} : { seed: options.seed }),
        ...(options.maxExamples === undefined ? {} : { maxExamples: options.maxExamples }),
      }),
    );
    const outcome = await store.execute({
      workspace_id: workspace,
      actor: CLI_ACTOR,
      command: prepared.command,
    });
    if (outcome.type !== 'recorded') usage(`${workspace}: ${outcome.message}`);
    const seq = outcome.events[0]?.seq ?? 0;
    return wireTuned(workspace, seq, prepared.command.judge_version, prepared);
  });
  const print = printTo(terminal);
  if (options.json) return print(JSON.stringify(tuned));
  printTuned(tuned, print);
}

function printTuned(tuned: WireTuned, print: Print): void {
  print(
    `recorded ${tuned.candidate}, tuned from ${tuned.tunedFrom}, in ${tuned.workspace} (seq ${tuned.seq})`,
  );
  const { reviewed, training, heldOut } = tuned.split;
  print(`split: ${reviewed} reviewed targets, ${training} for training, ${heldOut} held out`);
  const kept = tuned.kept === 0 ? '' : `${tuned.kept} kept from ${tuned.tunedFrom}, then `;
  print(
    `examples: ${tuned.examples.length} (${kept}${tuned.disagreements.chosen} of the training part's ${tuned.disagreements.inTraining} disagreements)`,
  );
  for (const example of tuned.examples) {
    print(`  ${example.target}  reviewers ${example.reviewersLabel}  judge ${example.judgeLabel}`);
  }
}
