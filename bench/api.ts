// npm run bench:api — what the HTTP API costs over calling the store in the same process.
//
// One SQLite store; the same commands (a new thread each) go in three ways, alternating in chunks:
// through the store's `execute` with 32 callers at a time; through the HTTP API on loopback with
// 32 keep-alive connections, sent by autocannon from a process of its own (bench/api-clients.ts);
// and through a bare Fastify route in the same process doing the same append, sent by the same
// clients. It reports throughput as ratios: api / store (the HTTP layer and the loopback both),
// and api / bare route (`api_vs_bare_route`: evalflow's route stack — authentication,
// validation, idempotency, the rate limit, logging and metrics — against none, on the same
// server and load generator), and each side's latency percentiles. The last line is one JSON
// object. Not part of `npm test`.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import { buildApi, issueCredential } from '../src/api/index.js';
import { defineConfig } from '../src/config/index.js';
import { httpMetrics, Registry } from '../src/metrics/index.js';
import { openSqliteStore } from '../src/store/index.js';
import { InMemoryScoreConfigStore } from '../src/testing/index.js';
import type { ChunkReply, ChunkRequest } from './api-clients.js';

const COMMANDS = Number(process.env.BENCH_API_COMMANDS ?? 8000);
const CLIENTS = 32;
const ROUNDS = 3;
// Each round alternates the two sides in chunks, so a busy moment on a shared machine slows both.
const CHUNKS = 4;

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ??
  0;

/** Runs `work(i)` for i in [0, count) with `clients` at a time; returns elapsed ms. */
async function concurrently(count: number, clients: number, work: (i: number) => Promise<void>) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < count) await work(next++);
    }),
  );
  return performance.now() - started;
}

// The clients: one process for the whole run (bench/api-clients.ts), sent a chunk at a time.
const clients = fork(new URL('./api-clients.ts', import.meta.url).pathname, [], {
  execArgv: ['--import', 'tsx'],
});
const replies: ((value: ChunkReply) => void)[] = [];
clients.on('message', (message) => {
  if (message !== 'ready') replies.shift()?.(message as ChunkReply);
});
const failed = (code: number | null) => {
  throw new Error(`the HTTP clients exited with ${code}`);
};
clients.once('exit', failed);
await new Promise((resolve) => clients.once('message', resolve));
const sendChunk = (request: ChunkRequest) =>
  new Promise<ChunkReply>((resolve) => {
    replies.push(resolve);
    clients.send(request);
  });

const dir = mkdtempSync(join(tmpdir(), 'evalflow-bench-api-'));
const app = defineConfig({});
const store = openSqliteStore(join(dir, 'evalflow.db'), app);
const api = await buildApi({
  store,
  app,
  temporal: { client: {} as never, taskQueue: 'bench' },
  scoreConfigs: new InMemoryScoreConfigStore(),
  rateLimitPerMinute: 1_000_000,
  logger: false,
  // As startApi runs it: every answer counted and timed.
  metrics: httpMetrics(new Registry()),
});
const url = await api.listen({ host: '127.0.0.1', port: 0 });
const system = { kind: 'system', name: 'bench' } as const;
// The bare route: Fastify's own JSON body parsing and nothing else, then the same append.
const bare = Fastify({ logger: false });
let bareRound = 0;
bare.post<{ Body: { threadId: string } }>('/threads', async (request, reply) => {
  const outcome = await store.execute({
    workspace_id: `bare-${bareRound}`,
    actor: system,
    command: { type: 'create_thread', thread_id: request.body.threadId },
  });
  if (outcome.type !== 'recorded') throw new Error(outcome.message);
  return reply.code(201).send({ threadId: request.body.threadId, seq: outcome.events[0]?.seq });
});
const bareUrl = await bare.listen({ host: '127.0.0.1', port: 0 });

const rows: { round: number; store_per_s: number; api_per_s: number; bare_per_s: number }[] = [];
const latencies: number[] = [];
const bareLatencies: number[] = [];
try {
  // Round 0 warms both paths up (the JIT, SQLite's cache) and is not counted.
  for (let round = 0; round <= ROUNDS; round++) {
    const { key } = await issueCredential(store, {
      kind: 'key',
      workspaceId: `api-${round}`,
      principal: { kind: 'system' },
    });
    const perChunk = Math.ceil(COMMANDS / CHUNKS);
    let direct = 0;
    let viaHttp = 0;
    let viaBare = 0;
    bareRound = round;
    for (let offset = 0; offset < COMMANDS; offset += perChunk) {
      direct += await concurrently(perChunk, CLIENTS, async (i) => {
        const outcome = await store.executeUnchecked({
          workspace_id: `store-${round}`,
          actor: system,
          command: { type: 'create_thread', thread_id: `t${offset + i}` },
        });
        if (outcome.type !== 'recorded') throw new Error(outcome.message);
      });
      const sent = await sendChunk({
        url: `${url}/v1/threads`,
        key,
        count: perChunk,
        offset,
        connections: CLIENTS,
      });
      viaHttp += sent.elapsed;
      if (round > 0) latencies.push(...sent.latencies);
      const bareSent = await sendChunk({
        url: `${bareUrl}/threads`,
        key,
        count: perChunk,
        offset,
        connections: CLIENTS,
      });
      viaBare += bareSent.elapsed;
      if (round > 0) bareLatencies.push(...bareSent.latencies);
    }
    if (round === 0) continue;
    const done = perChunk * CHUNKS;
    rows.push({
      round,
      store_per_s: Math.round((done / direct) * 1000),
      api_per_s: Math.round((done / viaHttp) * 1000),
      bare_per_s: Math.round((done / viaBare) * 1000),
    });
  }
} finally {
  clients.off('exit', failed).kill();
  await api.close();
  await bare.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}

console.log(
  `bench:api — ${COMMANDS} create_thread commands per round, ${CLIENTS} concurrent callers, SQLite`,
);
console.log('round  store.execute/s  HTTP/s  bare route/s  api/store  api/bare');
for (const row of rows) {
  console.log(
    `${String(row.round).padEnd(7)}${String(row.store_per_s).padEnd(17)}${String(row.api_per_s).padEnd(8)}${String(row.bare_per_s).padEnd(14)}${(row.api_per_s / row.store_per_s).toFixed(2).padEnd(11)}${(row.api_per_s / row.bare_per_s).toFixed(2)}`,
  );
}
const ratio = median(rows.map((row) => row.api_per_s / row.store_per_s));
const bareRatio = median(rows.map((row) => row.api_per_s / row.bare_per_s));
console.log(
  JSON.stringify({
    bench: 'api',
    api_vs_store: Number(ratio.toFixed(2)),
    api_vs_bare_route: Number(bareRatio.toFixed(2)),
    p50_ms: Number(percentile(latencies, 0.5).toFixed(1)),
    p99_ms: Number(percentile(latencies, 0.99).toFixed(1)),
    api_per_s: median(rows.map((row) => row.api_per_s)),
    store_per_s: median(rows.map((row) => row.store_per_s)),
    bare_route_per_s: median(rows.map((row) => row.bare_per_s)),
    bare_p99_ms: Number(percentile(bareLatencies, 0.99).toFixed(1)),
  }),
);
