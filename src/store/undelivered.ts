import { asNumber, type Backend, type Row } from './backend.js';
import type { UndeliveredEntry } from './ledger.js';

// Every event the trigger relay could not deliver, kept with its reason.

/** Records events the relay could not deliver; an event already recorded keeps its entry. */
export async function recordUndelivered(
  backend: Backend,
  now: () => Date,
  entries: readonly Omit<UndeliveredEntry, 'recorded_at'>[],
): Promise<void> {
  if (entries.length === 0) return;
  const at = now().toISOString();
  await backend.transaction(async (sql) => {
    for (const entry of entries) {
      await sql.run(
        `INSERT INTO undelivered (workspace_id, seq, event_type, run_id, workflow_id, reason,
           recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (workspace_id, seq) DO NOTHING`,
        [
          entry.workspace_id,
          entry.seq,
          entry.event_type,
          entry.run_id,
          entry.workflow_id,
          entry.reason,
          at,
        ],
      );
    }
  });
}

/** The workspace's undelivered events, in seq order. */
export async function undeliveredEntries(
  backend: Backend,
  workspace_id: string,
): Promise<UndeliveredEntry[]> {
  const rows = await backend.read((sql) =>
    sql.all('SELECT * FROM undelivered WHERE workspace_id = ? ORDER BY seq', [workspace_id]),
  );
  return rows.map(undeliveredEntry);
}

const undeliveredEntry = (row: Row): UndeliveredEntry => ({
  workspace_id: String(row.workspace_id),
  seq: asNumber(row.seq),
  event_type: String(row.event_type),
  run_id: row.run_id === null ? null : String(row.run_id),
  workflow_id: String(row.workflow_id),
  reason: String(row.reason),
  recorded_at: String(row.recorded_at),
});
