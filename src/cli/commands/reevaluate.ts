import { WorkflowNotFoundError } from '@temporalio/client';
import type { Command } from 'commander';
import type { ArtifactVersionSelector } from '../../store/index.js';
import { InvalidRequestError, type ReevaluationClient } from '../../workflow-clients/index.js';
import type { ReevaluateProgress } from '../../workflows/reevaluate-messages.js';
import {
  APP_OPTION,
  appOf,
  connectTemporal,
  identifier,
  identifiers,
  instant,
  print,
  reevaluationsOf,
  usage,
  wholeNumber,
  withStore,
} from '../context.js';
import { UsageError } from '../errors.js';
import { withExamples } from '../presentation/examples.js';
import { ProgressReporter, type ProgressStream } from '../presentation/progress-bar.js';

// `evalflow reevaluate start|status|pause|resume|cancel`: batch re-evaluation of artifact
// versions over Temporal (TEMPORAL_ADDRESS, default 127.0.0.1:7233), with a live progress line.

interface StartOptions {
  workspace: string;
  evaluator: string[];
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

export function registerReevaluate(program: Command): void {
  const reevaluate = program
    .command('reevaluate')
    .description(
      'judge artifact versions again with pinned evaluator versions, as a new generation of verdicts',
    );

  withExamples(
    reevaluate
      .command('start')
      .description('start a batch and print its id; --watch follows it to the end')
      .requiredOption(...WORKSPACE, identifier)
      .requiredOption(
        '--evaluator <name@version...>',
        'the evaluator versions to judge with (one or more)',
      )
      .option('--kind <kind>', 'only artifact versions of this kind', identifier)
      .option('--artifact <id...>', 'only these artifacts', identifiers)
      .option('--latest-only', "only each artifact's latest version")
      .option('--created-from <instant>', 'only versions put at or after this instant', instant)
      .option('--created-to <instant>', 'only versions put before this instant', instant)
      .option('--all', 'every artifact version in the workspace (when no other selector is given)')
      .option(
        '--batch <id>',
        'the batch id (default: a new UUIDv7); the same id skips what it settled',
        identifier,
      )
      .option('--concurrency <n>', 'evaluations in flight at once (default 8)', wholeNumber)
      .option('--watch', 'show progress until the batch completes')
      .option(...APP_OPTION)
      .option(
        '--json',
        'print one JSON object {batchId} (with --watch, {batchId, progress} once it completes)',
      ),
    'evalflow reevaluate start --workspace acme --evaluator artifact_schema@2 --kind invoice --watch',
    'evalflow reevaluate start --workspace acme --evaluator json_validity@1 --artifact report-1 report-2',
  ).action(async (options: StartOptions) => {
    const selector = selectorOf(options);
    await withBatches(options, async (batches) => {
      let batchId: string;
      try {
        ({ batchId } = await batches.start(options.workspace, {
          selector,
          evaluators: options.evaluator,
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
      const progress = await follow(batches, options.workspace, batchId, !options.json);
      print(options.json ? JSON.stringify({ batchId, progress }) : totals(progress));
    });
  });

  withExamples(
    reevaluate
      .command('status')
      .description("a batch's progress; --watch follows it to the end")
      .argument('<batch>', 'the batch id `start` printed')
      .requiredOption(...WORKSPACE, identifier)
      .option('--watch', 'show progress until the batch completes')
      .option(...APP_OPTION)
      .option('--json', 'print one JSON object {batchId, progress}'),
    'evalflow reevaluate status 0193f1c2-a8e0-7b3c-9d2e-4f5a6b7c8d9e --workspace acme --watch',
  ).action(async (batchId: string, options: BatchOptions & { watch?: boolean }) => {
    await withBatches(options, async (batches) => {
      const now = await progressOf(batches, options.workspace, batchId);
      const following = options.watch === true && !finished(now);
      const progress = following
        ? await follow(batches, options.workspace, batchId, !options.json)
        : now;
      if (options.json) return print(JSON.stringify({ batchId, progress }));
      if (!following) print(plainProgress(batchId, progress));
      print(totals(progress));
    });
  });

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
    ).action(async (batchId: string, options: BatchOptions) => {
      await withBatches(options, async (batches) => {
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
    });
  }
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
  work: (batches: ReevaluationClient) => Promise<void>,
): Promise<void> {
  const { config, app } = await appOf(options);
  // The store's id scopes the batches' workflow ids.
  const store = await withStore(config, async (opened) => ({ id: opened.id }));
  const temporal = await connectTemporal(config);
  try {
    await work(reevaluationsOf(temporal.client, store, config, app));
  } finally {
    await temporal.close();
  }
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

/** Whether nothing more will settle (a batch still counting its versions has total 0). */
const finished = (progress: ReevaluateProgress) =>
  progress.inFlight === 0 &&
  (progress.cancelled || (progress.total > 0 && progress.done >= progress.total));

/** Shows progress on stdout (a redrawn line on a terminal) until the batch completes. */
async function follow(
  batches: ReevaluationClient,
  workspace: string,
  batchId: string,
  show: boolean,
  stream: ProgressStream = process.stdout,
): Promise<ReevaluateProgress> {
  const reporter = new ProgressReporter(stream, batchId);
  const result = await batches.watch(
    workspace,
    batchId,
    (progress) => {
      if (show) reporter.update(progress);
    },
    WATCH_INTERVAL_MS,
  );
  if (show) reporter.finish(result);
  return result;
}

function plainProgress(batchId: string, progress: ReevaluateProgress): string {
  const state = progress.cancelled ? 'cancelled' : progress.paused ? 'paused' : 'running';
  return (
    `${batchId}: ${progress.done}/${progress.total} done, ${progress.inFlight} in flight, ` +
    `${progress.failed} failed, ${finished(progress) && !progress.cancelled ? 'complete' : state}`
  );
}

const totals = (progress: ReevaluateProgress) =>
  `recorded ${progress.recorded}, sampled out ${progress.sampledOut}, failed ${progress.failed}, ` +
  `skipped ${progress.skipped}`;
