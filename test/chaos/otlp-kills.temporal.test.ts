import { performance } from 'node:perf_hooks';
import { ROOT_CONTEXT, type Span, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import {
  BatchSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Deployment } from '../../bench/chaos/deployment.js';
import type { Envelope } from '../../src/core/index.js';
import { startTestDeployment } from '../support/deployment.js';
import { eventually } from '../support/processes.js';

// Chaos for the OTLP receiver: agents' spans exported by the OpenTelemetry SDK (protobuf, the
// batch processor, its own retries) into `evalflow api` and `evalflow worker` as processes, the
// worker SIGKILLed while runs are judged and the API SIGKILLed before a batch is sent (the
// exporter retries until it is back). Every turn is one run with its two messages, and each
// answer is judged once by each evaluator of the chaos app.

const WORKSPACE = 'otlp';
const TURNS_PER_PHASE = 8;
/** The chaos app's evaluators of answers: politeness@1, answer_length@1 and @2. */
const VERDICTS_PER_ANSWER = 3;

let deployment: Deployment;
beforeAll(async () => {
  deployment = await startTestDeployment({
    worker: true,
    env: { EVALFLOW_OTLP_SETTLE_MS: '200' },
  });
}, 300_000);
afterAll(async () => {
  await deployment?.close();
});

type ExportDone = Parameters<SpanExporter['export']>[1];
/** `ExportResultCode.SUCCESS` of `@opentelemetry/core`. */
const SUCCESS = 0;

/**
 * An exporter that keeps the outcome of each export it was asked for (after its retries). While
 * the API restarts, an export whose retries ran out before it was back is sent again once it is,
 * as a collector's queue would: the SDK's own retries last about 13 s, and a loaded machine's
 * restart can take longer.
 */
class Recorded implements SpanExporter {
  readonly results: number[] = [];
  /** Set while the API restarts: resolves once it serves again. */
  apiBack: Promise<void> | null = null;
  constructor(private readonly inner: SpanExporter) {}
  export(spans: ReadableSpan[], done: ExportDone): void {
    this.inner.export(spans, (result) => {
      const back = this.apiBack;
      if (result.code !== SUCCESS && back !== null) {
        back.then(
          () => this.export(spans, done),
          () => done(result),
        );
        return;
      }
      this.results.push(result.code);
      done(result);
    });
  }
  shutdown() {
    return this.inner.shutdown();
  }
}

/** One agent turn: its agent span, a model call with the conversation and a tool call. */
function turn(tracer: ReturnType<NodeTracerProvider['getTracer']>, n: number): Span {
  const messages = (role: string, text: string) =>
    JSON.stringify([{ role, parts: [{ type: 'text', content: text }] }]);
  const agent = tracer.startSpan('invoke_agent support', {
    attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.conversation.id': `c${n}` },
  });
  const inside = trace.setSpan(ROOT_CONTEXT, agent);
  tracer
    .startSpan(
      'chat gpt-4o-mini',
      {
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.input.messages': messages('user', `Where is order ${n}?`),
          'gen_ai.output.messages': messages('assistant', `Order ${n} ships today, thank you.`),
        },
      },
      inside,
    )
    .end();
  tracer
    .startSpan(
      'execute_tool lookup',
      { attributes: { 'gen_ai.operation.name': 'execute_tool' } },
      inside,
    )
    .end();
  agent.end();
  return agent;
}

it('records each exported turn once and judges each answer once through worker and API kills', {
  timeout: 600_000,
}, async () => {
  const exporter = new Recorded(
    new OTLPTraceExporter({
      url: `${deployment.url}/v1/traces`,
      headers: { Authorization: `Bearer ${await deployment.key('system', WORKSPACE)}` },
      // Room for the exporter's retries (about 13 s of backoff) while the API restarts.
      timeoutMillis: 60_000,
    }),
  );
  const provider = new NodeTracerProvider({
    spanProcessors: [
      // An export may wait out the API's restart (`Recorded`), longer than the default 30 s.
      new BatchSpanProcessor(exporter, {
        scheduledDelayMillis: 20,
        maxExportBatchSize: 12,
        exportTimeoutMillis: 300_000,
      }),
    ],
  });
  const tracer = provider.getTracer('chaos');
  const agents: Span[] = [];
  const send = (phase: number) => {
    for (let i = 0; i < TURNS_PER_PHASE; i++) agents.push(turn(tracer, phase * 100 + i));
  };

  // 1. Sent and judged while everything runs; the worker is killed as soon as they are stored.
  send(1);
  await provider.forceFlush();
  await deployment.kill('worker');
  // 2. Sent while no worker runs: stored and signalled, judged once it is back.
  send(2);
  await provider.forceFlush();
  await deployment.restart('worker');
  // 3. The API is gone when the batch is sent: the exporter retries until it is back.
  await deployment.kill('api');
  send(3);
  const startedAt = performance.now();
  const restarted = deployment.restart('api');
  exporter.apiBack = restarted;
  await Promise.all([provider.forceFlush(), restarted]);
  const apiDownMs = performance.now() - startedAt;
  exporter.apiBack = null;
  await provider.shutdown();
  expect(exporter.results.length).toBeGreaterThan(0);
  expect(exporter.results.every((code) => code === SUCCESS)).toBe(true);

  const runIds = agents.map((a) => `${a.spanContext().traceId}-${a.spanContext().spanId}`);
  const expected = runIds.length * VERDICTS_PER_ANSWER;
  const verdictsOf = (events: Envelope[]) =>
    events.filter((e) => e.event.type === 'feedback_given' && e.actor.kind === 'evaluator');
  const events = await eventually(
    () => deployment.store.events({ workspace_id: WORKSPACE }),
    (all) => verdictsOf(all).length >= expected,
    240_000,
    250,
  );
  // Each run once, ended once, with its two messages once each.
  const started = events.filter((e) => e.event.type === 'run_started');
  expect(started.map((e) => (e.event as { run_id: string }).run_id).sort()).toEqual(
    [...runIds].sort(),
  );
  expect(events.filter((e) => e.event.type === 'run_ended')).toHaveLength(runIds.length);
  expect(events.filter((e) => e.event.type === 'message_posted')).toHaveLength(runIds.length * 2);
  // Each answer judged once by each evaluator.
  const verdicts = verdictsOf(events).map((e) => {
    const given = e.event as { target: { message_id?: string }; feedback_type: string };
    return `${given.target.message_id} ${given.feedback_type} ${JSON.stringify(e.actor)}`;
  });
  expect(verdicts).toHaveLength(expected);
  expect(new Set(verdicts).size).toBe(expected);
  // Phase 3's batch met no API for as long as the restart took, and landed: the exporter retried.
  expect(apiDownMs).toBeGreaterThan(500);
});
