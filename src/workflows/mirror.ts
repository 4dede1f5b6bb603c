import { condition, proxyActivities, setHandler } from '@temporalio/workflow';
import type { EvalflowActivities } from '../activities/types.js';
import { HEARTBEAT_TIMEOUT, RETRY_SOON_THEN_BACK_OFF } from './activity-timing.js';
import { carryOver, historyIsLong } from './carry-over.js';
import {
  feedbackAppendedSignal,
  type MirrorInput,
  type MirrorState,
  mirrorStateQuery,
  RECONCILE_DELAYS_MS,
} from './mirror-messages.js';

// Sending must eventually succeed, so attempts are unlimited; a 429's Retry-After sets the next
// delay (the activity raises it as `nextRetryDelay`), otherwise backoff up to five minutes.
const { mirrorScores, reconcileScores, reconcileDeletes } = proxyActivities<
  Pick<EvalflowActivities, 'mirrorScores' | 'reconcileScores' | 'reconcileDeletes'>
>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { ...RETRY_SOON_THEN_BACK_OFF, maximumInterval: '5 minutes' },
});

/**
 * One per workspace: each feedback event signalled becomes scores recorded in the sink (or
 * deleted, for withdrawn feedback), then each batch is read back after durable timers, the
 * missing scores re-sent and the undeleted ones deleted again, and every score given one final
 * state in the ledger: confirmed or deleted, or failed with the reason.
 */
export async function mirror(input: MirrorInput): Promise<never> {
  const delays = input.reconcileDelaysMs ?? RECONCILE_DELAYS_MS;
  const state: MirrorState = input.carried ?? {
    seenSeq: 0,
    mirroredSeq: 0,
    checks: [],
    recorded: 0,
    confirmed: 0,
    resent: 0,
    failed: 0,
    deleted: 0,
  };
  setHandler(feedbackAppendedSignal, ({ seq }) => {
    state.seenSeq = Math.max(state.seenSeq, seq);
  });
  setHandler(mirrorStateQuery, () => state);

  for (;;) {
    while (state.seenSeq > state.mirroredSeq) {
      const result = await mirrorScores({
        workspaceId: input.workspaceId,
        afterSeq: state.mirroredSeq,
        limit: input.batchSize ?? 200,
      });
      // A seq the store does not have (yet) is not waited for in a loop.
      state.mirroredSeq = result.lastSeq > state.mirroredSeq ? result.lastSeq : state.seenSeq;
      state.recorded += result.recorded.length;
      state.failed += result.failed?.length ?? 0; // absent from results recorded before it existed
      // Results recorded before deletes were read back settled them at once, as `deleted`.
      state.deleted += result.deleted?.length ?? 0;
      const dueAt = Date.now() + (delays[0] ?? 0);
      if (result.recorded.length > 0)
        state.checks.push({ ids: result.recorded, attempt: 0, dueAt });
      const deleting = result.deleting ?? [];
      if (deleting.length > 0)
        state.checks.push({ ids: deleting, attempt: 0, dueAt, deletes: true });
    }

    for (const check of state.checks.filter((c) => c.dueAt <= Date.now())) {
      const final = check.attempt >= delays.length - 1;
      const reconcile = check.deletes ? reconcileDeletes : reconcileScores;
      const result = await reconcile({ workspaceId: input.workspaceId, ids: check.ids, final });
      // Results recorded before `failed` existed reported a final check's losses as `missing`.
      const failed = result.failed ?? (final ? result.missing : []);
      const missing = result.failed === undefined && final ? [] : result.missing;
      if (check.deletes) state.deleted += result.confirmed.length;
      else state.confirmed += result.confirmed.length;
      state.failed += failed.length;
      state.resent += missing.length;
      check.ids = missing;
      check.attempt += 1;
      check.dueAt = Date.now() + (delays[check.attempt] ?? 0);
    }
    state.checks = state.checks.filter((c) => c.ids.length > 0);

    if (historyIsLong()) await carryOver<typeof mirror>({ ...input, carried: state });
    const next = Math.min(...state.checks.map((c) => c.dueAt));
    const work = () => state.seenSeq > state.mirroredSeq;
    if (Number.isFinite(next)) await condition(work, Math.max(next - Date.now(), 1));
    else await condition(work);
  }
}
