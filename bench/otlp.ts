// npm run bench:otlp — the OTLP receiver: what `POST /v1/traces` costs over decoding alone, how
// long from an agent span's arrival to its run's verdict, and what a 10,000-span trace costs in
// memory.
//
// One process holds what `evalflow start` runs (the API, a worker, the relays) on a SQLite store
// and the Temporal dev server. Memory, taken first on a quiet heap: the process's RSS before and
// after one 10,000-span trace is received and judged, each after a full GC. Latency: an agent
// span sent after its children, timed from the answer to its POST to the verdict recorded, less
// the settle window (the judge takes no time). Throughput, last (its traces' workflows stay
// behind): protobuf bodies of 512 GenAI spans (eight traces of 64, their agent spans held back)
// sent by 4 clients, alternating in chunks with a bare Fastify route on the same server that only
// decodes the same bodies (`otlp_vs_decode`, spans per second). The last line is one JSON object. Not part of `npm test`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { buildApi, issueCredential } from '../src/api/index.js';
import {
  decodeProtobuf,
  ExportTraceServiceRequest,
  encodeProtobuf,
} from '../src/api/otlp/protobuf.js';
import { ensureTemporalBinaries } from '../src/cli/supervision/setup.js';
import { executableOption } from '../src/cli/supervision/temporal-binaries.js';
import { loadConfig } from '../src/config/index.js';
import { followWorkspaces } from '../src/relay/index.js';
import { createWorker, openEngineDeps } from '../src/worker/index.js';
import { answeredApp as app } from '../test/support/answered-app.js';

const SPANS_PER_BODY = 512;
const SPANS_PER_TRACE = 64;
const BODIES = Number(process.env.BENCH_OTLP_BODIES ?? 48);
const CHUNKS = 4;
const CLIENTS = 4;
const LATENCY_RUNS = Number(process.env.BENCH_OTLP_RUNS ?? 40);
const SETTLE_MS = Number(process.env.BENCH_OTLP_SETTLE_MS ?? 100);
const BIG_TRACE_SPANS = 10_000;

Runtime.install({ logger: new DefaultLogger('WARN') });

const dir = mkdtempSync(join(tmpdir(), 'evalflow-bench-otlp-'));
const binaries = await ensureTemporalBinaries();
const env = await TestWorkflowEnvironment.createLocal({
  server: { executable: executableOption(binaries.cli), ip: '127.0.0.1' },
});
const config = loadConfig({
  EVALFLOW_SQLITE_PATH: join(dir, 'evalflow.db'),
  EVALFLOW_SCORES_FILE: join(dir, 'scores.jsonl'),
  EVALFLOW_SCORE_CONFIGS_FILE: join(dir, 'score-configs.jsonl'),
});
const engine = await openEngineDeps(config, app, () => {});
const taskQueue = 'bench-otlp';
const worker = await createWorker({
  connection: env.nativeConnection,
  namespace: 'default',
  taskQueue,
  activities: engine.activities,
});
const running = worker.run();
const relays = followWorkspaces({
  store: engine.store,
  client: env.client,
  taskQueue,
  rules: app.rules,
  evaluators: app.evaluators,
  reviewQueues: app.reviewQueues,
  pollMs: 50,
});
const api = await buildApi({
  store: engine.store,
  app,
  temporal: { client: env.client, taskQueue },
  scoreConfigs: engine.configStore,
  rateLimitPerMinute: 1_000_000,
  logger: false,
  traces: { ...config.traces, settleMs: SETTLE_MS },
});
// The bare route: the same server's framework, the same body parser, decoding only.
api.register(async (scope) => {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser(
    'application/x-protobuf',
    { parseAs: 'buffer', bodyLimit: 64 * 1024 * 1024 },
    (_request, body, done) => done(null, body),
  );
  scope.post('/bare/v1/traces', { config: { public: true } }, async (request, reply) => {
    decodeProtobuf(ExportTraceServiceRequest, request.body as Buffer);
    return reply.type('application/x-protobuf').send(Buffer.alloc(0));
  });
});
const url = await api.listen({ host: '127.0.0.1', port: 0 });
const key = (
  await issueCredential(engine.store, {
    kind: 'key',
    workspaceId: 'bench',
    principal: { kind: 'agent' },
  })
).key;

let nextId = 1;
const hex = (bytes: number) => (nextId++).toString(16).padStart(bytes * 2, '0');
const bytes = (id: string) => Buffer.from(id, 'hex');
const NS = 1_700_000_000_000_000_000n;

interface SpanSpec {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Record<string, string | number>;
}

/** A trace's spans: an agent span and `count - 1` model and tool calls under it. */
function traceSpans(count: number, traceId = hex(16)): { agent: SpanSpec; children: SpanSpec[] } {
  const agent: SpanSpec = {
    traceId,
    spanId: hex(8),
    name: 'invoke_agent support',
    attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.conversation.id': traceId },
  };
  const children = Array.from({ length: count - 1 }, (_, i): SpanSpec => {
    const model = i % 2 === 0;
    return {
      traceId,
      spanId: hex(8),
      parentSpanId: agent.spanId,
      name: model ? 'chat gpt-4o-mini' : 'execute_tool lookup',
      attributes: model
        ? {
            'gen_ai.operation.name': 'chat',
            'gen_ai.usage.input_tokens': 120,
            'gen_ai.input.messages': JSON.stringify([
              { role: 'user', parts: [{ type: 'text', content: `question ${i}` }] },
            ]),
            'gen_ai.output.messages': JSON.stringify([
              { role: 'assistant', parts: [{ type: 'text', content: `answer ${i}` }] },
            ]),
          }
        : { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup' },
    };
  });
  return { agent, children };
}

function body(spans: readonly SpanSpec[]): Buffer {
  return encodeProtobuf(ExportTraceServiceRequest, {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'bench' } }] },
        scopeSpans: [
          {
            spans: spans.map((span) => ({
              traceId: bytes(span.traceId),
              spanId: bytes(span.spanId),
              ...(span.parentSpanId ? { parentSpanId: bytes(span.parentSpanId) } : {}),
              name: span.name,
              kind: 1,
              startTimeUnixNano: NS.toString(),
              endTimeUnixNano: (NS + 1_000_000n).toString(),
              attributes: Object.entries(span.attributes).map(([k, v]) => ({
                key: k,
                value: typeof v === 'number' ? { intValue: v } : { stringValue: v },
              })),
            })),
          },
        ],
      },
    ],
  });
}

async function post(path: string, payload: Buffer): Promise<void> {
  const reply = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-protobuf' },
    body: payload,
  });
  await reply.arrayBuffer();
  if (reply.status !== 200) throw new Error(`${path}: HTTP ${reply.status}`);
}

/** Sends the bodies with `CLIENTS` at a time; elapsed ms. */
async function send(path: string, bodies: readonly Buffer[]): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < bodies.length) await post(path, bodies[next++] as Buffer);
    }),
  );
  return performance.now() - started;
}

// Memory: one trace of 10,000 spans, in bodies of 500, then its agent span.
global.gc?.();
const rssBefore = process.memoryUsage().rss;
const big = traceSpans(BIG_TRACE_SPANS);
for (let at = 0; at < big.children.length; at += 500) {
  await post('/v1/traces', body(big.children.slice(at, at + 500)));
}
await post('/v1/traces', body([big.agent]));
await verdictOf(`${big.agent.traceId}-${big.agent.spanId}`);
global.gc?.();
const rssGrowthMb = (process.memoryUsage().rss - rssBefore) / 1024 / 1024;
console.log(`one ${BIG_TRACE_SPANS}-span trace: RSS grew ${rssGrowthMb.toFixed(1)} MB`);

/** Resolves when the run's verdict is in the log. */
async function verdictOf(runId: string): Promise<void> {
  for (;;) {
    const events = await engine.store.events({ workspace_id: 'bench', after: 0 });
    if (
      events.some(
        (e) =>
          e.event.type === 'feedback_given' &&
          e.event.target.kind === 'turn' &&
          e.event.target.run_id === runId,
      )
    ) {
      return;
    }
    await new Promise<void>((resolve) => {
      const watch = engine.store.watchAppends(() => {
        watch();
        resolve();
      });
    });
  }
}

// Latency: the children first, then the agent span alone, as exporters send them.
const latencies: number[] = [];
for (let i = 0; i < LATENCY_RUNS; i++) {
  const { agent, children } = traceSpans(8);
  await post('/v1/traces', body(children));
  const sent = performance.now();
  await post('/v1/traces', body([agent]));
  const sentAt = Date.now();
  await verdictOf(`${agent.traceId}-${agent.spanId}`);
  latencies.push(performance.now() - sent - SETTLE_MS);
  if (process.env.BENCH_OTLP_TRACE_HOPS) {
    const events = await engine.store.events({ workspace_id: 'bench' });
    const runId = `${agent.traceId}-${agent.spanId}`;
    const at = (type: string) =>
      events.find((e) => e.event.type === type && JSON.stringify(e.event).includes(runId))?.ts;
    console.log(
      ['run_started', 'run_ended', 'feedback_given']
        .map((type) => `${type} +${Date.parse(at(type) ?? '') - sentAt} ms`)
        .join(', '),
    );
  }
}
latencies.sort((a, b) => a - b);
const p = (q: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? 0;
console.log(
  `agent span to verdict, beyond the ${SETTLE_MS} ms settle window: p50 ${p(0.5).toFixed(0)} ms, p99 ${p(0.99).toFixed(0)} ms`,
);

// Throughput: every body eight traces' children, stored and noted in the outbox as any; their
// agent spans are not sent, so that no run is judged while the next figures are taken (and no
// workflow starts for them: the signaller would once they had been quiet for the idle timeout).
const bodies = Array.from({ length: BODIES }, () => {
  const spans: SpanSpec[] = [];
  for (let t = 0; t < SPANS_PER_BODY / SPANS_PER_TRACE; t++) {
    spans.push(...traceSpans(SPANS_PER_TRACE + 1).children);
  }
  return body(spans);
});
await send('/bare/v1/traces', bodies.slice(0, 8));
const elapsed = { otlp: 0, decode: 0 };
const chunk = Math.ceil(BODIES / CHUNKS);
for (let at = 0; at < BODIES; at += chunk) {
  const part = bodies.slice(at, at + chunk);
  elapsed.decode += await send('/bare/v1/traces', part);
  elapsed.otlp += await send('/v1/traces', part);
}
const spansSent = BODIES * SPANS_PER_BODY;
const otlpSpansPerS = spansSent / (elapsed.otlp / 1000);
const decodeSpansPerS = spansSent / (elapsed.decode / 1000);
console.log(
  `throughput: /v1/traces ${Math.round(otlpSpansPerS)} spans/s, decode only ${Math.round(decodeSpansPerS)} spans/s: otlp_vs_decode ${(otlpSpansPerS / decodeSpansPerS).toFixed(2)}`,
);

await api.close();
await relays.close();
worker.shutdown();
await running;
await engine.close();
await env.teardown();
rmSync(dir, { recursive: true, force: true });
console.log(
  JSON.stringify({
    otlp_spans_per_s: Math.round(otlpSpansPerS),
    decode_spans_per_s: Math.round(decodeSpansPerS),
    otlp_vs_decode: Number((otlpSpansPerS / decodeSpansPerS).toFixed(3)),
    agent_end_to_verdict_p50_ms: Math.round(p(0.5)),
    agent_end_to_verdict_p99_ms: Math.round(p(0.99)),
    trace_10k_spans_rss_growth_mb: Number(rssGrowthMb.toFixed(1)),
  }),
);
