import { type Command, Option } from 'commander';
import { evaluationStates, RunStatus } from '../../core/index.js';
import type { RunListOptions } from '../../store/index.js';
import { stepsOfRun } from '../../traces/index.js';
import { wireRun, wireSteps } from '../../wire/entities.js';
import { evaluationSummary, evaluationsOfRuns } from '../../wire/run-evaluations.js';
import {
  EVERY_WORKSPACE_OPTION,
  identifier,
  wholeNumber,
  withInstantWindow,
  withStore,
  workspacesOf,
} from '../context.js';
import { withExamples } from '../presentation/examples.js';
import { renderTable } from '../presentation/table.js';
import { configOf, printTo, type Terminal } from '../terminal.js';
import { registerRunShow } from './run-show.js';

// `evalflow runs list` and `evalflow threads list`: what the host reported, newest runs first
// with how each one's evaluation stands, as a table or as the API's JSON (`runs show`: one run).

interface RunsOptions {
  workspace?: string;
  thread?: string;
  trace?: string;
  status?: RunStatus;
  startedFrom?: string;
  startedBefore?: string;
  endedFrom?: string;
  endedBefore?: string;
  limit: number;
  json?: boolean;
}

export function registerRuns(program: Command, terminal: Terminal): void {
  const print = printTo(terminal);
  const runs = program.command('runs').description('the runs the host reported');
  const list = runs
    .command('list')
    .description('runs newest first, each with its evaluation summary (filters combine)')
    .option(...EVERY_WORKSPACE_OPTION)
    .option('--thread <id>', "only this thread's runs", identifier)
    .option('--trace <id>', "only this trace's runs (an OpenTelemetry trace id)", identifier)
    .addOption(
      new Option('--status <status>', 'only runs in this status').choices(RunStatus.options),
    );
  withInstantWindow(list, ['--started-from', '--started-before'], 'runs started');
  withInstantWindow(list, ['--ended-from', '--ended-before'], 'runs that ended');
  withExamples(
    list
      .option('--limit <n>', 'at most this many runs per workspace (default 100)', wholeNumber, 100)
      .option(
        '--json',
        'print one JSON array of {workspace, run, evaluations} (the API’s shape; by trace, with steps)',
      ),
    'evalflow runs list --workspace acme --status completed --ended-from 2026-01-01T00:00:00Z',
    'evalflow runs list --thread thread-1 --json',
  ).action(async (options: RunsOptions) => {
    const listed = await withStore(configOf(terminal), async (store) => {
      const rows = [];
      for (const workspace of await workspacesOf(store, options.workspace)) {
        const page = await store.runs(workspace, filtersOf(options));
        const evaluations = await evaluationsOfRuns(
          store,
          workspace,
          page.map((run) => run.run_id),
        );
        for (const run of page) {
          const counts = evaluationSummary(evaluations.get(run.run_id) ?? []);
          // By trace, as the API answers: each run with its steps.
          const steps =
            options.trace === undefined
              ? undefined
              : wireSteps(await stepsOfRun(store.traceSpans, workspace, run));
          rows.push({ workspace, run: wireRun(run), evaluations: counts, ...steps });
        }
      }
      return rows;
    });
    if (options.json) return print(JSON.stringify(listed));
    if (listed.length === 0) return print('no runs');
    const byTrace = options.trace !== undefined;
    const table = renderTable(
      [
        'workspace',
        'run',
        'thread',
        'status',
        'started',
        'updated',
        ...evaluationStates,
        ...(byTrace ? ['steps'] : []),
      ],
      listed.map((row) => [
        row.workspace,
        row.run.runId,
        row.run.threadId,
        row.run.status,
        row.run.startedAt,
        row.run.updatedAt,
        ...evaluationStates.map((state) => row.evaluations[state]),
        ...(row.steps === undefined ? [] : [row.steps.length + (row.stepsOmitted ?? 0)]),
      ]),
    );
    for (const line of table) print(line);
  });
  registerRunShow(runs, terminal);

  const threads = program.command('threads').description('the threads the host reported');
  withExamples(
    threads
      .command('list')
      .description('threads by id')
      .option(...EVERY_WORKSPACE_OPTION)
      .option(
        '--limit <n>',
        'at most this many threads per workspace (default 100)',
        wholeNumber,
        100,
      )
      .option('--json', 'print one JSON array of {workspace, threadId, title, createdAt, endedAt}'),
    'evalflow threads list --workspace acme',
  ).action(async (options: { workspace?: string; limit: number; json?: boolean }) => {
    const listed = await withStore(configOf(terminal), async (store) => {
      const rows = [];
      for (const workspace of await workspacesOf(store, options.workspace)) {
        for (const thread of await store.threads(workspace, { limit: options.limit })) {
          rows.push({
            workspace,
            threadId: thread.thread_id,
            title: thread.title,
            createdAt: thread.created_at,
            // When its host ended it (end_thread); null while open.
            endedAt: thread.ended_at ?? null,
          });
        }
      }
      return rows;
    });
    if (options.json) return print(JSON.stringify(listed));
    if (listed.length === 0) return print('no threads');
    const table = renderTable(
      ['workspace', 'thread', 'title', 'created', 'ended'],
      listed.map((t) => [t.workspace, t.threadId, t.title, t.createdAt, t.endedAt]),
    );
    for (const line of table) print(line);
  });
}

function filtersOf(options: RunsOptions): RunListOptions {
  const utc = (value: string | undefined) =>
    value === undefined ? undefined : new Date(value).toISOString();
  const filters = {
    thread_id: options.thread,
    trace_id: options.trace,
    status: options.status,
    started_from: utc(options.startedFrom),
    started_before: utc(options.startedBefore),
    ended_from: utc(options.endedFrom),
    ended_before: utc(options.endedBefore),
  };
  return {
    ...Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined)),
    limit: options.limit,
  };
}
