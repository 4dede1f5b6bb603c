import {
  EvaluatorId,
  type JudgeVersionData,
  parseEvaluatorId,
  targetKey,
} from '../../core/index.js';
import type { Evaluator } from '../../evaluators/index.js';
import { judgeFieldOf } from '../../evidence/index.js';
import type { EvaluationRecords } from '../../store/index.js';
import {
  candidateVersion,
  chooseExamples,
  type ExampleChoice,
  InvalidJudgeVersionError,
  InvalidReviewedTargetsError,
  InvalidTuningOptionError,
  splitTargets,
  TooFewTargetsError,
  type TuningSplit,
} from '../../tuning/index.js';
import { appOf, CLI_ACTOR, type Print, usage, withStore } from '../context.js';
import { printTo, type Terminal } from '../terminal.js';
import { asUsage, oneWorkspace } from './agreement.js';
import { readReviewedTargets } from './judges-reviewed.js';

// `evalflow judges tune`: a candidate version of an LLM judge from the targets both it and the
// reviewers gave verdicts on — split (seeded, stratified by the reviewers' label), examples chosen
// from the training part — recorded as system:cli with the examples' provenance and the held-out
// targets its backtest is to judge.

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

/** What was recorded, as `--json` prints it. */
interface Tuned {
  workspace: string;
  seq: number;
  candidate: string;
  tunedFrom: string;
  split: { reviewed: number; training: number; heldOut: number };
  examples: { target: string; reviewersLabel: string; judgeLabel: string }[];
  disagreements: { inTraining: number; chosen: number };
}

export async function tuneJudge(terminal: Terminal, base: string, options: TuneOptions) {
  if (!EvaluatorId.safeParse(base).success) {
    usage(`a judge version is written name@version, not ${base}`);
  }
  const { config, app } = await appOf(options, terminal);
  const tuned = await withStore(
    config,
    async (store) => {
      const workspace = await oneWorkspace(store, options.workspace);
      const family = judgeFamilyOf(app.evaluators.get(parseEvaluatorId(base)), base);
      const { targets, judgeSide } = await asUsage(() =>
        readReviewedTargets(store, app, {
          workspaceId: workspace,
          judge: base,
          field: options.field ?? judgeFieldOf(options.against),
          against: options.against,
        }),
      );
      const { split, choice } = tuningOf(targets, options);
      const version = options.as ?? (await nextVersion(store, workspace, family.name));
      const candidate = asTuningUsage(() =>
        candidateVersion(
          {
            judge: family.name,
            version,
            rubric: family.rubric,
            model: family.model,
            feedbackType: judgeSide.type.name,
            tunedFrom: family.version,
            recordedBy: CLI_ACTOR,
            recordedAt: new Date().toISOString(),
          },
          split,
          choice,
        ),
      );
      const { recordedBy: _by, recordedAt: _at, ...judge_version } = candidate;
      const outcome = await store.execute({
        workspace_id: workspace,
        actor: CLI_ACTOR,
        command: { type: 'record_judge_version', judge_version },
      });
      if (outcome.type !== 'recorded') usage(`${workspace}: ${outcome.message}`);
      return tunedOf(workspace, outcome.events[0]?.seq ?? 0, judge_version, split, choice);
    },
    app,
  );
  const print = printTo(terminal);
  if (options.json) return print(JSON.stringify(tuned));
  printTuned(tuned, print);
}

/** The declared version's judge family: its rubric and model, which tuning starts from. */
function judgeFamilyOf(evaluator: Evaluator | undefined, base: string) {
  if (evaluator === undefined) usage(`${base} is not deployed: it is not in the app's evaluators`);
  if (evaluator.judge === undefined) {
    usage(`${base} is no LLM judge: only a judge with a rubric and a model can be tuned`);
  }
  const { rubric, model } = evaluator.judge;
  return { name: evaluator.name, version: evaluator.version, rubric, model };
}

/** The split and the examples, a bad option or too few targets said as usage. */
function tuningOf(targets: Parameters<typeof splitTargets>[0], options: TuneOptions) {
  return asTuningUsage(() => {
    const seed = options.seed === undefined ? {} : { seed: options.seed };
    const split = splitTargets(targets, {
      ...seed,
      ...(options.heldOutShare === undefined ? {} : { heldOutShare: options.heldOutShare }),
    });
    const choice = chooseExamples(split, {
      ...seed,
      ...(options.maxExamples === undefined ? {} : { maxExamples: options.maxExamples }),
    });
    return { split, choice };
  });
}

function asTuningUsage<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (
      error instanceof TooFewTargetsError ||
      error instanceof InvalidTuningOptionError ||
      error instanceof InvalidReviewedTargetsError ||
      error instanceof InvalidJudgeVersionError
    ) {
      return usage(error.message);
    }
    throw error;
  }
}

/** `tuned-{n}`, the first n no version of the judge recorded in the workspace takes. */
async function nextVersion(
  store: Pick<EvaluationRecords, 'judgeVersions'>,
  workspace: string,
  judge: string,
): Promise<string> {
  const taken = new Set(
    (await store.judgeVersions.list(workspace))
      .filter((version) => version.judge === judge)
      .map((version) => version.version),
  );
  let n = 1;
  while (taken.has(`tuned-${n}`)) n += 1;
  return `tuned-${n}`;
}

function tunedOf(
  workspace: string,
  seq: number,
  version: JudgeVersionData,
  split: TuningSplit,
  choice: ExampleChoice,
): Tuned {
  return {
    workspace,
    seq,
    candidate: `${version.judge}@${version.version}`,
    tunedFrom: `${version.judge}@${version.tunedFrom}`,
    split: {
      reviewed: split.training.length + split.heldOut.length,
      training: split.training.length,
      heldOut: split.heldOut.length,
    },
    examples: version.examples.map((example) => ({
      target: targetKey(example.target),
      reviewersLabel: example.reviewersLabel,
      judgeLabel: example.judgeLabel,
    })),
    disagreements: { inTraining: choice.disagreements, chosen: choice.disagreementsChosen },
  };
}

function printTuned(tuned: Tuned, print: Print): void {
  print(
    `recorded ${tuned.candidate}, tuned from ${tuned.tunedFrom}, in ${tuned.workspace} (seq ${tuned.seq})`,
  );
  const { reviewed, training, heldOut } = tuned.split;
  print(`split: ${reviewed} reviewed targets, ${training} for training, ${heldOut} held out`);
  print(
    `examples: ${tuned.examples.length} (${tuned.disagreements.chosen} of the training part's ${tuned.disagreements.inTraining} disagreements)`,
  );
  for (const example of tuned.examples) {
    print(`  ${example.target}  reviewers ${example.reviewersLabel}  judge ${example.judgeLabel}`);
  }
}
