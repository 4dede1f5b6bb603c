import { deleteEach } from './delete-scores.js';
import { type MirrorContext, refusal } from './mirror-context.js';
import { keepFirstTimestamps, type Operation, operationsOf } from './score-operations.js';
import type { MirrorResult, MirrorScoresInput } from './types.js';

/**
 * Turns the feedback after `afterSeq` into scores and records them in one batch; withdrawn
 * feedback's scores are deleted, to be read back gone by `reconcileDeletes`. Feedback of a
 * type the app does not declare is settled failed, with a warning. Safe to repeat: scores
 * upsert by id, and the ledger takes an event's entries once.
 */
export async function mirrorScores(
  mirror: MirrorContext,
  input: MirrorScoresInput,
): Promise<MirrorResult> {
  const { deps, observe } = mirror;
  const envelopes = await deps.store.events({
    workspace_id: input.workspaceId,
    after: input.afterSeq,
    limit: input.limit,
  });
  // A later event in the same page replaces an earlier one's word on an id: send only that.
  const latest = new Map<string, Operation>();
  for (const envelope of envelopes) {
    for (const operation of await operationsOf(mirror, envelope)) {
      latest.set(operation.id, operation);
    }
  }
  const operations = [...latest.values()];
  const writes = await keepFirstTimestamps(
    mirror,
    input.workspaceId,
    operations.filter((o) => o.kind === 'write'),
  );
  const deletes = operations.filter((o) => o.kind === 'delete');
  const failures = operations.filter((o) => o.kind === 'failure');
  const ws = input.workspaceId;
  await deps.store.ledger.recordFailures(
    ws,
    failures.map(({ seq, id, reason }) => ({ seq, score_id: id, reason })),
  );

  await deps.store.ledger.expectScores(ws, writes);
  const ids = writes.map((w) => w.id);
  // A batch the sink refuses for good fails its scores, not the workspace's mirror.
  const refused =
    ids.length === 0 ? null : await refusal(() => deps.sink.record(writes.map((w) => w.score)));
  if (refused !== null) {
    await deps.store.ledger.settleScores(
      ws,
      ids.map((score_id) => ({ score_id, state: 'failed', reason: `refused: ${refused}` })),
    );
  }

  await deps.store.ledger.expectDeletes(
    ws,
    deletes.map(({ seq, id }) => ({ seq, score_id: id })),
  );
  const notDeleted = await deleteEach(
    mirror,
    ws,
    deletes.map((d) => d.id),
  );
  observe.written(refused === null ? ids.length : 0);
  observe.failed((refused === null ? 0 : ids.length) + failures.length);
  return {
    lastSeq: envelopes.at(-1)?.seq ?? input.afterSeq,
    recorded: refused === null ? ids : [],
    failed: [...(refused === null ? [] : ids), ...notDeleted.refused, ...failures.map((f) => f.id)],
    // Deletes sent or left for later: the read-backs delete again whatever is still there.
    deleting: [...notDeleted.sent, ...notDeleted.later],
  };
}
