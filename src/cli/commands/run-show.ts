import type { Command } from 'commander';
import type { Run } from '../../core/index.js';
import type { EntityReads, EventLog } from '../../store/index.js';
import { stepsOfRun } from '../../traces/index.js';
import { wireRun, wireSteps } from '../../wire/entities.js';
import { ledgerEntries } from '../../wire/ledger-entries.js';
import { evaluationsOfRuns } from '../../wire/run-evaluations.js';
import { runVerdicts } from '../../wire/run-verdicts.js';
import { APP_OPTION, appOf, identifier, usage, withStore, workspacesOf } from '../context.js';
import { withExamples } from '../presentation/examples.js';
import { renderTable } from '../presentation/table.js';
import { valueText } from '../presentation/verdict-text.js';
import { printTo, type Terminal } from '../terminal.js';
import { targetText } from './ledger.js';

// `evalflow runs show`: one run as `GET /v1/runs/:runId` reads it — its ledger, the verdicts
// given on its turn, messages and artifact versions (values, labels, sources, evaluators), and
// its steps — as tables or as the API's JSON.

export function registerRunShow(runs: Command, terminal: Terminal): void {
  const print = printTo(terminal);
  withExamples(
    runs
      .command('show')
      .description(
        'one run: its verdicts (values, labels, sources, evaluator versions) and its ledger',
      )
      .argument('<run-id>', 'the run', identifier)
      .option(
        '--workspace <id>',
        "the run's workspace (default: the one workspace holding it)",
        identifier,
      )
      .option(...APP_OPTION)
      .option('--json', 'print the API’s JSON for the run, with `workspace`'),
    'evalflow runs show run-1 --workspace acme',
    'evalflow runs show run-1 --json',
  ).action(
    async (runId: string, options: { workspace?: string; config?: string; json?: boolean }) => {
      const { config, app } = await appOf(options, terminal);
      const shown = await withStore(
        config,
        async (store) => {
          const { workspace, run } = await findRun(store, runId, options.workspace);
          const entries = (await evaluationsOfRuns(store, workspace, [runId])).get(runId) ?? [];
          return {
            workspace,
            run: wireRun(run),
            evaluations: await ledgerEntries(store, workspace, entries),
            verdicts: await runVerdicts(store, app.feedbackTypes, workspace, run),
            ...wireSteps(await stepsOfRun(store.traceSpans, workspace, run)),
          };
        },
        app,
      );
      if (options.json) return print(JSON.stringify(shown));
      const { run } = shown;
      print(
        `run ${run.runId} in workspace ${shown.workspace}, thread ${run.threadId}: ${run.status}` +
          ` (started ${run.startedAt}, updated ${run.updatedAt})`,
      );
      print('');
      if (shown.verdicts.length === 0) print('no verdicts');
      else {
        const verdicts = renderTable(
          ['feedback type', 'target', 'label', 'value', 'source', 'by', 'given'],
          shown.verdicts.map((v) => [
            v.shadow ? `${v.feedbackType} (shadow)` : v.feedbackType,
            targetText(v.target),
            v.label,
            valueText(v.value),
            v.source.replace(/^SCORE_SOURCE_/, ''),
            v.evaluator ?? v.rater,
            v.updatedAt,
          ]),
        );
        for (const line of verdicts) print(line);
      }
      print('');
      if (shown.evaluations.length === 0) print('no ledger entries');
      else {
        const ledger = renderTable(
          ['evaluator', 'target', 'state', 'reason'],
          shown.evaluations.map((e) => [e.evaluator, targetText(e.target), e.state, e.reason]),
        );
        for (const line of ledger) print(line);
      }
      if (shown.steps.length > 0 || shown.stepsOmitted > 0) {
        print('');
        print(
          `${shown.steps.length + shown.stepsOmitted} steps (model and tool calls): see --json`,
        );
      }
    },
  );
}

/** The run and its workspace: the one named, else the only workspace that holds it. */
async function findRun(
  store: EntityReads & Pick<EventLog, 'workspaces'>,
  runId: string,
  workspace: string | undefined,
): Promise<{ workspace: string; run: Run }> {
  const found: { workspace: string; run: Run }[] = [];
  for (const candidate of await workspacesOf(store, workspace)) {
    const run = await store.run(candidate, runId);
    if (run !== null) found.push({ workspace: candidate, run });
  }
  const [only, ...more] = found;
  if (only === undefined) {
    throw new Error(
      workspace === undefined
        ? `no run ${runId} in any workspace`
        : `no run ${runId} in workspace ${workspace}`,
    );
  }
  if (more.length > 0) {
    usage(
      `run ${runId} is in workspaces ${found.map((f) => f.workspace).join(', ')}; name one with --workspace`,
    );
  }
  return only;
}
