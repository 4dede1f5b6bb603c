import type { Backend } from './backend.js';
import { type AttemptRecord, attemptRow, RECORD_ATTEMPT } from './evaluation-rows.js';
import type { UsageRecord } from './usage.js';

// An attempt's row and a report's row, each written once: a row already there is kept.

/** When a row is recorded, and its UTC day. */
const stamp = (now: () => Date) => {
  const at = now().toISOString();
  return { at, day: at.slice(0, 10) };
};

export async function recordAttempt(backend: Backend, now: () => Date, record: AttemptRecord) {
  const { at } = stamp(now);
  await backend.transaction((sql) => sql.run(RECORD_ATTEMPT, attemptRow(record, at)));
}

export async function recordUsage(backend: Backend, now: () => Date, record: UsageRecord) {
  const { at, day } = stamp(now);
  await backend.transaction((sql) =>
    sql.run(
      `INSERT INTO evaluation_usage (workspace_id, generation, participant, target_key,
         attempt, report, model, input_tokens, output_tokens, cost_nanos, day, recorded_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT DO NOTHING`,
      [
        record.workspace_id,
        record.generation,
        record.participant,
        record.target_key,
        record.attempt,
        record.report,
        record.model,
        record.input_tokens,
        record.output_tokens,
        record.cost_nanos,
        day,
        at,
      ],
    ),
  );
}
