import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  type Attributes,
  context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { CompressionAlgorithm } from '@opentelemetry/otlp-exporter-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import {
  BatchSpanProcessor,
  SimpleSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApi, issueCredential } from '../../src/api/index.js';
import {
  decodeProtobuf,
  ExportTraceServiceResponse,
  RpcStatus,
} from '../../src/api/otlp/protobuf.js';
import { loadConfig } from '../../src/config/index.js';
import type { Envelope } from '../../src/core/index.js';
import { JsonlScoreSink } from '../../src/scores/file/index.js';
import { openEngineDeps } from '../../src/worker/index.js';
import {
  ingestTraceStateQuery,
  ingestTraceWorkflowId,
} from '../../src/workflows/ingest-trace-messages.js';
import { answeredApp } from '../support/answered-app.js';
import { type ApiHarness, startApi } from '../support/api.js';
import { eventually } from '../support/processes.js';
import { devServerEnvironment } from '../support/temporal.js';

// The OTLP receiver with real clients: the OpenTelemetry JS SDK's protobuf and JSON exporters
// (gzip on and off, the batch and the simple processor) sending GenAI spans written here, into
// the API and engine with their real parts. Each trace's run is recorded once, ended by its agent
// span, and judged once by the app's run evaluator.

let env: TestWorkflowEnvironment;
let h: ApiHarness;
let agentKey = '';
beforeAll(async () => {
  env = await devServerEnvironment();
  h = await startApi(env, answeredApp, {
    traces: {
      bodyLimitBytes: 1024 * 1024,
      settleMs: 100,
      idleMs: 60_000,
      conversationAttribute: 'ai.telemetry.metadata.conversationId',
    },
  });
  agentKey = await h.key('agent', 'otlp');
});
afterAll(async () => {
  await h?.close();
  await env?.teardown();
});

/** A tracer whose spans go to the API through `exporter`, flushed by `flush`. */
function tracing(exporter: SpanExporter, processor: 'batch' | 'simple') {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'support-bot' }),
    spanProcessors: [
      processor === 'batch' ? new BatchSpanProcessor(exporter) : new SimpleSpanProcessor(exporter),
    ],
  });
  return {
    tracer: provider.getTracer('evalflow-test'),
    flush: () => provider.forceFlush(),
    close: () => provider.shutdown(),
  };
}

const exporterOptions = (compression: 'gzip' | 'none', key = agentKey) => ({
  url: `${h.url}/v1/traces`,
  headers: { Authorization: `Bearer ${key}` },
  compression: compression as CompressionAlgorithm,
});

/** One agent turn as GenAI spans: the agent span, a model call and a tool call under it. */
function turn(
  tracer: ReturnType<typeof tracing>['tracer'],
  conversation: string,
  history: { role: string; text: string }[],
  answer: string,
  options: { modelFails?: boolean; startMs?: number } = {},
): Span {
  const messages = (list: { role: string; text: string }[]) =>
    JSON.stringify(
      list.map(({ role, text }) => ({ role, parts: [{ type: 'text', content: text }] })),
    );
  // Times in whole milliseconds apart: the SDK stamps a span's start to the millisecond, so calls
  // started within one would tie (a real model call takes far longer).
  const t0 = options.startMs ?? Date.now();
  const agent = tracer.startSpan('invoke_agent support', {
    startTime: t0,
    attributes: {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'support',
      'gen_ai.conversation.id': conversation,
    },
  });
  const inside = trace.setSpan(ROOT_CONTEXT, agent);
  const chatAttributes: Attributes = {
    'gen_ai.operation.name': 'chat',
    'gen_ai.request.model': 'gpt-4o-mini',
    'gen_ai.usage.input_tokens': 42,
    'gen_ai.usage.output_tokens': 7,
    'gen_ai.input.messages': messages(history),
    'gen_ai.output.messages': messages([{ role: 'assistant', text: answer }]),
  };
  const chat = tracer.startSpan(
    'chat gpt-4o-mini',
    { attributes: chatAttributes, startTime: t0 + 1 },
    inside,
  );
  if (options.modelFails) {
    chat.setStatus({ code: SpanStatusCode.ERROR, message: 'rate limited' });
    chat.setAttribute('error.type', 'RateLimitError');
  }
  chat.end(t0 + 2);
  const tool = tracer.startSpan(
    'execute_tool lookup_order',
    {
      attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup_order' },
      startTime: t0 + 3,
    },
    inside,
  );
  tool.end(t0 + 4);
  agent.end(t0 + 5);
  return agent;
}

const runIdOf = (span: Span) => `${span.spanContext().traceId}-${span.spanContext().spanId}`;

async function eventsOf(workspace: string): Promise<Envelope[]> {
  return h.engine.store.events({ workspace_id: workspace });
}

/** Waits until the run's verdict is recorded; the workspace's events then. */
async function judged(workspace: string, runId: string): Promise<Envelope[]> {
  return eventually(
    () => eventsOf(workspace),
    (events) =>
      events.some(
        (e) =>
          e.event.type === 'feedback_given' &&
          e.event.target.kind === 'turn' &&
          e.event.target.run_id === runId,
      ),
    30_000,
    50,
  );
}

describe('POST /v1/traces', () => {
  it('turns a trace from the protobuf exporter (gzip, batch processor) into a thread, a run and its messages, judged once', async () => {
    const { tracer, flush, close } = tracing(
      new ProtobufExporter(exporterOptions('gzip')),
      'batch',
    );
    const agent = turn(
      tracer,
      'conv-proto',
      [{ role: 'user', text: 'Where is order 7?' }],
      'It ships today.',
    );
    await flush();
    const runId = runIdOf(agent);
    const events = await judged('otlp', runId);
    const ofRun = events.filter((e) => {
      const about = e.event as { run_id?: string; thread_id?: string };
      return about.run_id === runId || about.thread_id === 'conv-proto';
    });
    expect(ofRun.map((e) => e.event.type)).toEqual([
      'thread_created',
      'run_started',
      'message_posted',
      'message_posted',
      'run_ended',
      'feedback_given',
    ]);
    expect(await h.engine.store.run('otlp', runId)).toMatchObject({
      thread_id: 'conv-proto',
      status: 'completed',
      trace_ids: [agent.spanContext().traceId],
    });
    expect(
      (await h.engine.store.conversation('otlp', 'conv-proto'))?.map((m) => [m.role, m.content]),
    ).toEqual([
      ['user', 'Where is order 7?'],
      ['assistant', 'It ships today.'],
    ]);
    const verdict = ofRun.at(-1)?.event;
    // The evaluator was given the run's steps: its model call and its tool call.
    expect(verdict).toMatchObject({ value: { answered: true, messages: 2, steps: 2 } });
    // The trace's runs with their steps, as `evalflow runs list --trace` and the clients read them.
    const listed = await h.call('GET', `/v1/runs?traceId=${agent.spanContext().traceId}`, {
      key: await h.key('system', 'otlp'),
    });
    expect(listed.body.runs.map((r: { run: { runId: string } }) => r.run.runId)).toEqual([runId]);
    expect(listed.body.runs[0]).toMatchObject({
      stepsOmitted: 0,
      steps: [
        {
          kind: 'model',
          name: 'chat gpt-4o-mini',
          model: 'gpt-4o-mini',
          inputTokens: 42,
          outputTokens: 7,
          status: 'ok',
        },
        { kind: 'tool', toolName: 'lookup_order', status: 'ok', error: null },
      ],
    });
    // The verdict's score lands on the agent's span (Langfuse's observation), not only its trace.
    const { traceId, spanId } = agent.spanContext();
    const sink = new JsonlScoreSink(h.scoresFile);
    const scores = await eventually(
      async () => [...(await sink.all()).values()].filter((score) => score.traceId === traceId),
      (found) => found.length > 0,
    );
    expect(scores).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'answered.answered', spanId })]),
    );
    await close();
  });

  it("keeps a run exported late at its spans' times: the agent span's start and end, the answer at its model call's end", async () => {
    const { tracer, flush, close } = tracing(
      new ProtobufExporter(exporterOptions('none')),
      'batch',
    );
    const startedAt = new Date(Date.now() - 3_600_000);
    const at = (ms: number) => new Date(startedAt.getTime() + ms);
    const agent = tracer.startSpan('invoke_agent support', {
      startTime: startedAt,
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.conversation.id': 'conv-late',
      },
    });
    const chat = tracer.startSpan(
      'chat gpt-4o-mini',
      {
        startTime: at(1000),
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.input.messages': JSON.stringify([
            { role: 'user', parts: [{ type: 'text', content: 'Still there?' }] },
          ]),
          'gen_ai.output.messages': JSON.stringify([
            { role: 'assistant', parts: [{ type: 'text', content: 'Yes.' }] },
          ]),
        },
      },
      trace.setSpan(ROOT_CONTEXT, agent),
    );
    chat.end(at(2500));
    agent.end(at(3000));
    await flush();
    const runId = runIdOf(agent);
    await judged('otlp', runId);
    expect(await h.engine.store.run('otlp', runId)).toMatchObject({
      status: 'completed',
      started_at: startedAt.toISOString(),
      updated_at: at(3000).toISOString(),
    });
    expect(
      (await h.engine.store.conversation('otlp', 'conv-late'))?.map((m) => [m.role, m.posted_at]),
    ).toEqual([
      ['user', startedAt.toISOString()],
      ['assistant', at(2500).toISOString()],
    ]);
    await close();
  });

  it('keeps two turns of one conversation as one thread with two runs, from the JSON exporter with the simple processor (children first)', async () => {
    const { tracer, close } = tracing(new JsonExporter(exporterOptions('none')), 'simple');
    const first = turn(tracer, 'conv-json', [{ role: 'user', text: 'Hi' }], 'Hello!');
    await judged('otlp', runIdOf(first));
    const second = turn(
      tracer,
      'conv-json',
      [
        { role: 'user', text: 'Hi' },
        { role: 'assistant', text: 'Hello!' },
        { role: 'user', text: 'Refund order 7' },
      ],
      'Refunded.',
      { modelFails: true },
    );
    await judged('otlp', runIdOf(second));
    expect(
      (await h.engine.store.conversation('otlp', 'conv-json'))?.map((m) => [m.role, m.content]),
    ).toEqual([
      ['user', 'Hi'],
      ['assistant', 'Hello!'],
      ['user', 'Refund order 7'],
      ['assistant', 'Refunded.'],
    ]);
    expect((await h.engine.store.run('otlp', runIdOf(second)))?.status).toBe('failed');
    await close();
  });

  it("lists a thread's turns in the order they happened when the later one's trace is recorded first", async () => {
    // Two turns of one conversation, the first still in its exporter's batch when the second,
    // sent on its own, is recorded; a batch exporter sending both at once races them alike.
    const held = tracing(new ProtobufExporter(exporterOptions('none')), 'batch');
    const sent = tracing(new ProtobufExporter(exporterOptions('none')), 'simple');
    const startMs = Date.now() - 60_000;
    const first = turn(held.tracer, 'conv-order', [{ role: 'user', text: 'Hi' }], 'Hello!', {
      startMs,
    });
    const history = [
      { role: 'user', text: 'Hi' },
      { role: 'assistant', text: 'Hello!' },
      { role: 'user', text: 'Where is order 7?' },
    ];
    const second = turn(sent.tracer, 'conv-order', history, 'It ships today.', {
      startMs: startMs + 1_000,
    });
    await judged('otlp', runIdOf(second));
    await held.flush();
    await judged('otlp', runIdOf(first));
    const conversation = await h.engine.store.conversation('otlp', 'conv-order');
    expect(conversation?.map((m) => [m.role, m.content])).toEqual([
      ['user', 'Hi'],
      ['assistant', 'Hello!'],
      ['user', 'Where is order 7?'],
      ['assistant', 'It ships today.'],
    ]);
    // Recorded the other way round: the log keeps the order it was told in.
    expect(conversation?.map((m) => m.seq)).not.toEqual(
      [...(conversation ?? [])].map((m) => m.seq).sort((a, b) => a - b),
    );
    await Promise.all([held.close(), sent.close()]);
  });

  it('joins message content sent as log records (POST /v1/logs, the logs SDK) to its span by span id', async () => {
    // As the GenAI instrumentation of `openai` sends content in its event modes: none on the
    // span, a log record per message naming the span.
    const logs = new LoggerProvider({
      processors: [
        new SimpleLogRecordProcessor({
          exporter: new OTLPLogExporter({
            url: `${h.url}/v1/logs`,
            headers: { Authorization: `Bearer ${agentKey}` },
          }),
        }),
      ],
    });
    const logger = logs.getLogger('opentelemetry.instrumentation.openai_v2');
    const { tracer, flush, close } = tracing(
      new ProtobufExporter(exporterOptions('none')),
      'batch',
    );
    const agent = tracer.startSpan('invoke_agent weather', {
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.conversation.id': 'conv-logs',
      },
    });
    const chat = tracer.startSpan(
      'chat gpt-4o-mini',
      { kind: SpanKind.CLIENT, attributes: { 'gen_ai.operation.name': 'chat' } },
      trace.setSpan(ROOT_CONTEXT, agent),
    );
    const inChat = trace.setSpan(ROOT_CONTEXT, chat);
    logger.emit({
      eventName: 'gen_ai.user.message',
      body: { content: 'Is it raining?' },
      context: inChat,
    });
    logger.emit({
      eventName: 'gen_ai.choice',
      body: { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'No.' } },
      context: inChat,
    });
    await logs.forceFlush();
    chat.end();
    agent.end();
    await flush();
    await judged('otlp', runIdOf(agent));
    expect(
      (await h.engine.store.conversation('otlp', 'conv-logs'))?.map((m) => [m.role, m.content]),
    ).toEqual([
      ['user', 'Is it raining?'],
      ['assistant', 'No.'],
    ]);
    await close();
    await logs.shutdown();
  });

  it("turns the Vercel AI SDK's telemetry of a generateText with a tool call into a run", async () => {
    // The SDK nests its spans through the active context, as an app's OTel set-up provides it.
    const contexts = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(contexts);
    const { tracer, flush, close } = tracing(
      new ProtobufExporter(exporterOptions('gzip')),
      'batch',
    );
    const usage = {
      inputTokens: { total: 12, noCache: 12, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 3, text: 3, reasoning: undefined },
    };
    // The model asks for the tool once, then answers: two steps, as a real provider would.
    const replies = [
      {
        content: [
          {
            type: 'tool-call' as const,
            toolCallId: 'call-1',
            toolName: 'add',
            input: '{"a":2,"b":2}',
          },
        ],
        finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
      },
      {
        content: [{ type: 'text' as const, text: 'Four.' }],
        finishReason: { unified: 'stop' as const, raw: 'stop' },
      },
    ];
    let step = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async () => ({
        ...(replies[Math.min(step++, 1)] as (typeof replies)[number]),
        usage,
        warnings: [],
      }),
    });
    const result = await generateText({
      model,
      prompt: 'What is 2+2?',
      tools: {
        add: tool({
          inputSchema: z.object({ a: z.number(), b: z.number() }),
          execute: async ({ a, b }) => a + b,
        }),
      },
      stopWhen: stepCountIs(3),
      experimental_telemetry: { isEnabled: true, tracer, metadata: { conversationId: 'chat-7' } },
    });
    expect(result.text).toBe('Four.');
    await flush();
    // The app's own conversation id, under the metadata key the workspace names.
    const [run] = await eventually(
      () => h.engine.store.runs('otlp', { thread_id: 'chat-7', limit: 10 }),
      (runs) => runs.length > 0 && runs[0]?.status !== 'running',
    );
    await judged('otlp', run?.run_id ?? '');
    expect(run).toMatchObject({ status: 'completed', thread_id: 'chat-7' });
    expect(
      (await h.engine.store.conversation('otlp', 'chat-7'))?.map((m) => [m.role, m.content]),
    ).toEqual([
      ['user', 'What is 2+2?'],
      ['assistant', 'Four.'],
    ]);
    // Its steps: the two model calls, each with its own tokens, and the tool call. (Their order
    // is by start, which the SDK stamps to the millisecond: a mock's calls share one.)
    const read = await h.call('GET', `/v1/runs/${run?.run_id}`, {
      key: await h.key('system', 'otlp'),
    });
    type Step = { kind: string; inputTokens: number | null };
    expect(read.body.steps.map((s: Step) => [s.kind, s.inputTokens]).sort()).toEqual([
      ['model', 12],
      ['model', 12],
      ['tool', null],
    ]);
    expect(read.body.steps.find((s: Step) => s.kind === 'tool')).toMatchObject({
      toolName: 'add',
      callId: 'call-1',
      arguments: '{"a":2,"b":2}',
      result: '4',
      status: 'ok',
    });
    await close();
    context.disable();
  });

  it('records a batch sent twice once', async () => {
    const { tracer, flush, close } = tracing(
      new ProtobufExporter(exporterOptions('none')),
      'batch',
    );
    const agent = turn(tracer, 'conv-twice', [{ role: 'user', text: 'Again?' }], 'Once.');
    await flush();
    const runId = runIdOf(agent);
    await judged('otlp', runId);
    // The same spans again, as a Collector fanning out twice would send them.
    const again = await fetch(`${h.url}/v1/traces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${agentKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(jsonRequest(agent.spanContext().traceId, agent.spanContext().spanId)),
    });
    expect(again.status).toBe(200);
    await close();
    const before = (await eventsOf('otlp')).length;
    // Its trace's workflow translates the trace again after the settle window: nothing is new.
    const workflow = env.client.workflow.getHandle(
      ingestTraceWorkflowId(h.engine.store.id, 'otlp', agent.spanContext().traceId),
    );
    const state = await eventually(
      () => workflow.query(ingestTraceStateQuery),
      (s) => s.translated === 2,
    );
    expect(state.last).toMatchObject({ runs: [{ runId, status: 'completed' }], refused: [] });
    expect(
      await h.engine.store.traceSpans.ofTrace('otlp', agent.spanContext().traceId),
    ).toHaveLength(3);
    const runs = (await eventsOf('otlp')).filter(
      (e) => e.event.type === 'run_started' && e.event.run_id === runId,
    );
    expect(runs).toHaveLength(1);
    expect((await eventsOf('otlp')).length).toBe(before);
  });
});

/** An OTLP/JSON request of one agent span, written by hand. */
function jsonRequest(traceId: string, spanId: string, extra: Record<string, unknown> = {}) {
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'by-hand' } }] },
        scopeSpans: [
          {
            scope: { name: 'hand' },
            spans: [
              {
                traceId,
                spanId,
                name: 'invoke_agent support',
                kind: 1,
                startTimeUnixNano: '1700000000000000000',
                endTimeUnixNano: '1700000001000000000',
                attributes: [
                  { key: 'gen_ai.operation.name', value: { stringValue: 'invoke_agent' } },
                ],
                ...extra,
              },
            ],
          },
        ],
      },
    ],
  };
}

describe('POST /v1/traces refuses', () => {
  const post = (body: Uint8Array | string, headers: Record<string, string>) =>
    fetch(`${h.url}/v1/traces`, { method: 'POST', headers, body });

  it('a body that does not decode with 400 and a google.rpc.Status in its encoding, storing nothing', async () => {
    const protobufReply = await post(Buffer.from([0xff, 0xff, 0xff]), {
      authorization: `Bearer ${agentKey}`,
      'content-type': 'application/x-protobuf',
    });
    expect(protobufReply.status).toBe(400);
    expect(protobufReply.headers.get('content-type')).toBe('application/x-protobuf');
    const status = decodeProtobuf(RpcStatus, new Uint8Array(await protobufReply.arrayBuffer()));
    expect(status).toMatchObject({ code: 3, message: expect.stringMatching(/not a protobuf/) });

    const jsonReply = await post(JSON.stringify({ resourceSpans: 'no' }), {
      authorization: `Bearer ${agentKey}`,
      'content-type': 'application/json',
    });
    expect(jsonReply.status).toBe(400);
    expect(await jsonReply.json()).toMatchObject({
      code: 3,
      message: expect.stringMatching(/^not an ExportTraceServiceRequest: resourceSpans/),
    });
  });

  it('a missing or unknown key with 401, a key that may not report with 403', async () => {
    const body = JSON.stringify(jsonRequest('1'.repeat(32), '2'.repeat(16)));
    expect((await post(body, { 'content-type': 'application/json' })).status).toBe(401);
    const unknown = await post(body, {
      authorization: `Bearer efk_${'0'.repeat(32)}_${'A'.repeat(32)}`,
      'content-type': 'application/json',
    });
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toMatchObject({ code: 16 });
    const reviewer = await post(body, {
      authorization: `Bearer ${await h.key('reviewer:grace', 'otlp')}`,
      'content-type': 'application/json',
    });
    expect(reviewer.status).toBe(403);
    expect(await h.engine.store.traceSpans.ofTrace('otlp', '1'.repeat(32))).toEqual([]);
  });

  it('a body over the limit once decompressed with 413', async () => {
    const huge = JSON.stringify(
      jsonRequest('3'.repeat(32), '4'.repeat(16), { name: 'x'.repeat(2 * 1024 * 1024) }),
    );
    const reply = await post(gzipSync(huge), {
      authorization: `Bearer ${agentKey}`,
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    });
    expect(reply.status).toBe(413);
    expect(await h.engine.store.traceSpans.ofTrace('otlp', '3'.repeat(32))).toEqual([]);
  });

  it('malformed spans one by one in partial_success, keeping the rest of the batch', async () => {
    const good = jsonRequest('5'.repeat(32), '6'.repeat(16));
    const spans = good.resourceSpans[0]?.scopeSpans[0]?.spans ?? [];
    spans.push(
      { ...spans[0], spanId: 'not-hex-at-all!!' } as never,
      {
        ...spans[0],
        spanId: '7'.repeat(16),
        attributes: [{ key: 'gen_ai.usage.input_tokens', value: { intValue: 'many' } }],
      } as never,
    );
    const reply = await post(JSON.stringify(good), {
      authorization: `Bearer ${agentKey}`,
      'content-type': 'application/json',
    });
    expect(reply.status).toBe(200);
    const body = (await reply.json()) as {
      partialSuccess: { rejectedSpans: string; errorMessage: string };
    };
    expect(body.partialSuccess.rejectedSpans).toBe('2');
    expect(body.partialSuccess.errorMessage).toMatch(/spanId: an id of 8 bytes/);
    expect(body.partialSuccess.errorMessage).toMatch(/intValue: a decimal integer/);
    const stored = await h.engine.store.traceSpans.ofTrace('otlp', '5'.repeat(32));
    expect(stored).toMatchObject([{ spanId: '6'.repeat(16) }]);
  });

  it('with 503 and Retry-After while the engine is behind, having kept what it took before', async () => {
    // An API alone: no relay drains its outbox, as when Temporal or every worker is down.
    const dir = mkdtempSync(join(tmpdir(), 'evalflow-otlp-behind-'));
    const engine = await openEngineDeps(
      loadConfig({
        EVALFLOW_SQLITE_PATH: join(dir, 'evalflow.db'),
        EVALFLOW_SCORES_FILE: join(dir, 'scores.jsonl'),
        EVALFLOW_SCORE_CONFIGS_FILE: join(dir, 'score-configs.jsonl'),
      }),
      answeredApp,
    );
    let ahead = 0;
    const api = await buildApi({
      store: engine.store,
      app: answeredApp,
      temporal: { client: env.client, taskQueue: 'nobody-polls' },
      scoreConfigs: engine.configStore,
      logger: false,
      now: () => new Date(Date.now() + ahead),
    });
    try {
      const url = await api.listen({ host: '127.0.0.1', port: 0 });
      const { key } = await issueCredential(engine.store, {
        kind: 'key',
        workspaceId: 'otlp',
        principal: { kind: 'agent' },
      });
      const send = (traceId: string) =>
        fetch(`${url}/v1/traces`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(jsonRequest(traceId, 'a'.repeat(16))),
        });
      expect((await send('a'.repeat(32))).status).toBe(200);
      ahead = 29_000;
      expect((await send('b'.repeat(32))).status).toBe(200);
      ahead = 31_000;
      const refused = await send('c'.repeat(32));
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('30');
      expect(await refused.json()).toMatchObject({
        code: 14,
        message: expect.stringMatching(/engine is behind/),
      });
      const stored = (traceId: string) => engine.store.traceSpans.ofTrace('otlp', traceId);
      expect(await stored('a'.repeat(32))).toHaveLength(1);
      expect(await stored('c'.repeat(32))).toEqual([]);
      const due = await engine.store.traceSignals.due(Date.now(), 10);
      expect(due.map((trace) => trace.trace_id).sort()).toEqual(['a'.repeat(32), 'b'.repeat(32)]);
    } finally {
      await api.close();
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers a good protobuf request with an empty ExportTraceServiceResponse', async () => {
    const reply = await post(Buffer.alloc(0), {
      authorization: `Bearer ${agentKey}`,
      'content-type': 'application/x-protobuf',
    });
    expect(reply.status).toBe(200);
    expect(
      decodeProtobuf(ExportTraceServiceResponse, new Uint8Array(await reply.arrayBuffer())),
    ).toEqual({});
  });
});
