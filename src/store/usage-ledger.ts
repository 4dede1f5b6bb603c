import type { Backend } from './backend.js';
import { usageOfEvaluation, usageOfEvaluations } from './evaluation-usage.js';
import { measuredCost, measuredDuration, usageOn } from './measured-usage.js';
import { spend } from './spend.js';
import type { UsageLedger } from './usage.js';
import { recordAttempt, recordUsage } from './usage-records.js';

/** The usage ledger over the backend: each operation a function of its own file. */
export function createUsageLedger(backend: Backend, now: () => Date): UsageLedger {
  return {
    recordAttempt: (record) => recordAttempt(backend, now, record),
    recordUsage: (record) => recordUsage(backend, now, record),
    ofEvaluation: (key) => usageOfEvaluation(backend, key),
    ofEvaluations: (workspace_id, keys) => usageOfEvaluations(backend, workspace_id, keys),
    spend: (filter, by) => spend(backend, filter, by),
    measuredCost: (participant, workspace_id) => measuredCost(backend, participant, workspace_id),
    measuredDuration: (participant, workspace_id) =>
      measuredDuration(backend, participant, workspace_id),
    usageOn: (participant, workspace_id, target_keys) =>
      usageOn(backend, participant, workspace_id, target_keys),
  };
}
