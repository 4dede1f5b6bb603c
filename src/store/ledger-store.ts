import type { Backend } from './backend.js';
import { evaluationEntries, evaluationEntryOf, settleEvaluation } from './evaluation-ledger.js';
import type { Ledger } from './ledger.js';
import {
  expectDeletes,
  expectScores,
  recordFailures,
  scoreEntries,
  settleScores,
} from './score-ledger.js';
import { recordUndelivered, undeliveredEntries } from './undelivered.js';

/** The ledger over the backend: its evaluations, its scores and the relay's undelivered events. */
export function createLedger(backend: Backend, now: () => Date): Ledger {
  return {
    settleEvaluation: (entry) => settleEvaluation(backend, now, entry),
    evaluation: (workspace_id, key) => evaluationEntryOf(backend, workspace_id, key),
    evaluations: (workspace_id, filter) => evaluationEntries(backend, workspace_id, filter),
    expectScores: (workspace_id, scores) => expectScores(backend, now, workspace_id, scores),
    expectDeletes: (workspace_id, deletes) => expectDeletes(backend, now, workspace_id, deletes),
    recordFailures: (workspace_id, failures) =>
      recordFailures(backend, now, workspace_id, failures),
    settleScores: (workspace_id, updates) => settleScores(backend, now, workspace_id, updates),
    scores: (workspace_id, select) => scoreEntries(backend, workspace_id, select),
    recordUndelivered: (entries) => recordUndelivered(backend, now, entries),
    undelivered: (workspace_id) => undeliveredEntries(backend, workspace_id),
  };
}
