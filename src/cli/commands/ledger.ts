import { type Command, Option } from 'commander';
import {
  type EvaluationState,
  type EvaluationTarget,
  evaluationStates,
  type FeedbackTypeRegistry,
  targetKey,
} from '../../core/index.js';
import type {
  EntityReads,
  EvaluationEntry,
  EvaluationRecords,
  EventLog,
} from '../../store/index.js';
import { targetOf, type WireTarget } from '../../wire/entities.js';
import {
  byGeneration,
  type LedgerEntry,
  ledgerEntries,
  runOfTarget,
} from '../../wire/ledger-entries.js';
import { labelOf } from '../../wire/run-verdicts.js';
import {
  APP_OPTION,
  appOf,
  EVERY_WORKSPACE_OPTION,
  identifier,
  withStore,
  workspacesOf,
} from '../context.js';
import { withExamples } from '../presentation/examples.js';
import { renderTable } from '../presentation/table.js';
import { valueText } from '../presentation/verdict-text.js';
import { configOf, printTo, type Terminal } from '../terminal.js';
import { costText } from './costs.js';

// `evalflow ledger`: the evaluation ledger, one final state per (target, evaluator version,
// generation) with its reason, as a table or as the API's JSON entries.

type Listed = LedgerEntry & { workspace: string };
/** With `--values`: a recorded entry's verdict, its value and label (null on any other state). */
type WithValue = Listed & { value: Record<string, unknown> | null; label: string | null };

export function registerLedger(program: Command, terminal: Terminal): void {
  const print = printTo(terminal);
  withExamples(
    program
      .command('ledger')
      .description(
        'the evaluation ledger: each (target, evaluator version, generation) with its state and reason',
      )
      .option(...EVERY_WORKSPACE_OPTION)
      .option(
        '--run <id>',
        "only a run's own evaluation: its turn, its messages, the artifact versions it produced",
        identifier,
      )
      .option(
        '--thread <id>',
        "only a thread's own evaluation: each generation its evaluators judged",
        identifier,
      )
      .addOption(
        new Option('--state <state>', 'only entries in this state').choices(evaluationStates),
      )
      .option(
        '--generation <id>',
        "only one generation: `run`, a re-evaluation's batch id, or a thread's `thread:{seq}`",
      )
      .option(
        '--values',
        "each recorded verdict's value and label too (`value`, `label` in --json; from the app)",
      )
      .option(...APP_OPTION)
      .option('--json', 'print one JSON array of entries (the API’s shape, with `workspace`)'),
    'evalflow ledger --workspace acme --state failed',
    'evalflow ledger --run run-1 --values',
    'evalflow ledger --run run-1 --json',
    'evalflow ledger --thread thread-1',
  ).action(
    async (options: {
      workspace?: string;
      run?: string;
      thread?: string;
      state?: EvaluationState;
      generation?: string;
      values?: boolean;
      config?: string;
      json?: boolean;
    }) => {
      const entries: (Listed | WithValue)[] = options.values
        ? await withValues(options, terminal)
        : await withStore(configOf(terminal), (store) => readLedger(store, options));
      if (options.json) return print(JSON.stringify(entries));
      if (entries.length === 0) return print('no ledger entries');
      const valued = (e: Listed | WithValue) =>
        'value' in e ? [e.label, e.value === null ? null : valueText(e.value)] : [];
      const lines = renderTable(
        [
          'workspace',
          'generation',
          'evaluator',
          'target',
          'state',
          ...(options.values ? ['label', 'value'] : []),
          'reason',
          'attempts',
          'tokens in/out',
          'cost',
          'duration',
        ],
        entries.map((e) => [
          e.workspace,
          e.generation,
          e.evaluator,
          targetText(e.target),
          e.state,
          ...valued(e),
          e.reason,
          e.usage.attempts,
          `${e.usage.inputTokens}/${e.usage.outputTokens}`,
          e.usage.unpricedReports > 0
            ? `${costText(e.usage.costUsd)} + ${e.usage.unpricedReports} unpriced`
            : costText(e.usage.costUsd),
          `${e.usage.durationMs} ms`,
        ]),
      );
      for (const line of lines) print(line);
    },
  );
}

export async function readLedger(
  store: EntityReads & Pick<EvaluationRecords, 'ledger' | 'usage'> & Pick<EventLog, 'workspaces'>,
  options: {
    workspace?: string;
    run?: string;
    thread?: string;
    state?: EvaluationState;
    generation?: string;
  },
): Promise<Listed[]> {
  const listed: Listed[] = [];
  for (const workspace of await workspacesOf(store, options.workspace)) {
    const found = await store.ledger.evaluations(workspace, {
      ...(options.state ? { state: options.state } : {}),
      ...(options.generation ? { generation: options.generation } : {}),
      ...(options.thread
        ? { target_key: targetKey({ kind: 'thread', thread_id: options.thread }) }
        : {}),
    });
    // A thread's generations in the order they were judged.
    const entries = options.thread ? byGeneration(found) : found;
    const kept: EvaluationEntry[] = [];
    for (const entry of entries) {
      if (options.run !== undefined && (await runOf(store, workspace, entry)) !== options.run)
        continue;
      kept.push(entry);
    }
    for (const entry of await ledgerEntries(store, workspace, kept)) {
      listed.push({ workspace, ...entry });
    }
  }
  return listed;
}

/** The ledger with each recorded verdict's value, read with the app's feedback types. */
async function withValues(
  options: Parameters<typeof readLedger>[1] & { config?: string },
  terminal: Terminal,
): Promise<WithValue[]> {
  const { config, app } = await appOf(options, terminal);
  return withStore(
    config,
    async (store) => {
      const listed: WithValue[] = [];
      for (const entry of await readLedger(store, options)) {
        listed.push({ ...entry, ...(await verdictOf(store, app.feedbackTypes, entry)) });
      }
      return listed;
    },
    app,
  );
}

/** A recorded entry's verdict: the feedback its event gave. */
async function verdictOf(store: EntityReads, feedbackTypes: FeedbackTypeRegistry, entry: Listed) {
  const none = { value: null, label: null };
  if (entry.state !== 'recorded' || entry.eventId === null) return none;
  const given = await store.feedback(entry.workspace, { target: targetOf(entry.target) });
  const record = given.find((r) => r.id === entry.eventId);
  return record === undefined
    ? none
    : { value: record.value, label: labelOf(feedbackTypes, record) };
}

/** The run a ledger entry belongs to; an artifact version's is the run that produced it. */
async function runOf(store: EntityReads, workspace: string, entry: EvaluationEntry) {
  const target = entry.target as EvaluationTarget;
  if (target.kind !== 'artifact') return runOfTarget(target);
  return (await store.artifact(workspace, target.artifact_id, target.version))?.run_id ?? null;
}

/** `turn run-1`, `message thread-1/answer-1`, `artifact invoice-1@2`. */
export function targetText(target: WireTarget): string {
  switch (target.kind) {
    case 'turn':
      return `turn ${target.runId}`;
    case 'message':
      return `message ${target.threadId}/${target.messageId}`;
    case 'artifact':
      return `artifact ${target.artifactId}@${target.version}`;
    case 'thread':
      return `thread ${target.threadId}`;
  }
}
