// npm run bench:costs — what counting the money costs, on the dev server.
//
// In one process: a worker with the real activities over a SQLite store, and a local stand-in
// for an OpenAI-compatible endpoint (the real one is not reachable from here) that answers at
// once and counts the tokens it bills. It measures
// - runs evaluated per second by 3 LLM judges whose replies carry usage, priced by the config and
//   under a budget each, against the same runs by judges whose replies carry none and no budget:
//   what the accounting costs when the judge itself costs nothing (the worst case; a real judge's
//   latency hides it);
// - a tight budget under 40 evaluations at once: what is spent beyond its limit;
// - a backfill's preview of its cost and duration against what the same batch then spends and
//   takes.
// The last line is one JSON object. Not part of `npm test`.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { createActivities } from '../src/activities/create-activities.js';
import { ensureTemporalBinaries } from '../src/cli/supervision/setup.js';
import { executableOption } from '../src/cli/supervision/temporal-binaries.js';
import { type Budget, createFeedbackTypeRegistry, type Pricing } from '../src/core/index.js';
import {
  createEvaluatorRegistry,
  type EvaluatorRef,
  llmJudgeEvaluator,
} from '../src/evaluators/index.js';
import { openSqliteStore } from '../src/store/index.js';
import { InMemoryScoreSink } from '../src/testing/index.js';
import { previewReevaluation } from '../src/workflow-clients/reevaluation-preview.js';
import { evaluateRunWorkflowId, runEventSignal } from '../src/workflows/evaluate-run-messages.js';
import { reevaluateWorkflowId } from '../src/workflows/reevaluate-messages.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const ROUNDS = 3;
const taskQueue = 'bench-costs';
const ws = 'bench';
const INPUT_TOKENS = 812;
const OUTPUT_TOKENS = 64;

Runtime.install({ logger: new DefaultLogger('WARN') });

// The stand-in endpoint: `/usage/...` bills every reply, `/plain/...` bills none.
const billed = { requests: 0, inputTokens: 0, outputTokens: 0 };
const endpoint = createServer((request, response) => {
  const withUsage = request.url?.startsWith('/usage/') === true;
  request.resume();
  request.on('end', () => {
    if (withUsage) {
      billed.requests += 1;
      billed.inputTokens += INPUT_TOKENS;
      billed.outputTokens += OUTPUT_TOKENS;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        choices: [{ message: { content: '{"score": 0.9, "passed": true, "reasoning": "ok"}' } }],
        ...(withUsage
          ? { usage: { prompt_tokens: INPUT_TOKENS, completion_tokens: OUTPUT_TOKENS } }
          : {}),
      }),
    );
  });
});
await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
const root = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}`;

const judgesOf = (kind: 'usage' | 'plain', model: string, names = ['a', 'b', 'c']) =>
  names.map((name) =>
    llmJudgeEvaluator({
      baseUrl: `${root}/${kind}/v1`,
      model,
      version: `${kind}-${name}`,
      targets: ['turn'],
      // What one call costs: 812 tokens in at $2.50 and 64 out at $10 per million.
      estimatedCostUsd: 0.00267,
    }),
  );
const accounted = judgesOf('usage', 'bench-model');
const plain = judgesOf('plain', 'bench-model');
const [tightJudge] = judgesOf('usage', 'bench-model', ['tight']);
const [backfillJudge] = judgesOf('usage', 'bench-model', ['backfill']);
if (tightJudge === undefined || backfillJudge === undefined) throw new Error('no judges');
const CALL_NANOS = Math.round(INPUT_TOKENS * 2.5 * 1000 + OUTPUT_TOKENS * 10 * 1000);
const TIGHT_CALLS = 10;
const TIGHT_LIMIT_USD = (TIGHT_CALLS * CALL_NANOS + CALL_NANOS / 2) / 1e9;
const budgets: Budget[] = [
  ...accounted.map((judge) => ({
    budgetId: `ample-${judge.version}`,
    evaluator: judge.id,
    period: 'month' as const,
    limitUsd: 1_000,
    onExhausted: 'skip' as const,
  })),
  {
    budgetId: 'tight',
    evaluator: tightJudge.id,
    period: 'month',
    limitUsd: TIGHT_LIMIT_USD,
    onExhausted: 'skip',
  },
];
const pricing: Pricing = { 'bench-model': { inputPerMillionUsd: 2.5, outputPerMillionUsd: 10 } };
const refsOf = (judges: typeof accounted): EvaluatorRef[] =>
  judges.map(({ name, version }) => ({ name, version }));

const dir = mkdtempSync(join(tmpdir(), 'evalflow-bench-costs-'));
const registry = createEvaluatorRegistry([...accounted, ...plain, tightJudge, backfillJudge]);
const feedbackTypes = createFeedbackTypeRegistry(
  [accounted[0]?.feedbackType].flatMap((t) => (t ? [t] : [])),
);
const store = openSqliteStore(join(dir, 'bench.db'), { feedbackTypes });
const sink = new InMemoryScoreSink();
const activities = createActivities({
  store,
  evaluators: registry,
  pricing,
  budgets,
  feedbackTypes,
  scoreSink: sink,
  scoreReader: sink,
});
const system = { kind: 'system', name: 'system' };
const given = async (...commands: object[]) => {
  for (const command of commands) {
    const outcome = await store.executeUnchecked({ workspace_id: ws, actor: system, command });
    if (outcome.type !== 'recorded') throw new Error(JSON.stringify(outcome));
  }
};

const binaries = await ensureTemporalBinaries();
const env = await TestWorkflowEnvironment.createLocal({
  server: { executable: executableOption(binaries.cli), ip: '127.0.0.1' },
});
const workflowBundle = await bundleWorkflowCode({
  workflowsPath: fileURLToPath(new URL('../src/workflows/index.ts', import.meta.url)),
  logger: new DefaultLogger('WARN'),
});
const worker = await Worker.create({
  connection: env.nativeConnection,
  taskQueue,
  workflowBundle,
  activities,
});
const client = env.client;
const running = worker.run();
const seconds = (start: number) => (performance.now() - start) / 1000;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;

async function evaluatedRuns(n: number, tag: string, turn: EvaluatorRef[]): Promise<number> {
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
          { workspaceId: ws, runId: run, threadId: run, plan: { turn, message: [], artifact: [] } },
        ],
        signal: runEventSignal,
        signalArgs: [{ seq: 1, type: 'ended', status: 'completed' }],
      });
      await handle.result();
    }),
  );
  return n / seconds(start);
}

try {
  await evaluatedRuns(10, 'warm-plain', refsOf(plain));
  await evaluatedRuns(10, 'warm-usage', refsOf(accounted));
  // Plain and accounted rounds alternate, each accounted round against the mean of the plain
  // rounds either side, so a shift in the machine's load weighs on both; the median round wins.
  const plains = [await evaluatedRuns(RUNS, 'plain-0', refsOf(plain))];
  const accountedRounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    accountedRounds.push(await evaluatedRuns(RUNS, `usage-${round}`, refsOf(accounted)));
    plains.push(await evaluatedRuns(RUNS, `plain-${round + 1}`, refsOf(plain)));
  }
  const ratios = accountedRounds.map(
    (perSecond, i) => perSecond / (((plains[i] ?? 0) + (plains[i + 1] ?? 0)) / 2),
  );
  const accountingVsPlain = median(ratios);
  // What the ledger says was spent on the accounted judges, against the endpoint's own bill.
  const [spent] = await store.usage.spend({ workspace_id: ws }, []);
  const expectedNanos = Math.round(
    INPUT_TOKENS * 2.5 * 1000 * billed.requests + OUTPUT_TOKENS * 10 * 1000 * billed.requests,
  );
  console.log(
    `accounting: ${median(accountedRounds).toFixed(1)} runs/s with usage priced vs ${median(plains).toFixed(1)}/s without ` +
      `(rounds ${ratios.map((r) => r.toFixed(2)).join(', ')}); ledger ${spent?.cost_nanos ?? 0} nano-USD ` +
      `for ${billed.requests} billed calls, endpoint's bill ${expectedNanos}`,
  );
  if ((spent?.cost_nanos ?? 0) !== expectedNanos)
    throw new Error('the ledger does not match the bill');

  // 40 evaluations at once under a budget of ten and a half calls.
  await evaluatedRuns(40, 'tight', refsOf([tightJudge]));
  const [tightSpent] = await store.usage.spend({ participant: tightJudge.participant }, []);
  const tightNanos = tightSpent?.cost_nanos ?? 0;
  const overshootUsd = Math.max(0, tightNanos / 1e9 - TIGHT_LIMIT_USD);
  const skipped = (
    await store.ledger.evaluations(ws, { participant: tightJudge.participant, state: 'skipped' })
  ).length;
  console.log(
    `budget: 40 evaluations at once under $${TIGHT_LIMIT_USD.toFixed(5)}: ${tightSpent?.evaluations ?? 0} judged, ${skipped} skipped, ` +
      `spent $${(tightNanos / 1e9).toFixed(5)} (beyond the limit: $${overshootUsd.toFixed(5)})`,
  );

  // The backfill judge gets a history, then a backfill of every run is previewed and run.
  await evaluatedRuns(RUNS, 'history', refsOf([backfillJudge]));
  const selection = { kind: 'turn' as const };
  const preview = await previewReevaluation(
    { store, evaluators: registry, limits: {}, pricing },
    ws,
    {
      selection,
      evaluators: [backfillJudge.id],
    },
  );
  const batchId = 'bench-backfill';
  const batchStart = performance.now();
  await client.workflow.execute('reevaluate', {
    workflowId: reevaluateWorkflowId(store.id, ws, batchId),
    taskQueue,
    args: [
      { workspaceId: ws, batchId, selection, evaluators: refsOf([backfillJudge]), concurrency: 8 },
    ],
  });
  const batchMs = performance.now() - batchStart;
  const [batchSpent] = await store.usage.spend({ generation: batchId }, []);
  const actualNanos = batchSpent?.cost_nanos ?? 0;
  const previewErrorPct =
    preview.costNanos === null
      ? null
      : (Math.abs(preview.costNanos - actualNanos) / actualNanos) * 100;
  console.log(
    `backfill: ${preview.targets} runs previewed at $${((preview.costNanos ?? 0) / 1e9).toFixed(4)} in ${(preview.durationMs / 1000).toFixed(1)} s (${preview.durationBasis}, from ${preview.versions[0]?.recordedAttempts} attempts); ` +
      `spent $${(actualNanos / 1e9).toFixed(4)} in ${(batchMs / 1000).toFixed(1)} s (cost off by ${previewErrorPct?.toFixed(1)} %)`,
  );
  console.log(
    JSON.stringify({
      bench: 'costs',
      accounting_runs_vs_plain: Number(accountingVsPlain.toFixed(2)),
      ledger_matches_bill: true,
      budget_overshoot_usd: Number(overshootUsd.toFixed(6)),
      preview_error_pct: previewErrorPct === null ? null : Number(previewErrorPct.toFixed(1)),
      preview_duration_error_pct: Number(
        ((Math.abs(preview.durationMs - batchMs) / batchMs) * 100).toFixed(1),
      ),
      preview_duration_basis: preview.durationBasis,
      runs: RUNS,
    }),
  );
} finally {
  worker.shutdown();
  await running;
  await env.teardown();
  await store.close();
  endpoint.close();
  rmSync(dir, { recursive: true, force: true });
}
