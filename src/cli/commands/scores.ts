import { type Command, InvalidArgumentError } from 'commander';
import { scoreBackend } from '../../config/score-backend.js';
import { ScoreSource } from '../../core/index.js';
import { syncScoreConfigs } from '../../scores/index.js';
import { type ScoreSummaryGroup, summarizeScores } from '../../wire/score-summary.js';
import {
  APP_OPTION,
  appOf,
  EVERY_WORKSPACE_OPTION,
  withInstantWindow,
  withStore,
  workspacesOf,
} from '../context.js';
import { withExamples } from '../presentation/examples.js';
import { renderTable } from '../presentation/table.js';
import { printTo, type Terminal } from '../terminal.js';

// `evalflow scores summary`: the stored feedback's scores by population, as
// `GET /v1/scores/summary` answers them. `evalflow scores sync-configs`: the app's score configs
// into the sink (Langfuse, or the JSONL file), as the worker does at start.

type Listed = ScoreSummaryGroup & { workspace: string };

/** `HUMAN`, `human` or `SCORE_SOURCE_HUMAN`. */
function scoreSource(value: string): ScoreSource {
  const name = value.toUpperCase().replace(/^SCORE_SOURCE_/, '');
  const parsed = ScoreSource.safeParse(name);
  if (!parsed.success) {
    throw new InvalidArgumentError(`a source is one of ${ScoreSource.options.join(', ')}`);
  }
  return parsed.data;
}

export function registerScores(program: Command, terminal: Terminal): void {
  const print = printTo(terminal);
  const scores = program.command('scores').description("the feedback's scores and their configs");

  withExamples(
    withInstantWindow(
      scores
        .command('summary')
        .description(
          'counts, means and distributions of the stored feedback’s scores, by source (and evaluator version)',
        )
        .option(...EVERY_WORKSPACE_OPTION)
        .option(
          '--source <source>',
          `only one source: ${ScoreSource.options.join(', ')}`,
          scoreSource,
        )
        .option('--name <name>', 'only scores of this config name'),
      ['--from', '--to'],
      'feedback last changed',
    )
      .option(
        '--include-shadow',
        'shadow versions’ verdicts too, in groups of their own (left out by default)',
      )
      .option(...APP_OPTION)
      .option('--json', 'print one JSON array of groups (the API’s shape, with `workspace`)'),
    'evalflow scores summary --workspace acme',
    'evalflow scores summary --source HUMAN --json',
  ).action(
    async (options: {
      workspace?: string;
      source?: ScoreSource;
      name?: string;
      from?: string;
      to?: string;
      includeShadow?: boolean;
      config?: string;
      json?: boolean;
    }) => {
      const { config, app } = await appOf(options, terminal);
      const { source, name, from, to, includeShadow } = options;
      const groups = await withStore(
        config,
        async (store) => {
          const listed: Listed[] = [];
          for (const workspace of await workspacesOf(store, options.workspace)) {
            const summary = await summarizeScores(store, app.feedbackTypes, workspace, {
              source,
              name,
              from,
              to,
              includeShadow: includeShadow === true,
            });
            listed.push(...summary.map((group) => ({ workspace, ...group })));
          }
          return listed;
        },
        app,
      );
      if (options.json) return print(JSON.stringify(groups));
      if (groups.length === 0) return print('no scores');
      for (const line of summaryTable(groups)) print(line);
    },
  );

  withExamples(
    scores
      .command('sync-configs')
      .description(
        "create the app's missing score configs in the sink and archive the retired ones",
      )
      .option(...APP_OPTION)
      .option('--json', 'print one JSON object {created: [...], archived: [...]}'),
    'evalflow scores sync-configs --config evalflow.config.ts',
  ).action(async (options: { config?: string; json?: boolean }) => {
    const { config, app } = await appOf(options, terminal);
    const { configStore } = scoreBackend(config);
    const synced = await syncScoreConfigs(configStore, app.scoreConfigSync.configs, {
      retired: app.scoreConfigSync.retired,
    });
    if (options.json) return print(JSON.stringify(synced));
    const where = config.langfuse
      ? `Langfuse at ${config.langfuse.baseUrl}`
      : config.scoreConfigsFile;
    print(`score configs in ${where}:`);
    print(`created ${synced.created.length}${names(synced.created)}`);
    print(`archived ${synced.archived.length}${names(synced.archived)}`);
  });
}

const names = (list: readonly string[]) => (list.length > 0 ? `: ${list.join(', ')}` : '');

/**
 * The summary's table: one row per population; a workspace column when the rows name theirs. A
 * score of a type the app no longer declares is marked so.
 */
export function summaryTable(
  groups: readonly (ScoreSummaryGroup & { workspace?: string })[],
): string[] {
  const byWorkspace = groups.some((g) => g.workspace !== undefined);
  const columns = ['source', 'producer', 'label', 'score', 'count', 'mean', 'distribution'];
  return renderTable(
    byWorkspace ? ['workspace', ...columns] : columns,
    groups.map((g) => [
      ...(byWorkspace ? [g.workspace] : []),
      g.source.replace(/^SCORE_SOURCE_/, ''),
      g.shadow ? `${g.producer} (shadow)` : g.producer,
      g.sourceLabel,
      g.declared ? g.name : `${g.name} (not declared by the app)`,
      g.count,
      g.mean === null ? null : Number(g.mean.toFixed(3)),
      g.distribution === null
        ? null
        : Object.entries(g.distribution)
            .map(([value, n]) => `${value}:${n}`)
            .join(' '),
    ]),
  );
}
