import { Context } from '@temporalio/activity';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Worker } from '@temporalio/worker';
import { scoreStates } from '../../src/core/index.js';
import { answerLengthEvaluator, turnOutcomeEvaluator } from '../../src/evaluators/index.js';
import { LangfuseScoreReader, LangfuseScoreSink } from '../../src/scores/langfuse/index.js';
import type { ScoreEntry } from '../../src/store/index.js';
import { evaluateRunWorkflowId } from '../../src/workflows/evaluate-run-messages.js';
import {
  type MirrorState,
  mirrorStateQuery,
  mirrorWorkflowId,
} from '../../src/workflows/mirror-messages.js';
import { given, testEngine } from '../../test/support/engine.js';
import { LangfuseTestServer } from '../../test/support/langfuse-server/index.js';
import { seeded } from './seeded.js';

// Scenario 4: the engine mirrors scores into the Langfuse test server while it misbehaves: 30% of
// requests answered 5xx or 429 with Retry-After, 10% of accepted scores silently lost, 30% of
// deletes answered success and not done, every write visible only 10 minutes later. Temporal's
// time-skipping server skips the waits. Every score the log implies must end confirmed (and be
// readable at Langfuse), every deletion deleted (and gone there), and the rest failed in the
// ledger with a reason: nothing left unaccounted for.

const MINUTE = 60_000;

export interface SinkFaultOptions {
  /** A time-skipping environment. */
  env: TestWorkflowEnvironment;
  /** A worker on `taskQueue` with these activities. */
  worker(taskQueue: string, activities: object): Promise<Worker>;
  runs: number;
  messagesPerRun: number;
  seed?: number;
  /** How long (skipped time) the mirror gets to settle each phase (default 48 hours). */
  maxHours?: number;
}

export interface SinkFaultFigures {
  /** Score writes the log implies, and deletions. */
  expectedWrites: number;
  expectedDeletions: number;
  confirmed: number;
  deleted: number;
  failed: number;
  /** Expected writes and deletions in no final state, or failed without a reason. */
  unaccounted: number;
  /** Confirmed in the ledger but not readable at Langfuse, or deleted but still readable. */
  ledgerWrong: number;
  reasons: Map<string, number>;
  randomFaults: number;
  dropped: number;
  ignoredDeletes: number;
  violations: string[];
  /** The mirror's state where it did not settle in time. */
  unsettled: string[];
}

export async function sinkFaults(options: SinkFaultOptions): Promise<SinkFaultFigures> {
  const { env } = options;
  const random = seeded(options.seed ?? 4);
  // The server's clock follows the skipped time: each activity sets it to when it was scheduled.
  let serverNow = Date.now();
  const langfuse = await LangfuseTestServer.start({
    now: () => serverNow,
    lagMs: 10 * MINUTE,
    drop: () => random() < 0.1,
    ignoreDeletes: () => random() < 0.3,
  });
  langfuse.setRandomFaults({
    fraction: 0.3,
    faults: [{ status: 500 }, { status: 503 }, { status: 429, retryAfterSeconds: 2 }],
    random,
  });
  const engine = testEngine({
    evaluators: [answerLengthEvaluator(), turnOutcomeEvaluator()],
    sink: new LangfuseScoreSink(langfuse.client()),
    reader: new LangfuseScoreReader(langfuse.client()),
  });
  const activities = Object.fromEntries(
    Object.entries(engine.activities).map(([name, activity]) => [
      name,
      (input: never) => {
        serverNow = Context.current().info.currentAttemptScheduledTimestampMs;
        return (activity as (input: never) => Promise<unknown>)(input);
      },
    ]),
  );
  const ws = 'sink-faults';
  const taskQueue = `sink-faults-${process.pid}-${Date.now()}`;
  const reviewers = ['rv1', 'rv2'];
  const runIds = Array.from({ length: options.runs }, (_, i) => `r${i}`);
  const review = (runId: string, reviewer: string, kind: 'submit' | 'withdraw') =>
    engine.activities.applyReview({
      workspaceId: ws,
      target: { kind: 'turn', run_id: runId },
      kind,
      reviewer: { id: reviewer },
      feedback_type: 'review_quality',
      value: kind === 'submit' ? { score: 4 } : null,
      requestId: `${runId}-${reviewer}-${kind}`,
    });

  const unsettled: string[] = [];
  try {
    const worker = await options.worker(taskQueue, activities);
    await worker.runUntil(async () => {
      for (const [i, runId] of runIds.entries()) {
        await given(
          engine.store,
          ws,
          { type: 'create_thread', thread_id: `t${i}` },
          {
            type: 'start_run',
            run_id: runId,
            thread_id: `t${i}`,
            trace_id: i.toString(16).padStart(32, 'a'),
          },
          ...Array.from({ length: options.messagesPerRun }, (_, m) => ({
            type: 'post_message',
            thread_id: `t${i}`,
            message_id: `a${i}-${m}`,
            role: 'assistant',
            content: 'x'.repeat(m * 300),
            run_id: runId,
          })),
          { type: 'end_run', run_id: runId, status: 'completed' },
        );
        for (const reviewer of reviewers) await review(runId, reviewer, 'submit');
      }
      const relay = engine.relay(env.client, taskQueue, ws);
      await relay.drain();
      for (const runId of runIds) {
        await env.client.workflow
          .getHandle(evaluateRunWorkflowId(engine.store.id, ws, runId))
          .result();
      }
      await relay.drain();
      const mirror = env.client.workflow.getHandle(mirrorWorkflowId(engine.store.id, ws));
      // Waits (in skipped time) until the mirror has nothing left to send or check; gives up
      // after `maxHours`, leaving what is still pending to count as unaccounted for.
      const settle = async (done: (state: MirrorState) => boolean) => {
        for (let step = 0; step < (options.maxHours ?? 48) * 6; step++) {
          const state = await mirror.query(mirrorStateQuery);
          if (state.checks.length === 0 && state.mirroredSeq >= state.seenSeq && done(state)) {
            return true;
          }
          await env.sleep(10 * MINUTE);
        }
        const { checks, ...counts } = await mirror.query(mirrorStateQuery);
        unsettled.push(`${JSON.stringify(counts)}, ${checks.length} checks pending`);
        return false;
      };
      if (!(await settle((s) => s.recorded > 0))) return;
      // Every reviewer withdraws: each of their scores must be deleted at Langfuse.
      for (const runId of runIds) {
        for (const reviewer of reviewers) await review(runId, reviewer, 'withdraw');
      }
      await relay.drain();
      await settle((s) => s.deleted + s.failed > 0);
    });

    const entries: ScoreEntry[] = [];
    for (const state of scoreStates) {
      entries.push(...(await engine.store.ledger.scores(ws, { state })));
    }
    const writes = entries.filter((entry) => !entry.deletion);
    const deletions = entries.filter((entry) => entry.deletion);
    // Each message: answer_length's two fields; each run: turn_outcome's two; each review: two.
    const expectedWrites = options.runs * (options.messagesPerRun * 2 + 2);
    const expectedDeletions = options.runs * reviewers.length * 2;
    const settled = (entry: ScoreEntry) =>
      entry.state === 'confirmed' ||
      entry.state === 'deleted' ||
      (entry.state === 'failed' && (entry.reason ?? '') !== '');
    const visible = new Set(langfuse.scores().map((row) => row.id));
    const reasons = new Map<string, number>();
    for (const entry of entries) {
      if (entry.state === 'failed') {
        const reason = entry.reason ?? '(none)';
        reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
      }
    }
    const count = (state: string) => entries.filter((entry) => entry.state === state).length;
    return {
      expectedWrites,
      expectedDeletions,
      confirmed: count('confirmed'),
      deleted: count('deleted'),
      failed: count('failed'),
      unaccounted:
        Math.max(0, expectedWrites - writes.filter(settled).length) +
        Math.max(0, expectedDeletions - deletions.filter(settled).length),
      ledgerWrong: entries.filter(
        (entry) =>
          (entry.state === 'confirmed' && !visible.has(entry.score_id)) ||
          (entry.state === 'deleted' && visible.has(entry.score_id)),
      ).length,
      reasons,
      randomFaults: langfuse.randomFaultCount(),
      dropped: langfuse.dropped().length,
      ignoredDeletes: langfuse.ignoredDeletes().length,
      violations: langfuse.violations(),
      unsettled,
    };
  } finally {
    await engine.close();
    await langfuse.close();
  }
}
