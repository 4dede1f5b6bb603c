import {
  type Actor,
  type CommandOf,
  type JudgeExample,
  type JudgeVersionData,
  parseEvaluatorId,
  type StoredJudgeVersion,
  targetKey,
} from '../core/index.js';
import type { EntityReads, EvaluationRecords, EventLog, TraceInbox } from '../store/index.js';
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
} from '../tuning/index.js';
import { judgeFieldOf } from './backtest.js';
import { invalidQuery } from './errors.js';
import { recordedJudges } from './recorded-judges.js';
import { readReviewedTargets } from './reviewed.js';
import { type AgreementApp, notDeployed } from './sides.js';

// Tuning a judge from its reviewers, read from the store: the targets both the judge version and
// the reviewers judged, split (seeded, stratified by the reviewers' label), the examples chosen
// from the training part (src/tuning), and the command that records the candidate with its
// examples' provenance and its held-out targets. The caller executes it, as a promotion's.
// A version recorded before may be the base too: the candidate starts from its rubric and model
// and keeps its examples, first; their targets are left out of the split, so none is held out.

export interface TuneRequest {
  readonly workspaceId: string;
  /** The version tuned, `judge@version`: an LLM judge the app declares, or one recorded. */
  readonly base: string;
  /** The reviewers' verdicts: `reviewers:type.field`. */
  readonly against: string;
  /** The judge's field (default: the reviewers' field's name). */
  readonly field?: string;
  /** The candidate's version (default: tuned-1, tuned-2, …, the first not recorded). */
  readonly as?: string;
  readonly heldOutShare?: number;
  readonly seed?: number;
  readonly maxExamples?: number;
  /** Who records it, and when, as its provenance says. */
  readonly by: Actor;
  readonly now: Date;
}

export interface PreparedTuning {
  readonly command: CommandOf<'record_judge_version'>;
  readonly split: TuningSplit;
  readonly choice: ExampleChoice;
  /** The examples kept from a recorded base, before the chosen ones. */
  readonly kept: number;
}

type TuningStore = EntityReads &
  EventLog &
  Pick<TraceInbox, 'traceSpans'> &
  Pick<EvaluationRecords, 'judgeVersions'>;

/**
 * Reads the reviewed targets and writes the command that records the candidate.
 *
 * @throws AgreementQueryError when the base is not a deployed LLM judge, the sides cannot be
 * read as asked, an option is bad or the targets too few (src/tuning's errors, as their message).
 */
export async function prepareTuning(
  store: TuningStore,
  app: AgreementApp,
  request: TuneRequest,
): Promise<PreparedTuning> {
  const recorded = await recordedJudges(store, app, request.workspaceId, [request.base]);
  const base = baseOf(app, request.base, recorded.get(request.base));
  const { targets, judgeSide } = await readReviewedTargets(
    store,
    app,
    {
      workspaceId: request.workspaceId,
      judge: request.base,
      field: request.field ?? judgeFieldOf(request.against),
      against: request.against,
    },
    recorded,
  );
  // What the base was taught already is neither taught again nor held out.
  const taught = new Set(base.examples.map((example) => targetKey(example.target)));
  const untaught = targets.filter((reviewed) => !taught.has(targetKey(reviewed.target)));
  const { split, choice } = asQuery(() => splitAndChoose(untaught, request));
  const version = request.as ?? (await nextVersion(store, request.workspaceId, base.name));
  const candidate = asQuery(() =>
    candidateVersion(
      {
        judge: base.name,
        version,
        rubric: base.rubric,
        model: base.model,
        feedbackType: judgeSide.type.name,
        tunedFrom: base.version,
        recordedBy: request.by,
        recordedAt: request.now.toISOString(),
      },
      split,
      { examples: [...base.examples, ...choice.examples] },
    ),
  );
  const { recordedBy: _by, recordedAt: _at, ...judge_version } = candidate;
  return {
    command: { type: 'record_judge_version', judge_version: judge_version as JudgeVersionData },
    split,
    choice,
    kept: base.examples.length,
  };
}

/** The seeded split, then the examples chosen from its training part. */
function splitAndChoose(targets: Parameters<typeof splitTargets>[0], request: TuneRequest) {
  const seed = request.seed === undefined ? {} : { seed: request.seed };
  const split = splitTargets(targets, {
    ...seed,
    ...(request.heldOutShare === undefined ? {} : { heldOutShare: request.heldOutShare }),
  });
  const choice = chooseExamples(split, {
    ...seed,
    ...(request.maxExamples === undefined ? {} : { maxExamples: request.maxExamples }),
  });
  return { split, choice };
}

/** src/tuning's refusals (a bad option, too few targets, a bad version) as a query's. */
function asQuery<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (
      error instanceof TooFewTargetsError ||
      error instanceof InvalidTuningOptionError ||
      error instanceof InvalidReviewedTargetsError ||
      error instanceof InvalidJudgeVersionError
    ) {
      throw invalidQuery(error.message);
    }
    throw error;
  }
}

/** What tuning starts from: a declared LLM judge's rubric and model, or a recorded version's. */
interface TuningBase {
  readonly name: string;
  readonly version: string;
  readonly rubric: string;
  readonly model: string;
  /** A recorded base's examples, which the candidate keeps. */
  readonly examples: readonly JudgeExample[];
}

function baseOf(
  app: AgreementApp,
  base: string,
  recorded: StoredJudgeVersion | undefined,
): TuningBase {
  if (recorded !== undefined) {
    const { judge, version, rubric, model, examples } = recorded;
    return { name: judge, version, rubric, model, examples };
  }
  const evaluator = app.evaluators.get(parseEvaluatorId(base));
  if (evaluator === undefined) throw notDeployed(base);
  if (evaluator.judge === undefined) {
    throw invalidQuery(
      `${base} is no LLM judge: only a judge with a rubric and a model can be tuned`,
    );
  }
  const { rubric, model } = evaluator.judge;
  return { name: evaluator.name, version: evaluator.version, rubric, model, examples: [] };
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
