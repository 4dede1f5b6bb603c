import {
  type Budget,
  evaluatorId,
  evaluatorParticipant,
  type Pricing,
  targetKey,
} from '../core/index.js';
import { type Evaluator, type EvaluatorRegistry, recordedJudge } from '../evaluators/index.js';
import type { EvaluationObserver } from '../metrics/observers.js';
import type { OperationsLog } from '../metrics/operations-log.js';
import type {
  Commands,
  EntityReads,
  EvaluationRecords,
  EventLog,
  TraceInbox,
} from '../store/index.js';

/**
 * What an evaluation reads and writes: the subject (views, the log, a trace's spans), its verdict
 * (the command path) and its ledger, usage and budgets.
 */
export type EvaluationStore = Commands &
  EntityReads &
  EventLog &
  Pick<TraceInbox, 'traceSpans'> &
  Pick<EvaluationRecords, 'ledger' | 'usage' | 'budgets' | 'judgeVersions'>;

import { budgetGuard } from './budget-guard.js';
import { FailureType, terminal } from './failures.js';
import { sharedTurns } from './shared-turns.js';
import type { EvaluationKey, SettleInput } from './types.js';

export interface EvaluationDeps {
  store: EvaluationStore;
  evaluators: EvaluatorRegistry;
  /** Prices by model, for usage reported without a cost. */
  pricing?: Readonly<Pricing>;
  /** The config's budgets (a workspace's own are read from the store). */
  budgets?: readonly Budget[];
  /** The clock budgets' periods are read by (default the system's). */
  now?: () => number;
  /** Where a budget's 80 % warning is written (default `console.warn`). */
  warn?: (line: string) => void;
  observer?: EvaluationObserver | undefined;
  /** Told of each evaluation started and finished, and of one a budget holds back. */
  log?: OperationsLog | undefined;
}

/** What the evaluation activities share: their deps, the budgets' guard and the shared turns. */
export interface EvaluationContext {
  deps: EvaluationDeps;
  budgets: ReturnType<typeof budgetGuard>;
  turns: ReturnType<typeof sharedTurns>;
}

export const evaluationContext = (deps: EvaluationDeps): EvaluationContext => ({
  deps,
  budgets: budgetGuard({
    store: deps.store,
    budgets: deps.budgets ?? [],
    now: deps.now ?? Date.now,
    warn: deps.warn ?? ((line) => console.warn(line)),
  }),
  turns: sharedTurns(),
});

/** An evaluation's key in the ledger. */
export const ledgerKey = (input: EvaluationKey) => ({
  generation: input.generation,
  participant: evaluatorParticipant(input.evaluator),
  target_key: targetKey(input.target),
});

/** Settles an evaluation in the ledger without a verdict (sampled out, skipped, failed). */
export async function settle(
  { deps }: EvaluationContext,
  input: EvaluationKey,
  state: SettleInput['state'],
  reason: string | null,
) {
  const entry = await deps.store.ledger.settleEvaluation({
    workspace_id: input.workspaceId,
    ...ledgerKey(input),
    target: input.target,
    state,
    reason,
    envelope_id: null,
  });
  deps.observer?.settled(input.evaluator, entry.state);
  return entry;
}

/** The evaluator version the input names, as this worker deploys it; terminal when it does not. */
export async function deployed({ deps }: EvaluationContext, input: EvaluationKey) {
  const evaluator = deps.evaluators.get(input.evaluator) ?? (await tunedVersion(deps, input));
  if (evaluator !== undefined) return evaluator;
  throw terminal(
    `${evaluatorParticipant(input.evaluator)} is not deployed on this worker`,
    FailureType.evaluatorNotDeployed,
  );
}

/**
 * A version of a judge family recorded as data in the workspace (`record_judge_version`), run by
 * the family this worker deploys (`recordedJudge`). Undefined when neither is found.
 */
async function tunedVersion(
  deps: EvaluationDeps,
  { workspaceId, evaluator }: EvaluationKey,
): Promise<Evaluator | undefined> {
  const version = await deps.store.judgeVersions.get(workspaceId, evaluatorId(evaluator));
  return version === null ? undefined : recordedJudge(deps.evaluators, version);
}
