import type { FeedbackTypeRegistry } from '../../src/core/index.js';
import { openSqliteStore } from '../../src/store/index.js';

// Usage recorded as the evaluate activity records it, on chosen UTC days, for the readers of
// spend (GET /v1/costs, `evalflow costs`, the workbench's chart) to sum. Two workspaces, two
// versions of one evaluator, a priced and an unpriced report, two models.

interface Report {
  workspace: string;
  version: string;
  target: string;
  day: string;
  model: string;
  input: number;
  output: number;
  /** Null: no price known. */
  nanos: number | null;
}

export const SPEND: readonly Report[] = [
  {
    workspace: 'ws',
    version: '1',
    target: 't1',
    day: '2026-05-01',
    model: 'gpt-4o',
    input: 1000,
    output: 200,
    nanos: 1_500_000,
  },
  {
    workspace: 'ws',
    version: '1',
    target: 't2',
    day: '2026-05-01',
    model: 'local',
    input: 500,
    output: 100,
    nanos: null,
  },
  {
    workspace: 'ws',
    version: '2',
    target: 't1',
    day: '2026-05-02',
    model: 'gpt-4o',
    input: 2000,
    output: 300,
    nanos: 3_000_000,
  },
  {
    workspace: 'ws',
    version: '2',
    target: 't1',
    day: '2026-05-02',
    model: 'gpt-4o-mini',
    input: 100,
    output: 10,
    nanos: 10_000,
  },
  {
    workspace: 'other',
    version: '1',
    target: 't1',
    day: '2026-05-02',
    model: 'gpt-4o',
    input: 100,
    output: 10,
    nanos: 100_000,
  },
];

/** Records SPEND into the SQLite store at `path` (`politeness@{version}`, generation `run`). */
export async function seedSpend(path: string, feedbackTypes: FeedbackTypeRegistry): Promise<void> {
  let day = '2026-05-01';
  const store = openSqliteStore(path, { feedbackTypes, now: () => new Date(`${day}T12:00:00Z`) });
  try {
    const reports = new Map<string, number>();
    for (const report of SPEND) {
      day = report.day;
      const key = {
        workspace_id: report.workspace,
        generation: 'run',
        participant: `evaluator:politeness@${report.version}`,
        target_key: `turn:${report.target}`,
      };
      const id = JSON.stringify(key);
      const index = reports.get(id) ?? 0;
      reports.set(id, index + 1);
      if (index === 0) {
        await store.usage.recordAttempt({ ...key, attempt: 1, duration_ms: 40, failed: false });
      }
      await store.usage.recordUsage({
        ...key,
        attempt: 1,
        report: index,
        model: report.model,
        input_tokens: report.input,
        output_tokens: report.output,
        cost_nanos: report.nanos,
      });
    }
  } finally {
    await store.close();
  }
}
