import { WorkflowNotFoundError } from '@temporalio/client';
import { type Command, InvalidArgumentError } from 'commander';
import {
  counted,
  EvaluatorId,
  RunStatus,
  spendAndLimitText,
  type Target,
  usdOf,
  usdPlaces,
  usdShownPlaces,
  usdText,
} from '../../core/index.js';
import {
  type ArtifactVersionSelector,
  type BackfillKind,
  type BackfillSelection,
  backfillKinds,
} from '../../store/index.js';
import {
  type CostBasis,
  DEFAULT_ATTEMPT_MS,
  InvalidRequestError,
  previewReevaluation,
  type ReevaluationClient,
  type ReevaluationPreview,
  waitingOnBudget,
  wirePreview,
} from '../../workflow-clients/index.js';
import type { ReevaluateProgress } from '../../workflows/reevaluate-messages.js';
import {
  APP_OPTION,
  appOf,
  connectTemporal,
  fraction,
  identifier,
  identifiers,
  instant,
  reevaluationsOf,
  usage,
  usdAmount,
  wholeNumber,
  withInstantWindow,
  withStore,
} from '../context.js';
import { UsageError } from '../errors.js';
import { withExamples } from '../presentation/examples.js';
import { CLI_INVOCATION } from '../presentation/invocation.js';
import {
  type BatchProgress,
  duration as durationText,
  ProgressReporter,
  type ProgressStream,
} from '../presentation/progress-bar.js';
import { ExitCode, printTo, type Terminal } from '../terminal.js';

// `evalflow reevaluate start|status|pause|resume|budget|cancel`: batch re-evaluation of artifact
// versions, or a backfill of runs (turns), messages or threads, over Temporal (TEMPORAL_ADDRESS,
// default 127.0.0.1:7233), with a preview (`--dry-run`), a budget and a live progress line.

const targetKinds = ['artifact', ...backfillKinds] as const;

interface StartOptions {
  workspace: string;
  evaluator: string[];
  target: (typeof targetKinds)[number];
  thread?: string[];
  endedFrom?: string;
  endedTo?: string;
  status?: string[];
  sample?: number;
  limit?: number;
  unjudged?: boolean;
  heldOutOf?: string;
  maxCostUsd?: number;
  dryRun?: boolean;
  kind?: string;
  artifact?: string[];
  latestOnly?: boolean;
  createdFrom?: string;
  createdTo?: string;
  all?: boolean;
  batch?: string;
  concurrency?: number;
  watch?: boolean;
  config?: string;
  json?: boolean;
}

interface BatchOptions {
  workspace: string;
  config?: string;
  json?: boolean;
}

const WORKSPACE = ['--workspace <id>', 'the workspace the batch runs in'] as const;
/** How often `--watch` asks for progress. */
const WATCH_INTERVAL_MS = 500;
/** `--watch`'s exit code when the batch's budget paused it: it waits for a higher one. */
export const BUDGET_PAUSED_EXIT_CODE = 3;
const WATCH_HELP =
  'show progress until the batch completes, or until its budget pauses it (then say how to raise the budget, and exit 3)';

export function registerReevaluate(program: Command, terminal: Terminal): void {
  const reevaluate = program
    .command('reevaluate')
    .description(
      'judge artifact versions, runs, messages or threads again with pinned evaluator versions, as a new generation of verdicts',
    );

  registerStart(reevaluate, terminal);

  withExamples(
    reevaluate
      .command('status')
      .description(
        "a batch's progress; --watch follows it until it completes or its budget pauses it",
      )
      .argument('<batch>', 'the batch id `start` printed')
      .requiredOption(...WORKSPACE, identifier)
      .option('--watch', WATCH_HELP)
      .option(...APP_OPTION)
      .option('--json', 'print one JSON object {batchId, progress}'),
    'evalflow reevaluate status 0193f1c2-a8e0-7b3c-9d2e-4f5a6b7c8d9e --workspace acme --watch',
  ).action((batchId: string, options: BatchOptions & { watch?: boolean }) =>
    batchStatus(terminal, batchId, options),
  );

  withExamples(
    reevaluate
      .command('budget')
      .description(
        "set a budgeted batch's budget; a batch paused by its budget resumes when it is above the spend",
      )
      .argument('<batch>', 'the batch id')
      .requiredOption(...WORKSPACE, identifier)
      .requiredOption('--max-cost-usd <usd>', 'the new budget', usdAmount)
      .option(...APP_OPTION)
      .option('--json', 'print one JSON object {batchId, progress}: the progress after the change'),
    'evalflow reevaluate budget 0193f1c2-a8e0-7b3c-9d2e-4f5a6b7c8d9e --workspace acme --max-cost-usd 40',
  ).action((batchId: string, options: BatchOptions & { maxCostUsd: number }) =>
    setBatchBudget(terminal, batchId, options),
  );

  for (const [action, description] of [
    ['pause', 'pause a batch: evaluations in flight finish, no new ones start'],
    ['resume', 'resume a paused batch'],
    ['cancel', 'cancel a batch: evaluations in flight finish, and it completes with its progress'],
  ] as const) {
    withExamples(
      reevaluate
        .command(action)
        .description(description)
        .argument('<batch>', 'the batch id')
        .requiredOption(...WORKSPACE, identifier)
        .option(...APP_OPTION)
        .option(
          '--json',
          'print one JSON object {batchId, progress}: the progress after the signal',
        ),
      `evalflow reevaluate ${action} 0193f1c2-a8e0-7b3c-9d2e-4f5a6b7c8d9e --workspace acme`,
    ).action((batchId: string, options: BatchOptions) =>
      signalBatch(terminal, action, batchId, options),
    );
  }
}

/** `reevaluate start`, the one command with a selection's flags. */
function registerStart(reevaluate: Command, terminal: Terminal): void {
  withExamples(
    withInstantWindow(
      reevaluate
        .command('start')
        .description(
          'start a batch and print its id; --watch follows it until it completes or its budget pauses it, --dry-run previews it',
        )
        .requiredOption(...WORKSPACE, identifier)
        .requiredOption(
          '--evaluator <name@version...>',
          'the evaluator versions to judge with (one or more)',
        )
        .option('--kind <kind>', 'only artifact versions of this kind', identifier)
        .option('--artifact <id...>', 'only these artifacts', identifiers)
        .option('--latest-only', "only each artifact's latest version"),
      ['--created-from', '--created-to'],
      'versions put',
    )
      .option(
        '--all',
        'every target of its kind in the workspace (when no other selector is given)',
      )
      .option(
        '--target <kind>',
        `what to judge: ${targetKinds.join(', ')} (default artifact; turn is a run)`,
        targetKind,
        'artifact',
      )
      .option('--thread <id...>', 'runs, messages or threads of these threads only', identifiers)
      .option('--ended-from <instant>', 'only targets whose run ended at or after this', instant)
      .option('--ended-to <instant>', 'only targets whose run ended before this', instant)
      .option('--status <status...>', `only runs in these states (${RunStatus.options.join(', ')})`)
      .option('--sample <fraction>', 'judge this share of the selection (deterministic)', fraction)
      .option('--limit <n>', 'at most this many targets', wholeNumber)
      .option('--unjudged', 'leave out what each version has recorded a verdict on already')
      .option(
        '--held-out-of <name@version>',
        'only the held-out targets of a judge version recorded in the workspace (its backtest’s)',
      )
      .option('--max-cost-usd <usd>', 'pause the batch when its spend reaches this', usdAmount)
      .option('--dry-run', 'print the targets, estimated cost and duration; start nothing')
      .option(
        '--batch <id>',
        'the batch id (default: a new UUIDv7); the same id skips what it settled',
        identifier,
      )
      .option('--concurrency <n>', 'evaluations in flight at once (default 8)', wholeNumber)
      .option('--watch', WATCH_HELP)
      .option(...APP_OPTION)
      .option(
        '--json',
        'print one JSON object {batchId} (with --watch, {batchId, progress} once it completes or its budget pauses it)',
      ),
    'evalflow reevaluate start --workspace acme --evaluator artifact_schema@2 --kind invoice --watch',
    'evalflow reevaluate start --workspace acme --evaluator json_validity@1 --artifact report-1 report-2',
    'evalflow reevaluate start --workspace acme --evaluator helpful@3 --target turn --ended-from 2026-11-01T00:00:00Z --unjudged --dry-run',
    'evalflow reevaluate start --workspace acme --evaluator helpful@3 --target message --sample 0.1 --max-cost-usd 20 --watch',
    'evalflow reevaluate start --workspace acme --evaluator llm_judge@1 llm_judge@tuned-1 --target message --held-out-of llm_judge@tuned-1 --unjudged --watch',
  ).action((options: StartOptions) => startBatch(terminal, options));
}

/** `reevaluate start`: previews a batch (`--dry-run`), or starts it and follows it (`--watch`). */
async function startBatch(terminal: Terminal, options: StartOptions) {
  const print = printTo(terminal);
  const chosen = selectionOf(options, await heldOutTargets(options, terminal));
  if (options.dryRun) {
    if (options.watch || options.batch || options.maxCostUsd !== undefined) {
      usage('--dry-run starts nothing: drop --watch, --batch and --max-cost-usd');
    }
    return preview(options, chosen, terminal);
  }
  await withBatches(options, terminal, async (batches) => {
    let batchId: string;
    try {
      ({ batchId } = await batches.start(options.workspace, {
        ...chosen,
        evaluators: options.evaluator,
        ...(options.maxCostUsd !== undefined ? { maxCostUsd: options.maxCostUsd } : {}),
        ...(options.batch ? { batchId: options.batch } : {}),
        ...(options.concurrency ? { concurrency: options.concurrency } : {}),
      }));
    } catch (error) {
      if (error instanceof InvalidRequestError) usage(error.message);
      if ((error as Error).name === 'WorkflowExecutionAlreadyStartedError') {
        usage(`batch ${options.batch} is running already in ${options.workspace}`);
      }
      throw error;
    }
    if (!options.watch) {
      return print(options.json ? JSON.stringify({ batchId }) : batchId);
    }
    if (!options.json) print(`batch ${batchId}`);
    const progress = await follow(
      batches,
      options.workspace,
      batchId,
      !options.json,
      terminal.stdout,
      TARGET_NOUNS[options.target],
    );
    print(options.json ? JSON.stringify({ batchId, progress }) : totals(progress));
    stopIfWaitingOnBudget(progress, batchId, options, terminal);
  });
}

/** `reevaluate status`: a batch's progress, followed with `--watch`. */
async function batchStatus(
  terminal: Terminal,
  batchId: string,
  options: BatchOptions & { watch?: boolean },
) {
  const print = printTo(terminal);
  await withBatches(options, terminal, async (batches) => {
    const now = await progressOf(batches, options.workspace, batchId);
    // Asked of Temporal: the progress reads done a moment before the batch's last spend is read.
    const following =
      options.watch === true && (await batches.finished(options.workspace, batchId)) === false;
    const progress = following
      ? await follow(batches, options.workspace, batchId, !options.json, terminal.stdout)
      : now;
    if (options.json) print(JSON.stringify({ batchId, progress }));
    else {
      if (!following) print(plainProgress(batchId, progress));
      print(totals(progress));
    }
    if (options.watch) stopIfWaitingOnBudget(progress, batchId, options, terminal);
  });
}

/** `reevaluate budget`: sets a budgeted batch's budget. */
async function setBatchBudget(
  terminal: Terminal,
  batchId: string,
  options: BatchOptions & { maxCostUsd: number },
) {
  const print = printTo(terminal);
  await withBatches(options, terminal, async (batches) => {
    const before = await progressOf(batches, options.workspace, batchId);
    if (before.maxCostNanos == null) usage(`batch ${batchId} was started without a budget`);
    try {
      await batches.setBudget(options.workspace, batchId, options.maxCostUsd);
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) usage(`batch ${batchId} has finished`);
      throw error;
    }
    const progress = await progressOf(batches, options.workspace, batchId);
    if (options.json) return print(JSON.stringify({ batchId, progress }));
    print(`budget set: ${plainProgress(batchId, progress)}`);
  });
}

/** `reevaluate pause|resume|cancel`: signals a batch, and prints its progress after. */
async function signalBatch(
  terminal: Terminal,
  action: 'pause' | 'resume' | 'cancel',
  batchId: string,
  options: BatchOptions,
) {
  const print = printTo(terminal);
  await withBatches(options, terminal, async (batches) => {
    await progressOf(batches, options.workspace, batchId);
    try {
      await batches[action](options.workspace, batchId);
    } catch (error) {
      // Temporal refuses a signal to a batch that has completed.
      if (error instanceof WorkflowNotFoundError) usage(`batch ${batchId} has finished`);
      throw error;
    }
    const progress = await progressOf(batches, options.workspace, batchId);
    if (options.json) return print(JSON.stringify({ batchId, progress }));
    print(`${action} sent: ${plainProgress(batchId, progress)}`);
  });
}

function targetKind(value: string): StartOptions['target'] {
  const kind = targetKinds.find((known) => known === value);
  if (kind === undefined) {
    throw new InvalidArgumentError(`a target is one of ${targetKinds.join(', ')}, not ${value}`);
  }
  return kind;
}

/** `--held-out-of`: the targets a judge version recorded in the workspace held out, if named. */
async function heldOutTargets(
  options: StartOptions,
  terminal: Terminal,
): Promise<Target[] | undefined> {
  const id = options.heldOutOf;
  if (id === undefined) return undefined;
  if (!EvaluatorId.safeParse(id).success) {
    usage(`--held-out-of names a judge version as name@version, not ${id}`);
  }
  const { config, app } = await appOf(options, terminal);
  const version = await withStore(
    config,
    (store) => store.judgeVersions.get(options.workspace, id),
    app,
  );
  if (version === null) usage(`${id} is not a judge version recorded in ${options.workspace}`);
  return version.heldOut;
}

/** The artifact versions (`selector`) or the backfill (`selection`) the flags name. */
function selectionOf(
  options: StartOptions,
  heldOut: Target[] | undefined,
): { selector: ArtifactVersionSelector } | { selection: BackfillSelection } {
  const backfillFlags = {
    '--thread': options.thread,
    '--ended-from': options.endedFrom,
    '--ended-to': options.endedTo,
    '--status': options.status,
    '--sample': options.sample,
    '--limit': options.limit,
    '--unjudged': options.unjudged,
    '--held-out-of': options.heldOutOf,
  };
  if (options.target === 'artifact') {
    const given = Object.entries(backfillFlags).filter(([, value]) => value !== undefined);
    if (given.length > 0) {
      usage(`${given.map(([flag]) => flag).join(', ')}: for --target turn, message or thread`);
    }
    return { selector: selectorOf(options) };
  }
  const artifactFlags = [options.kind, options.artifact, options.latestOnly, options.createdFrom];
  if ([...artifactFlags, options.createdTo].some((value) => value !== undefined)) {
    usage('--kind, --artifact, --latest-only, --created-from and --created-to select artifacts');
  }
  const statuses = (options.status ?? []).map((status) => {
    const parsed = RunStatus.safeParse(status);
    if (!parsed.success) {
      usage(`a run status is one of ${RunStatus.options.join(', ')}, not ${status}`);
    }
    return parsed.data;
  });
  const selection: BackfillSelection = {
    kind: options.target satisfies BackfillKind,
    ...(options.thread ? { threadIds: options.thread } : {}),
    ...(options.endedFrom ? { endedFrom: options.endedFrom } : {}),
    ...(options.endedTo ? { endedTo: options.endedTo } : {}),
    ...(options.status ? { statuses } : {}),
    ...(options.sample !== undefined ? { sampleFraction: options.sample } : {}),
    ...(options.limit !== undefined ? { limit: options.limit } : {}),
    ...(options.unjudged ? { unjudgedOnly: true } : {}),
    ...(heldOut ? { targets: heldOut } : {}),
  };
  const narrowed = Object.keys(selection).length > 1;
  if (narrowed && options.all) usage('--all selects every target: give it alone, or drop it');
  if (!narrowed && !options.all) {
    usage(
      'select the targets: --thread, --ended-from, --ended-to, --status, --sample, --limit, --unjudged or --held-out-of, or --all for every one',
    );
  }
  return { selection };
}

/** `--dry-run`: what the batch would judge, cost and take, read from the store. */
async function preview(
  options: StartOptions,
  chosen: ReturnType<typeof selectionOf>,
  terminal: Terminal,
): Promise<void> {
  const print = printTo(terminal);
  const { config, app } = await appOf(options, terminal);
  const result = await withStore(config, async (store) => {
    try {
      return await previewReevaluation(
        { store, evaluators: app.evaluators, limits: app.evaluatorLimits, pricing: app.pricing },
        options.workspace,
        {
          ...chosen,
          evaluators: options.evaluator,
          ...(options.concurrency ? { concurrency: options.concurrency } : {}),
        },
      );
    } catch (error) {
      if (error instanceof InvalidRequestError) usage(error.message);
      throw error;
    }
  });
  if (options.json) return print(JSON.stringify(wirePreview(result)));
  for (const line of previewLines(result, options.target)) print(line);
}

/** What a batch of `--target kind` judges, in the plural. */
const TARGET_NOUNS: Record<StartOptions['target'], string> = {
  artifact: 'artifact versions',
  turn: 'turns',
  message: 'messages',
  thread: 'threads',
};

const money = (nanos: number | null) => (nanos === null ? 'unknown' : usdText(usdOf(nanos)));
const took = (ms: number) => durationText(ms / 1000);

/** What a cost per evaluation is from, when it is not the version's own recorded mean. */
const COST_BASIS_WORDS: Record<CostBasis, string> = {
  recorded: '',
  base: ' (through its base’s calls: none of its own recorded in this workspace)',
  declared: ' (its declared estimatedCostUsd: none of its own recorded in this workspace)',
  unknown: '',
};

/**
 * A dry run's lines: what it counts, each version's evaluations with its cost and duration, and
 * the batch's; an estimate there is none of says why (nothing of the version measured in this
 * workspace yet, and, for its cost, no estimate declared), and a duration says what it is from.
 */
export function previewLines(
  preview: ReevaluationPreview,
  target: StartOptions['target'],
): string[] {
  const noun = TARGET_NOUNS[target];
  const uncosted = preview.versions.filter((v) => v.costNanos === null).map((v) => v.evaluator);
  return [
    `${preview.targets} ${preview.targets === 1 ? noun.replace(/s$/, '') : noun}`,
    ...preview.versions.map((version) => {
      const cost =
        version.costNanos === null
          ? ', cost not estimated: no cost of it recorded in this workspace, and it declares no estimatedCostUsd'
          : ` × ${money(version.costPerEvaluationNanos)} = ${money(version.costNanos)}${COST_BASIS_WORDS[version.costBasis]}`;
      const basis =
        version.durationBasis === 'recorded'
          ? `from ${counted(version.recordedAttempts, 'recorded attempt')}`
          : `by default: no attempt of it recorded in this workspace, ${took(DEFAULT_ATTEMPT_MS)} an attempt assumed`;
      return `${version.evaluator}: ${counted(version.targets, 'evaluation')}${cost}, about ${took(version.durationMs)} ${basis}`;
    }),
    `estimated cost ${
      preview.costNanos === null
        ? `none (${uncosted.join(', ')} not estimated)`
        : money(preview.costNanos)
    }, duration ${took(preview.durationMs)}${preview.durationBasis === 'default' ? ' (by default)' : ''}`,
  ];
}

function selectorOf(options: StartOptions): ArtifactVersionSelector {
  const selector: ArtifactVersionSelector = {
    ...(options.artifact ? { artifactIds: options.artifact } : {}),
    ...(options.kind ? { kind: options.kind } : {}),
    ...(options.createdFrom ? { createdFrom: options.createdFrom } : {}),
    ...(options.createdTo ? { createdTo: options.createdTo } : {}),
    ...(options.latestOnly ? { latestOnly: true } : {}),
  };
  const narrowed = Object.keys(selector).length > 0;
  if (narrowed && options.all) usage('--all selects every version: give it alone, or drop it');
  if (!narrowed && !options.all) {
    usage(
      'select the artifact versions: --kind, --artifact, --latest-only, --created-from or --created-to, or --all for every one',
    );
  }
  return selector;
}

async function withBatches(
  options: { config?: string },
  terminal: Terminal,
  work: (batches: ReevaluationClient) => Promise<void>,
): Promise<void> {
  const { config, app } = await appOf(options, terminal);
  // The store's id scopes the batches' workflow ids; its recorded judge versions may be named.
  await withStore(config, async (store) => {
    const temporal = await connectTemporal(config);
    try {
      await work(reevaluationsOf(temporal.client, store, config, app));
    } finally {
      await temporal.close();
    }
  });
}

async function progressOf(
  batches: ReevaluationClient,
  workspace: string,
  batchId: string,
): Promise<ReevaluateProgress> {
  const progress = await batches.progress(workspace, batchId);
  if (progress === null) throw new UsageError(`no batch ${batchId} in workspace ${workspace}`);
  return progress;
}

/** Whether nothing more will settle (a batch still counting its targets has total 0). */
const finished = (progress: ReevaluateProgress) =>
  progress.inFlight === 0 &&
  (progress.cancelled || (progress.total > 0 && progress.done >= progress.total));

/** Shows progress on stdout (a redrawn line on a terminal) until the batch completes. */
async function follow(
  batches: ReevaluationClient,
  workspace: string,
  batchId: string,
  show: boolean,
  stream: ProgressStream,
  /** What the batch judges, in the plural, when known (`turns`). */
  what?: string,
): Promise<ReevaluateProgress> {
  const reporter = new ProgressReporter(stream, batchId, Date.now, what);
  const result = await batches.watch(
    workspace,
    batchId,
    (progress) => {
      if (show) reporter.update(shown(progress));
    },
    WATCH_INTERVAL_MS,
    waitingOnBudget,
  );
  if (show) reporter.finish(shown(result), !waitingOnBudget(result));
  return result;
}

/**
 * Ends a watch on a batch its budget paused: says what to do next (the command that raises the
 * budget, by the spend so far enough to finish it) and exits `BUDGET_PAUSED_EXIT_CODE`.
 */
function stopIfWaitingOnBudget(
  progress: ReevaluateProgress,
  batchId: string,
  options: BatchOptions,
  terminal: Terminal,
): void {
  if (!waitingOnBudget(progress) || progress.maxCostNanos == null) return;
  const print = printTo(terminal);
  const spent = progress.spentNanos ?? 0;
  const command = [
    `${CLI_INVOCATION} reevaluate budget`,
    batchId,
    '--workspace',
    options.workspace,
    '--max-cost-usd',
    budgetToFinish(progress, spent, progress.maxCostNanos),
    ...(options.config ? ['--config', shellWord(options.config)] : []),
  ].join(' ');
  if (!options.json) {
    print(
      `paused by its budget: ${spendOf(spent, progress.maxCostNanos)} spent, ` +
        `${progress.done}/${progress.total} done; it goes on when its budget is above the spend`,
    );
    print(`raise it (this one finishes the batch at its spend so far): ${command}`);
  }
  throw new ExitCode(BUDGET_PAUSED_EXIT_CODE);
}

/**
 * The budget that finishes the batch at its spend per settled target so far, rounded up to the
 * places the budget is printed with (twice the budget when nothing has settled to go by).
 */
function budgetToFinish(progress: ReevaluateProgress, spent: number, budget: number): string {
  const places = usdShownPlaces(usdOf(budget), usdPlaces(usdOf(budget)));
  const measured = progress.done > 0 && spent > 0 && progress.total > progress.done;
  const projected = measured ? (spent * progress.total) / progress.done : 2 * budget;
  const unit = 10 ** (9 - places);
  return usdOf(Math.ceil(Math.round(projected) / unit) * unit).toFixed(places);
}

/** A word as a POSIX shell reads it back. */
const shellWord = (word: string) =>
  /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;

/** `$0.0011 of $0.0010`. */
const spendOf = (spentNanos: number, budgetNanos: number) =>
  spendAndLimitText(usdOf(spentNanos), usdOf(budgetNanos)).join(' of ');

/** The workflow's progress as a line shows it: spend in USD, for a batch with a budget. */
function shown(progress: ReevaluateProgress): BatchProgress {
  return {
    ...progress,
    ...(progress.maxCostNanos != null
      ? { spentUsd: usdOf(progress.spentNanos ?? 0), maxCostUsd: usdOf(progress.maxCostNanos) }
      : {}),
    pausedBy: progress.pausedBy ?? null,
  };
}

function plainProgress(batchId: string, progress: ReevaluateProgress): string {
  const paused = progress.pausedBy === 'budget' ? 'paused by its budget' : 'paused';
  const state = progress.cancelled ? 'cancelled' : progress.paused ? paused : 'running';
  const spend =
    progress.maxCostNanos == null
      ? ''
      : `spent ${spendOf(progress.spentNanos ?? 0, progress.maxCostNanos)}, `;
  return (
    `${batchId}: ${progress.done}/${progress.total} done, ${progress.inFlight} in flight, ` +
    `${progress.failed} failed, ${spend}${finished(progress) && !progress.cancelled ? 'complete' : state}`
  );
}

const totals = (progress: ReevaluateProgress) =>
  `recorded ${progress.recorded}, sampled out ${progress.sampledOut}, failed ${progress.failed}, ` +
  `skipped ${progress.skipped}`;
