// The API half of `npm run bench:queues`: claim + submit through a review queue holding 100,000
// items against the bare review path (POST /v1/reviews), on one store, in the same run.
//
// Per backend: a store (SQLite, or Postgres), a worker on the dev server running the review
// workflows and their activities, and the HTTP API on loopback, all in this process; the
// reviewers in a process of their own (bench/queues-reviewers.ts). The workspace holds QUEUED
// runs, all queued (by one filter request) in one queue, and as many runs again as the bare path
// reviews. Each round gives CHUNK verdicts each way, by REVIEWERS concurrent reviewers, the two
// ways alternating (and their order alternating) so a busy moment on a shared machine slows
// both; round 0 warms up and is not counted. Both ways do the same Temporal work (a review
// workflow started per target by update-with-start); the queue way adds the claim and the slot's
// bookkeeping.
import { fork } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowBundleOption } from '@temporalio/worker';
import { z } from 'zod';
import { createActivities } from '../src/activities/create-activities.js';
import { buildApi, issueCredential } from '../src/api/index.js';
import { defineConfig } from '../src/config/index.js';
import { defineFeedbackType } from '../src/core/index.js';
import type { Store } from '../src/store/index.js';
import { InMemoryScoreConfigStore, InMemoryScoreSink } from '../src/testing/index.js';
import { createWorker } from '../src/worker/index.js';
import type { ReviewChunk, ReviewChunkReply } from './queues-reviewers.js';

export const QUEUED = Number(process.env.BENCH_QUEUE_ITEMS ?? 100_000);
export const REVIEWERS = Number(process.env.BENCH_QUEUE_REVIEWERS ?? 20);
const CHUNK = Number(process.env.BENCH_QUEUE_CHUNK ?? 200);
const ROUNDS = Number(process.env.BENCH_QUEUE_ROUNDS ?? 3);
const WORKSPACE = 'bench';

const reviewVerdict = defineFeedbackType({
  name: 'review_verdict',
  targets: ['turn'],
  source: 'HUMAN',
  configName: 'review_verdict',
  schema: z.object({ verdict: z.enum(['pass', 'fail']), note: z.string().default('') }),
});
export const benchApp = defineConfig({
  feedbackTypes: [reviewVerdict],
  scoreConfigs: { review_verdict: { source: 'HUMAN' } },
});

export interface QueueFigures {
  backend: string;
  setup_s: number;
  review_per_s: number;
  claim_submit_per_s: number;
  claim_submit_vs_review: number;
  claim_p50_ms: number;
  claim_p99_ms: number;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
export const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ??
  0;

/** Runs `work(i)` for i in [0, count) with `callers` at a time. */
async function concurrently(count: number, callers: number, work: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

/** The reviewers' process: one chunk at a time. */
function reviewersProcess() {
  const child = fork(new URL('./queues-reviewers.ts', import.meta.url).pathname, [], {
    execArgv: ['--import', 'tsx'],
  });
  const replies: ((reply: ReviewChunkReply) => void)[] = [];
  child.on('message', (message) => {
    if (message !== 'ready') replies.shift()?.(message as ReviewChunkReply);
  });
  const failed = (code: number | null) => {
    throw new Error(`the reviewers' process exited with ${code}`);
  };
  child.once('exit', failed);
  return {
    ready: new Promise((resolve) => child.once('message', resolve)),
    send: (chunk: ReviewChunk) =>
      new Promise<ReviewChunkReply>((resolve) => {
        replies.push(resolve);
        child.send(chunk);
      }),
    stop: () => {
      child.off('exit', failed).kill();
    },
  };
}

/** Measures one backend; `open` gives a fresh store for the bench's app. */
export async function measureQueues(
  backend: string,
  env: TestWorkflowEnvironment,
  workflowBundle: WorkflowBundleOption,
  store: Store,
  log: (line: string) => void,
): Promise<QueueFigures> {
  const taskQueue = `bench-queues-${backend}`;
  const worker = await createWorker({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue,
    workflowBundle,
    activities: createActivities({
      store,
      evaluators: benchApp.evaluators,
      feedbackTypes: benchApp.feedbackTypes,
      scoreSink: new InMemoryScoreSink(),
      scoreReader: null,
    }),
  });
  const running = worker.run();
  const api = await buildApi({
    store,
    app: benchApp,
    temporal: { client: env.client, taskQueue },
    scoreConfigs: new InMemoryScoreConfigStore(),
    rateLimitPerMinute: 10_000_000,
    logger: false,
  });
  const url = await api.listen({ host: '127.0.0.1', port: 0 });
  const reviewers = reviewersProcess();
  try {
    const started = performance.now();
    const system = { kind: 'system', name: 'bench' } as const;
    const execute = async (command: Parameters<Store['execute']>[0]['command']) => {
      const outcome = await store.execute({ workspace_id: WORKSPACE, actor: system, command });
      if (outcome.type !== 'recorded') throw new Error(outcome.message);
    };
    await execute({ type: 'create_thread', thread_id: 'queued' });
    await execute({ type: 'create_thread', thread_id: 'bare' });
    const bareRuns = (ROUNDS + 1) * CHUNK;
    await concurrently(QUEUED, 32, (i) =>
      execute({ type: 'start_run', run_id: `q${i}`, thread_id: 'queued' }),
    );
    await concurrently(bareRuns, 32, (i) =>
      execute({ type: 'start_run', run_id: `b${i}`, thread_id: 'bare' }),
    );
    const key = async (principal: { kind: 'system' } | { kind: 'reviewer'; id: string }) =>
      (await issueCredential(store, { kind: 'key', workspaceId: WORKSPACE, principal })).key;
    const admin = await key({ kind: 'system' });
    const call = async (method: string, path: string, body: unknown) => {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${method} ${path}: ${await response.text()}`);
      return (await response.json()) as { added: number };
    };
    await call('PUT', '/v1/review-queues/bench', { feedbackType: 'review_verdict' });
    const added = await call('POST', '/v1/review-queues/bench/items', {
      filter: { kind: 'turn', threadId: 'queued' },
    });
    if (added.added !== QUEUED) throw new Error(`queued ${added.added} of ${QUEUED}`);
    const setup = (performance.now() - started) / 1000;
    log(`${backend}: ${QUEUED} runs made and queued in ${setup.toFixed(1)} s`);

    const keys = await Promise.all(
      Array.from({ length: REVIEWERS }, (_, i) => key({ kind: 'reviewer', id: `r${i}` })),
    );
    await reviewers.ready;
    const rows: { review: number; queue: number }[] = [];
    const claims: number[] = [];
    let bareNext = 0;
    for (let round = 0; round <= ROUNDS; round++) {
      const bare = async () => {
        const runs = Array.from({ length: CHUNK }, () => `b${bareNext++}`);
        return reviewers.send({ url, keys, mode: 'review', count: CHUNK, runs });
      };
      const queued = () =>
        reviewers.send({ url, keys, mode: 'queue', count: CHUNK, queue: 'bench' });
      const [first, second] = round % 2 === 0 ? [bare, queued] : [queued, bare];
      const a = await first();
      const b = await second();
      const [review, queue] = round % 2 === 0 ? [a, b] : [b, a];
      if (round === 0) continue;
      claims.push(...queue.claimLatencies);
      rows.push({
        review: (review.verdicts / review.elapsed) * 1000,
        queue: (queue.verdicts / queue.elapsed) * 1000,
      });
      log(
        `${backend} round ${round}: POST /v1/reviews ${rows.at(-1)?.review.toFixed(1)}/s, ` +
          `claim + submit ${rows.at(-1)?.queue.toFixed(1)}/s`,
      );
    }
    const progress = (await (
      await fetch(`${url}/v1/review-queues/bench`, {
        headers: { authorization: `Bearer ${admin}` },
      })
    ).json()) as { progress: { done: number } };
    const expected = ROUNDS * CHUNK + CHUNK;
    if (progress.progress.done !== expected) {
      throw new Error(`the queue counts ${progress.progress.done} verdicts, not ${expected}`);
    }
    const ratio = median(rows.map((row) => row.queue / row.review));
    return {
      backend,
      setup_s: Number(setup.toFixed(1)),
      review_per_s: Number(median(rows.map((row) => row.review)).toFixed(1)),
      claim_submit_per_s: Number(median(rows.map((row) => row.queue)).toFixed(1)),
      claim_submit_vs_review: Number(ratio.toFixed(2)),
      claim_p50_ms: Number(percentile(claims, 0.5).toFixed(1)),
      claim_p99_ms: Number(percentile(claims, 0.99).toFixed(1)),
    };
  } finally {
    reviewers.stop();
    await api.close();
    worker.shutdown();
    await running;
  }
}
