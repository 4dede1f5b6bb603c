// npm run bench:engine — evalflow's durable evaluation against bare Temporal, on the dev server.
//
// In one process: a worker (the real activities over a SQLite store and an in-memory sink) and a
// baseline workflow of three no-op activities. It measures
// - runs evaluated per second, each by 3 turn evaluators, against bare workflows per second;
// - one run's end until all its scores are confirmed, against one bare workflow's round trip;
// - re-evaluating 1k and 10k artifact versions: cost per version at 10k over 1k, the longest
//   history of any run of the batch, and the worker's RSS.
// The last line is one JSON object. Not part of `npm test`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { z } from 'zod';
import { createActivities } from '../src/activities/create-activities.js';
import { ensureTemporalBinaries } from '../src/cli/setup.js';
import { executableOption } from '../src/cli/temporal-binaries.js';
import { createFeedbackTypeRegistry, defineFeedbackType } from '../src/core/index.js';
import {
  createEvaluatorRegistry,
  defineEvaluator,
  type EvaluatorRef,
} from '../src/evaluators/index.js';
import { openSqliteStore } from '../src/store/index.js';
import { InMemoryScoreSink } from '../src/testing/index.js';
import { evaluateRunWorkflowId, runEventSignal } from '../src/workflows/evaluate-run-messages.js';
import { feedbackAppendedSignal, mirrorWorkflowId } from '../src/workflows/mirror-messages.js';
import { reevaluateWorkflowId } from '../src/workflows/reevaluate-messages.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const SMALL = 1_000;
const LARGE = Number(process.env.BENCH_REEVAL_VERSIONS ?? 10_000);
const taskQueue = 'bench';
const ws = 'bench';

Runtime.install({ logger: new DefaultLogger('WARN') });
const quality = defineFeedbackType({
  name: 'bench_quality',
  targets: ['turn', 'artifact'],
  schema: z.object({ ok: z.boolean(), size: z.int().min(0) }),
});
const evaluators = ['a', 'b', 'c'].map((name) =>
  defineEvaluator({
    name,
    version: '1',
    feedbackType: quality,
    targets: ['turn', 'artifact'],
    source: 'HARNESS',
    evaluate: (subject) => ({
      ok: true,
      size: subject.kind === 'turn' ? subject.messages.length : 1,
    }),
  }),
);
const refs: EvaluatorRef[] = evaluators.map(({ name, version }) => ({ name, version }));

const dir = mkdtempSync(join(tmpdir(), 'evalflow-bench-'));
const feedbackTypes = createFeedbackTypeRegistry([quality]);
const store = openSqliteStore(join(dir, 'bench.db'), { feedbackTypes });
const sink = new InMemoryScoreSink();
const activities = createActivities({
  store,
  evaluators: createEvaluatorRegistry(evaluators),
  feedbackTypes,
  scoreSink: sink,
  scoreReader: sink,
});
const system = { kind: 'system', name: 'system' };
const givenIn = async (workspace_id: string, ...commands: object[]) => {
  for (const command of commands) {
    const outcome = await store.execute({ workspace_id, actor: system, command });
    if (outcome.type !== 'recorded') throw new Error(JSON.stringify(outcome));
  }
};
const given = (...commands: object[]) => givenIn(ws, ...commands);

const binaries = await ensureTemporalBinaries();
const env = await TestWorkflowEnvironment.createLocal({
  server: { executable: executableOption(binaries.cli), ip: '127.0.0.1' },
});
const worker = await Worker.create({
  connection: env.nativeConnection,
  taskQueue,
  workflowBundle: await bundleWorkflowCode({
    workflowsPath: fileURLToPath(new URL('./engine-workflows.ts', import.meta.url)),
    logger: new DefaultLogger('WARN'),
  }),
  activities: { ...activities, noop: async () => {} },
});
const client = env.client;
const running = worker.run();
const seconds = (start: number) => (performance.now() - start) / 1000;

async function bareWorkflows(n: number, tag: string): Promise<number> {
  const start = performance.now();
  await Promise.all(
    Array.from({ length: n }, (_, i) =>
      client.workflow.execute('bareRun', { workflowId: `bare-${tag}-${i}`, taskQueue }),
    ),
  );
  return n / seconds(start);
}

async function evaluatedRuns(n: number, tag: string): Promise<number> {
  for (let i = 0; i < n; i++) {
    const run = `${tag}-${i}`;
    await given(
      { type: 'create_thread', thread_id: run },
      { type: 'start_run', run_id: run, thread_id: run },
      { type: 'end_run', run_id: run, status: 'completed' },
    );
  }
  const start = performance.now();
  await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const run = `${tag}-${i}`;
      const handle = await client.workflow.signalWithStart('evaluateRun', {
        workflowId: evaluateRunWorkflowId(store.id, ws, run),
        taskQueue,
        args: [
          {
            workspaceId: ws,
            runId: run,
            threadId: run,
            plan: { turn: refs, message: [], artifact: [] },
          },
        ],
        signal: runEventSignal,
        signalArgs: [{ seq: 1, type: 'ended', status: 'completed' }],
      });
      await handle.result();
    }),
  );
  return n / seconds(start);
}

/** One run's end until its 6 scores (3 evaluators × 2 fields) are confirmed in the ledger. */
async function endToConfirmed(): Promise<number> {
  const own = 'bench-confirm'; // its own workspace, so the mirror has only this run's feedback
  await givenIn(
    own,
    { type: 'create_thread', thread_id: 't' },
    { type: 'start_run', run_id: 'r', thread_id: 't' },
    { type: 'end_run', run_id: 'r', status: 'completed' },
  );
  const start = performance.now();
  const handle = await client.workflow.signalWithStart('evaluateRun', {
    workflowId: evaluateRunWorkflowId(store.id, own, 'r'),
    taskQueue,
    args: [
      {
        workspaceId: own,
        runId: 'r',
        threadId: 't',
        plan: { turn: refs, message: [], artifact: [] },
      },
    ],
    signal: runEventSignal,
    signalArgs: [{ seq: 3, type: 'ended', status: 'completed' }],
  });
  await handle.result();
  await client.workflow.signalWithStart('mirror', {
    workflowId: mirrorWorkflowId(store.id, own),
    taskQueue,
    // The in-memory sink shows writes at once, so the first read-back need not wait 30 s.
    args: [{ workspaceId: own, reconcileDelaysMs: [0, 1000, 5000] }],
    signal: feedbackAppendedSignal,
    signalArgs: [{ seq: await store.head(own) }],
  });
  while ((await store.ledger.scores(own, { state: 'confirmed' })).length < 6) await sleep(5);
  return seconds(start);
}

async function reevaluation(versions: number, batchId: string) {
  const ids = [];
  for (let i = 0; i < versions; i++) ids.push(`${batchId}-doc-${String(i).padStart(6, '0')}`);
  for (const artifact_id of ids)
    await given({ type: 'put_artifact', artifact_id, kind: batchId, data: {} });
  const workflowId = reevaluateWorkflowId(store.id, ws, batchId);
  const start = performance.now();
  const progress = await client.workflow.execute('reevaluate', {
    workflowId,
    taskQueue,
    args: [
      {
        workspaceId: ws,
        batchId,
        selector: { kind: batchId },
        evaluators: refs.slice(0, 1),
        concurrency: 8,
        pageSize: 100,
      },
    ],
  });
  const elapsed = seconds(start);
  if (progress.done !== versions) throw new Error(`${batchId}: ${JSON.stringify(progress)}`);
  let longest = 0;
  for await (const execution of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
    longest = Math.max(longest, execution.historyLength);
  }
  return { perVersion: elapsed / versions, longest };
}

try {
  const bareBefore = await bareWorkflows(RUNS, 'warm');
  await evaluatedRuns(10, 'warm');
  const runsPerSecond = await evaluatedRuns(RUNS, 'runs');
  const barePerSecond = (bareBefore + (await bareWorkflows(RUNS, 'after'))) / 2;
  console.log(
    `runs: ${runsPerSecond.toFixed(1)}/s evaluated (3 evaluators) vs ${barePerSecond.toFixed(1)}/s bare`,
  );

  const bareStart = performance.now();
  await client.workflow.execute('bareRun', { workflowId: 'bare-roundtrip', taskQueue });
  const bareRoundTrip = seconds(bareStart);
  const confirm = await endToConfirmed();
  console.log(
    `confirm: ${(confirm * 1000).toFixed(0)} ms run end → scores confirmed vs ${(bareRoundTrip * 1000).toFixed(0)} ms bare round trip`,
  );

  const small = await reevaluation(SMALL, 'small');
  const large = await reevaluation(LARGE, 'large');
  console.log(
    `reevaluate: ${(small.perVersion * 1000).toFixed(2)} ms/version at ${SMALL}, ${(large.perVersion * 1000).toFixed(2)} ms/version at ${LARGE}; longest history ${Math.max(small.longest, large.longest)} events`,
  );
  const rss = process.memoryUsage().rss / 2 ** 20;
  console.log(
    JSON.stringify({
      bench: 'engine',
      runs_vs_bare: Number((runsPerSecond / barePerSecond).toFixed(2)),
      confirm_vs_bare_roundtrip: Number((confirm / bareRoundTrip).toFixed(2)),
      reeval_10k_vs_1k_per_version: Number((large.perVersion / small.perVersion).toFixed(2)),
      max_history_events: Math.max(small.longest, large.longest),
      worker_rss_mb: Math.round(rss),
    }),
  );
} finally {
  worker.shutdown();
  await running;
  await store.close();
  await env.teardown();
  rmSync(dir, { recursive: true, force: true });
}
