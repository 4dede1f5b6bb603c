import type { z } from 'zod';
import type { WireRun } from '../../wire/entities.js';
import type { LedgerEntry } from '../../wire/ledger-entries.js';
import type { ScoreSummaryGroup } from '../../wire/score-summary.js';
import { targetText } from '../commands/ledger.js';
import { summaryTable } from '../commands/scores.js';
import type { Print } from '../context.js';
import { renderTable } from '../presentation/table.js';
import type { DemoHttp } from './demo-http.js';
import type { StoryResult } from './demo-story.js';

// The demo's tables, read back through the HTTP API: each run's verdicts by evaluator version,
// the re-evaluation beside the runs' own verdicts, the score summary per source, and the ledger.

type Run = z.output<typeof WireRun>;

export async function printReport(
  http: DemoHttp,
  key: string,
  story: StoryResult,
  options: { abandonAfterMs: number; print: Print },
): Promise<void> {
  const { print } = options;
  const runs: { run: Run; evaluations: LedgerEntry[] }[] = [];
  for (const { runId } of story.runs) {
    runs.push(await http.call(key, 'GET', `/v1/runs/${runId}`));
  }
  const { entries } = await http.call<{ entries: LedgerEntry[] }>(
    key,
    'GET',
    '/v1/ledger?limit=1000',
  );
  const ids = new Set(entries.flatMap((entry) => (entry.eventId ? [entry.eventId] : [])));
  const values = await http.feedbackValues(key, ids);
  const verdict = (entry: LedgerEntry) =>
    entry.eventId === null ? null : verdictText(values.get(entry.eventId));

  section(print, 'Verdicts per run, by evaluator version');
  const rows = runs.flatMap(({ run, evaluations }) => {
    // Still paused, yet evaluated: the run was abandoned once the window passed.
    const status =
      run.status === 'paused' && evaluations.length > 0
        ? `abandoned (paused ${options.abandonAfterMs} ms)`
        : run.status;
    return evaluations.map((entry, i) => [
      i === 0 ? run.runId : '',
      i === 0 ? status : '',
      targetText(entry.target),
      entry.evaluator,
      entry.state,
      verdict(entry),
    ]);
  });
  table(print, ['run', 'status', 'target', 'evaluator', 'state', 'verdict'], rows);

  section(print, `Invoice versions: the runs' verdicts and batch ${story.batchId}'s`);
  const artifacts = new Map<string, Map<string, string | null>>();
  for (const entry of entries) {
    if (entry.target.kind !== 'artifact') continue;
    const version = targetText(entry.target).replace(/^artifact /, '');
    const column = `${entry.evaluator} (${entry.generation === 'run' ? 'run' : 'batch'})`;
    const row = artifacts.get(version) ?? new Map<string, string | null>();
    row.set(column, entry.state === 'recorded' ? verdict(entry) : entry.state);
    artifacts.set(version, row);
  }
  const columns = [...new Set([...artifacts.values()].flatMap((row) => [...row.keys()]))].sort();
  table(
    print,
    ['artifact version', ...columns],
    [...artifacts]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([version, row]) => [version, ...columns.map((c) => row.get(c))]),
  );

  section(print, 'Score summary per source');
  const { groups } = await http.call<{ groups: ScoreSummaryGroup[] }>(
    key,
    'GET',
    '/v1/scores/summary',
  );
  for (const line of summaryTable(groups)) print(line);

  section(print, 'Ledger: every state with its reason');
  table(
    print,
    ['generation', 'evaluator', 'target', 'state', 'reason'],
    entries.map((entry) => [
      entry.generation === 'run' ? 'run' : `batch ${entry.generation}`,
      entry.evaluator,
      targetText(entry.target),
      entry.state,
      entry.reason,
    ]),
  );
  const counts = new Map<string, number>();
  for (const entry of entries) counts.set(entry.state, (counts.get(entry.state) ?? 0) + 1);
  print([...counts].map(([state, n]) => `${state} ${n}`).join(', '));
}

/** `valid=false issues=1`. */
function verdictText(value: Record<string, unknown> | undefined): string | null {
  if (value === undefined) return null;
  return Object.entries(value)
    .map(([field, v]) => `${field}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
}

function section(print: Print, title: string): void {
  print('');
  print(title);
}

function table(print: Print, columns: string[], rows: Parameters<typeof renderTable>[1]): void {
  for (const line of renderTable(columns, rows)) print(line);
}
