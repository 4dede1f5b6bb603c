// npm run bench:engine — evalflow's durable evaluation against bare Temporal, on the dev server.
//
// In one process: a worker (the real activities over a SQLite store and an in-memory sink) and a
// baseline workflow of as many no-op activities as an evaluated run has. It measures
// - runs evaluated per second, each by 3 turn evaluators, against bare workflows per second,
//   with where the difference goes: history events, activities and store calls per run;
// - judge-bound runs: evaluators that each await 200 ms of I/O on a worker of BENCH_JUDGE_SLOTS
//   activity slots, against the limit those slots and that latency set;
// - one run's end until all its scores are confirmed, against one bare workflow's round trip;
// - a run of 50 assistant messages judged by 3 evaluators: its longest history (of any execution
//   of its continue-as-new chain);
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
import { ensureTemporalBinaries } from '../src/cli/supervision/setup.js';
import { executableOption } from '../src/cli/supervision/temporal-binaries.js';
import { createFeedbackTypeRegistry, defineFeedbackType } from '../src/core/index.js';
import {
  createEvaluatorRegistry,
  defineEvaluator,
  type EvaluatorRef,
} from '../src/evaluators/index.js';
import { engineMetrics, Registry } from '../src/metrics/index.js';
import { openSqliteStore } from '../src/store/index.js';
import { InMemoryScoreSink } from '../src/testing/index.js';
import { evaluateRunWorkflowId, runEventSignal } from '../src/workflows/evaluate-run-messages.js';
import { feedbackAppendedSignal, mirrorWorkflowId } from '../src/workflows/mirror-messages.js';
import { reevaluateWorkflowId } from '../src/workflows/reevaluate-messages.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const ROUNDS = 3;
const JUDGE_SLOTS = Number(process.env.BENCH_JUDGE_SLOTS ?? 8);
const JUDGE_RUNS = Number(process.env.BENCH_JUDGE_RUNS ?? 120);
const JUDGE_LATENCY_MS = 200;
const LONG_RUN_MESSAGES = 50;
const SMALL = 1_000;
const LARGE = Number(process.env.BENCH_REEVAL_VERSIONS ?? 10_000);
const taskQueue = 'bench';
const judgeQueue = 'bench-judge';
const ws = 'bench';

Runtime.install({ logger: new DefaultLogger('WARN') });
const quality = defineFeedbackType({
  name: 'bench_quality',
  targets: ['turn', 'message', 'artifact'],
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
// Judges that wait on an LLM: 200 ms of I/O each, no CPU.
const judges = ['judge_a', 'judge_b', 'judge_c'].map((name) =>
  defineEvaluator({
    name,
    version: '1',
    feedbackType: quality,
    targets: ['turn', 'message'],
    source: 'JUDGE',
    evaluate: async () => {
      await sleep(JUDGE_LATENCY_MS);
      return { ok: true, size: 1 };
    },
  }),
);
const judgeRefs: EvaluatorRef[] = judges.map(({ name, version }) => ({ name, version }));
const messageJudges = ['m_a', 'm_b', 'm_c'].map((name) =>
  defineEvaluator({
    name,
    version: '1',
    feedbackType: quality,
    targets: ['message'],
    source: 'HARNESS',
    evaluate: () => ({ ok: true, size: 1 }),
  }),
);

const dir = mkdtempSync(join(tmpdir(), 'evalflow-bench-'));
const feedbackTypes = createFeedbackTypeRegistry([quality]);
const store = openSqliteStore(join(dir, 'bench.db'), { feedbackTypes });
const storeCalls = countingCalls(store);
const sink = new InMemoryScoreSink();
const registry = createEvaluatorRegistry([...evaluators, ...judges, ...messageJudges]);
// As startEngine runs them: evaluations and the mirror's writes counted and timed.
const metrics = engineMetrics(new Registry(), { evaluators: registry.list(), sink: 'memory' });
const activities = createActivities({
  store: storeCalls.store,
  evaluators: registry,
  feedbackTypes,
  scoreSink: sink,
  scoreReader: sink,
  observers: { evaluations: metrics.evaluations, mirror: metrics.mirror },
});
const system = { kind: 'system', name: 'system' };
const givenIn = async (workspace_id: string, ...commands: object[]) => {
  for (const command of commands) {
    const outcome = await store.executeUnchecked({ workspace_id, actor: system, command });
    if (outcome.type !== 'recorded') throw new Error(JSON.stringify(outcome));
  }
};
const given = (...commands: object[]) => givenIn(ws, ...commands);

const binaries = await ensureTemporalBinaries();
const env = await TestWorkflowEnvironment.createLocal({
  server: { executable: executableOption(binaries.cli), ip: '127.0.0.1' },
});
const workflowBundle = await bundleWorkflowCode({
  workflowsPath: fileURLToPath(new URL('./engine-workflows.ts', import.meta.url)),
  logger: new DefaultLogger('WARN'),
});
const worker = await Worker.create({
  connection: env.nativeConnection,
  taskQueue,
  workflowBundle,
  activities: { ...activities, noop: async () => {} },
});
// The judge-bound worker: its activity slots are the limit being measured against.
const judgeWorker = await Worker.create({
  connection: env.nativeConnection,
  taskQueue: judgeQueue,
  workflowBundle,
  activities: { ...activities, evaluate: timed(activities.evaluate) },
  maxConcurrentActivityTaskExecutions: JUDGE_SLOTS,
});
/** Time inside the judge worker's evaluate activities: the rest of a slot's time is Temporal's. */
const slotTime = { ms: 0, count: 0 };
function timed<I, O>(activity: (input: I) => Promise<O>): (input: I) => Promise<O> {
  return async (input) => {
    const start = performance.now();
    try {
      return await activity(input);
    } finally {
      slotTime.ms += performance.now() - start;
      slotTime.count += 1;
    }
  };
}
const client = env.client;
const running = Promise.all([worker.run(), judgeWorker.run()]);
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

async function evaluatedRuns(
  n: number,
  tag: string,
  turn: EvaluatorRef[] = refs,
  queue = taskQueue,
): Promise<number> {
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
        taskQueue: queue,
        args: [
          {
            workspaceId: ws,
            runId: run,
            threadId: run,
            plan: { turn, message: [], artifact: [] },
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

/** History events of a workflow's latest execution. */
async function historyEvents(workflowId: string): Promise<number> {
  return (await client.workflow.getHandle(workflowId).fetchHistory()).events?.length ?? 0;
}

/** The longest history of any execution of a run of 50 answers judged by 3 message evaluators. */
async function longRunHistory(): Promise<{ longest: number; executions: number }> {
  const own = 'bench-long';
  const messages = Array.from({ length: LONG_RUN_MESSAGES }, (_, i) => `m${i}`);
  await givenIn(
    own,
    { type: 'create_thread', thread_id: 't' },
    { type: 'start_run', run_id: 'r', thread_id: 't' },
    ...messages.map((message_id) => ({
      type: 'post_message',
      thread_id: 't',
      message_id,
      role: 'assistant',
      content: message_id,
      run_id: 'r',
    })),
  );
  const workflowId = evaluateRunWorkflowId(store.id, own, 'r');
  const events = [
    ...messages.map((message_id, i) => ({
      seq: i + 3,
      type: 'message' as const,
      message_id,
      role: 'assistant' as const,
    })),
    { seq: messages.length + 3, type: 'ended' as const, status: 'completed' as const },
  ];
  const handle = await client.workflow.signalWithStart('evaluateRun', {
    workflowId,
    taskQueue,
    args: [
      {
        workspaceId: own,
        runId: 'r',
        threadId: 't',
        plan: {
          turn: [],
          message: messageJudges.map(({ name, version }) => ({ name, version })),
          artifact: [],
        },
      },
    ],
    signal: runEventSignal,
    signalArgs: [{ seq: 2, type: 'started' }],
  });
  for (const event of events) await handle.signal(runEventSignal, event);
  await handle.result();
  const lengths: number[] = [];
  let runId: string | null | undefined = handle.signaledRunId;
  while (runId) {
    const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    lengths.push(history.events?.length ?? 0);
    runId =
      history.events?.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId;
  }
  return { longest: Math.max(...lengths), executions: lengths.length };
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
  // Bare and evaluated rounds alternate, each evaluated round against the mean of the bare
  // rounds either side, so a shift in the machine's load between them weighs on both; the
  // figure is the median round. The process's CPU time per run says what the evaluation adds.
  await bareWorkflows(RUNS, 'warm');
  await evaluatedRuns(10, 'warm');
  const cpuMs = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  const timedRound = async (round: () => Promise<number>) => {
    const cpu = cpuMs();
    const perSecond = await round();
    return { perSecond, cpuPerRun: (cpuMs() - cpu) / RUNS };
  };
  const bares = [await timedRound(() => bareWorkflows(RUNS, 'bare-0'))];
  const evaluated: { perSecond: number; cpuPerRun: number }[] = [];
  storeCalls.reset();
  for (let round = 0; round < ROUNDS; round++) {
    evaluated.push(await timedRound(() => evaluatedRuns(RUNS, `runs-${round}`)));
    bares.push(await timedRound(() => bareWorkflows(RUNS, `bare-${round + 1}`)));
  }
  const storeCallsPerRun = storeCalls.total() / (RUNS * ROUNDS);
  const ratios = evaluated.map(
    (e, i) => e.perSecond / (((bares[i]?.perSecond ?? 0) + (bares[i + 1]?.perSecond ?? 0)) / 2),
  );
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;
  const runsVsBare = median(ratios);
  const runsPerSecond = median(evaluated.map((e) => e.perSecond));
  const barePerSecond = median(bares.map((b) => b.perSecond));
  const runCpuMs = median(evaluated.map((e) => e.cpuPerRun));
  const bareCpuMs = median(bares.map((b) => b.cpuPerRun));
  const runEvents = await historyEvents(evaluateRunWorkflowId(store.id, ws, 'runs-0-0'));
  const bareEvents = await historyEvents('bare-bare-0-0');
  console.log(
    `runs: ${runsPerSecond.toFixed(1)}/s evaluated (3 evaluators) vs ${barePerSecond.toFixed(1)}/s bare ` +
      `(rounds ${ratios.map((r) => r.toFixed(2)).join(', ')}); ` +
      `history ${runEvents} vs ${bareEvents} events per run, 3 activities each; ` +
      `CPU in this process ${runCpuMs.toFixed(1)} vs ${bareCpuMs.toFixed(1)} ms per run; ` +
      `${storeCallsPerRun.toFixed(1)} store calls per run (${storeCalls.summary(RUNS * ROUNDS)})`,
  );

  await evaluatedRuns(JUDGE_SLOTS, 'judge-warm', judgeRefs, judgeQueue);
  slotTime.ms = 0;
  slotTime.count = 0;
  const judgeStart = performance.now();
  const judgePerSecond = await evaluatedRuns(JUDGE_RUNS, 'judge', judgeRefs, judgeQueue);
  const judgeWall = performance.now() - judgeStart;
  const busy = slotTime.ms / (JUDGE_SLOTS * judgeWall);
  const inActivity = slotTime.ms / slotTime.count;
  const judgeLimit = JUDGE_SLOTS / ((JUDGE_LATENCY_MS / 1000) * judgeRefs.length);
  console.log(
    `judge-bound: ${judgePerSecond.toFixed(1)} runs/s (3 evaluators of ${JUDGE_LATENCY_MS} ms) vs a limit of ${judgeLimit.toFixed(1)}/s from ${JUDGE_SLOTS} activity slots; ` +
      `${inActivity.toFixed(0)} ms in each evaluate, slots busy ${(busy * 100).toFixed(0)}% of the time`,
  );

  await client.workflow.execute('bareChain', { workflowId: 'bare-roundtrip-warm', taskQueue });
  const bareStart = performance.now();
  await client.workflow.execute('bareChain', { workflowId: 'bare-roundtrip', taskQueue });
  const bareRoundTrip = seconds(bareStart);
  const confirm = await endToConfirmed();
  console.log(
    `confirm: ${(confirm * 1000).toFixed(0)} ms run end → scores confirmed vs ${(bareRoundTrip * 1000).toFixed(0)} ms bare round trip`,
  );

  const long = await longRunHistory();
  console.log(
    `long run: ${LONG_RUN_MESSAGES} answers × 3 evaluators, longest history ${long.longest} events over ${long.executions} execution(s)`,
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
      runs_vs_bare: Number(runsVsBare.toFixed(2)),
      run_cpu_ms: Number(runCpuMs.toFixed(1)),
      bare_cpu_ms: Number(bareCpuMs.toFixed(1)),
      judge_bound_vs_limit: Number((judgePerSecond / judgeLimit).toFixed(2)),
      judge_evaluate_ms: Math.round(inActivity),
      judge_slots_busy: Number(busy.toFixed(2)),
      run_history_events: runEvents,
      bare_history_events: bareEvents,
      store_calls_per_run: Number(storeCallsPerRun.toFixed(1)),
      confirm_vs_bare_roundtrip: Number((confirm / bareRoundTrip).toFixed(2)),
      reeval_10k_vs_1k_per_version: Number((large.perVersion / small.perVersion).toFixed(2)),
      max_history_events: Math.max(long.longest, small.longest, large.longest),
      long_run_history_events: long.longest,
      reeval_history_events: Math.max(small.longest, large.longest),
      worker_rss_mb: Math.round(rss),
    }),
  );
} finally {
  worker.shutdown();
  judgeWorker.shutdown();
  await running;
  await store.close();
  await env.teardown();
  rmSync(dir, { recursive: true, force: true });
}

/** The store, counting calls of its methods (and of its parts' methods, `ledger.settle...`). */
function countingCalls<T extends object>(target: T) {
  const counts = new Map<string, number>();
  const wrap = <O extends object>(object: O, prefix: string): O =>
    new Proxy(object, {
      get(on, key, receiver) {
        const value = Reflect.get(on, key, receiver);
        if (typeof key !== 'string') return value;
        if (typeof value === 'function') {
          return (...args: unknown[]) => {
            counts.set(`${prefix}${key}`, (counts.get(`${prefix}${key}`) ?? 0) + 1);
            return value.apply(on, args);
          };
        }
        return value !== null && typeof value === 'object'
          ? wrap(value, `${prefix}${key}.`)
          : value;
      },
    });
  return {
    store: wrap(target, ''),
    reset: () => counts.clear(),
    total: () => [...counts.values()].reduce((a, b) => a + b, 0),
    summary: (per: number) =>
      [...counts.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([name, n]) => `${name} ${(n / per).toFixed(1)}`)
        .join(', '),
  };
}
