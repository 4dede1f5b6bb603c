import type { BudgetSettings } from '../core/index.js';
import { asNumber, type Backend, parseJson } from './backend.js';
import type { BudgetChange, StoredBudget } from './budgets.js';

// A workspace's own budgets, set through the API: each change kept in their audit.

/** A workspace's own budgets, by id; with no workspace, every workspace's (by workspace, id). */
export async function listBudgets(
  backend: Backend,
  workspace_id?: string,
): Promise<StoredBudget[]> {
  const rows = await backend.read((sql) =>
    workspace_id === undefined
      ? sql.all('SELECT * FROM budgets ORDER BY workspace_id, budget_id', [])
      : sql.all('SELECT * FROM budgets WHERE workspace_id = ? ORDER BY budget_id', [workspace_id]),
  );
  return rows.map((row) => {
    const settings = parseJson<BudgetSettings>(row.settings);
    const workspace = String(row.workspace_id);
    const budget_id = String(row.budget_id);
    return {
      workspace_id: workspace,
      budget_id,
      settings,
      budget: { ...settings, budgetId: budget_id, workspace },
      changed_by: String(row.changed_by),
      changed_at: String(row.changed_at),
    };
  });
}

/** Sets (or, with null, removes) a workspace's budget, keeping the change in its audit. */
export async function setBudget(
  backend: Backend,
  now: () => Date,
  workspace_id: string,
  budget_id: string,
  settings: BudgetSettings | null,
  changed_by: string,
): Promise<void> {
  const at = now().toISOString();
  await backend.transaction(async (sql) => {
    const [last] = await sql.all(
      `SELECT COALESCE(MAX(change), 0) AS change FROM budget_changes
         WHERE workspace_id = ? AND budget_id = ?`,
      [workspace_id, budget_id],
    );
    await sql.run(
      `INSERT INTO budget_changes (workspace_id, budget_id, change, settings, changed_by,
         changed_at) VALUES (?, ?, ?, ?, ?, ?)`,
      [
        workspace_id,
        budget_id,
        asNumber(last?.change ?? 0) + 1,
        settings === null ? null : JSON.stringify(settings),
        changed_by,
        at,
      ],
    );
    if (settings === null) {
      await sql.run('DELETE FROM budgets WHERE workspace_id = ? AND budget_id = ?', [
        workspace_id,
        budget_id,
      ]);
      return;
    }
    await sql.run(
      `INSERT INTO budgets (workspace_id, budget_id, settings, changed_by, changed_at)
         VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (workspace_id, budget_id) DO UPDATE SET settings = excluded.settings,
         changed_by = excluded.changed_by, changed_at = excluded.changed_at`,
      [workspace_id, budget_id, JSON.stringify(settings), changed_by, at],
    );
  });
}

/** A budget's changes, oldest first. */
export async function budgetChanges(
  backend: Backend,
  workspace_id: string,
  budget_id: string,
): Promise<BudgetChange[]> {
  const rows = await backend.read((sql) =>
    sql.all(
      `SELECT * FROM budget_changes WHERE workspace_id = ? AND budget_id = ? ORDER BY change`,
      [workspace_id, budget_id],
    ),
  );
  return rows.map((row) => ({
    change: asNumber(row.change),
    settings: row.settings === null ? null : parseJson<BudgetSettings>(row.settings),
    changed_by: String(row.changed_by),
    changed_at: String(row.changed_at),
  }));
}
