import { type EvaluationState, type EvaluationTarget, evaluationStates } from '../core/index.js';
import type { EntityReads, EvaluationEntry, EvaluationRecords } from '../store/index.js';
import { runOfTarget } from './ledger-entries.js';

/**
 * Each run's own evaluation (generation `run`: its turn, its messages, the artifact versions it
 * produced), for the runs named: one read of the workspace's run ledger, whatever their number.
 */
export async function evaluationsOfRuns(
  store: EntityReads & Pick<EvaluationRecords, 'ledger'>,
  workspaceId: string,
  runIds: readonly string[],
): Promise<Map<string, EvaluationEntry[]>> {
  const byRun = new Map(runIds.map((id) => [id, [] as EvaluationEntry[]]));
  if (byRun.size === 0) return byRun;
  const producers = new Map<string, Promise<string | null>>();
  const producerOf = (artifactId: string, version: number) => {
    const key = `${artifactId}@${version}`;
    let producer = producers.get(key);
    if (producer === undefined) {
      producer = store
        .artifact(workspaceId, artifactId, version)
        .then((found) => found?.run_id ?? null);
      producers.set(key, producer);
    }
    return producer;
  };
  for (const entry of await store.ledger.evaluations(workspaceId, { generation: 'run' })) {
    const target = entry.target as EvaluationTarget;
    const run =
      target.kind === 'artifact'
        ? await producerOf(target.artifact_id, target.version)
        : runOfTarget(target);
    if (run !== null) byRun.get(run)?.push(entry);
  }
  return byRun;
}

/** How many of the entries stand in each ledger state. */
export function evaluationSummary(
  entries: readonly { state: EvaluationState }[],
): Record<EvaluationState, number> {
  const counts = Object.fromEntries(evaluationStates.map((state) => [state, 0])) as Record<
    EvaluationState,
    number
  >;
  for (const entry of entries) counts[entry.state] += 1;
  return counts;
}
