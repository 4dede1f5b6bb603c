import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context as otelContext, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type EvaluationContext,
  JudgeRequestError,
  llmJudgeEvaluator,
  type Subject,
} from '../../src/evaluators/index.js';

// The judge's own span, read from a real SDK's in-memory exporter registered as the global
// provider (what evalflow's tracing does at start), against a local stand-in for the endpoint.

let server: Server;
let baseUrl: string;
let port: number;
let reply: { status: number; body: unknown };
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(reply.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  baseUrl = `http://127.0.0.1:${port}/v1`;
  trace.setGlobalTracerProvider(provider);
  otelContext.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});
afterAll(async () => {
  trace.disable();
  otelContext.disable();
  await provider.shutdown();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  exporter.reset();
  reply = {
    status: 200,
    body: {
      id: 'chatcmpl-1',
      model: 'grader-2025',
      choices: [{ message: { content: '{"score": 1, "passed": true}' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 120, completion_tokens: 9 },
    },
  };
});

const context: EvaluationContext = {
  participant: 'evaluator:llm_judge@1',
  attempt: 1,
  signal: new AbortController().signal,
  reportUsage: async () => {},
};
const subject: Subject = {
  kind: 'message',
  message: { message_id: 'm', thread_id: 't', run_id: null, role: 'assistant', content: '42' },
};

describe("the LLM judge's span", () => {
  it('is a GenAI client span `chat {model}` with the tokens the response reports', async () => {
    await llmJudgeEvaluator({ baseUrl, model: 'grader' }).evaluate(subject, context);
    const [span, ...others] = exporter.getFinishedSpans();
    expect(others).toEqual([]);
    expect(span?.name).toBe('chat grader');
    expect(span?.kind).toBe(SpanKind.CLIENT);
    expect(span?.instrumentationScope.name).toBe('evalflow.judge');
    expect(span?.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(span?.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'grader',
      'gen_ai.request.temperature': 0,
      'gen_ai.output.type': 'json',
      'server.address': '127.0.0.1',
      'server.port': port,
      'gen_ai.response.id': 'chatcmpl-1',
      'gen_ai.response.model': 'grader-2025',
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': 120,
      'gen_ai.usage.output_tokens': 9,
    });
  });

  it('names the provider it is given', async () => {
    await llmJudgeEvaluator({ baseUrl, model: 'grader', provider: 'azure.ai.openai' }).evaluate(
      subject,
      context,
    );
    expect(exporter.getFinishedSpans()[0]?.attributes['gen_ai.provider.name']).toBe(
      'azure.ai.openai',
    );
  });

  it('records a refusal: error.type is the HTTP status, the status an error', async () => {
    reply = { status: 503, body: { error: 'overloaded' } };
    const judge = llmJudgeEvaluator({ baseUrl, model: 'grader' });
    await expect(judge.evaluate(subject, context)).rejects.toBeInstanceOf(JudgeRequestError);
    const [span] = exporter.getFinishedSpans();
    expect(span?.attributes['error.type']).toBe('503');
    expect(span?.attributes['http.response.status_code']).toBe(503);
    expect(span?.attributes['gen_ai.usage.input_tokens']).toBeUndefined();
    expect(span?.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: expect.stringMatching(/answered 503$/),
    });
  });

  it('records an endpoint that does not answer by the transport error', async () => {
    const judge = llmJudgeEvaluator({ baseUrl: 'http://127.0.0.1:1/v1', model: 'grader' });
    await expect(judge.evaluate(subject, context)).rejects.toBeInstanceOf(JudgeRequestError);
    const [span] = exporter.getFinishedSpans();
    expect(span?.attributes['error.type']).toBe('TypeError');
    expect(span?.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('records a reply that is no verdict as a JudgeRequestError, with its tokens', async () => {
    reply = {
      status: 200,
      body: {
        choices: [{ message: { content: 'I think it is fine' } }],
        usage: { prompt_tokens: 5, completion_tokens: 4 },
      },
    };
    const judge = llmJudgeEvaluator({ baseUrl, model: 'grader' });
    await expect(judge.evaluate(subject, context)).rejects.toBeInstanceOf(JudgeRequestError);
    const [span] = exporter.getFinishedSpans();
    expect(span?.attributes['error.type']).toBe('JudgeRequestError');
    expect(span?.attributes['gen_ai.usage.output_tokens']).toBe(4);
    expect(span?.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('is a child of the span active when it is called', async () => {
    const tracer = trace.getTracer('test');
    await tracer.startActiveSpan('RunActivity:evaluate', async (parent) => {
      await llmJudgeEvaluator({ baseUrl, model: 'grader' }).evaluate(subject, context);
      parent.end();
    });
    const [chat, parent] = exporter.getFinishedSpans();
    expect(chat?.spanContext().traceId).toBe(parent?.spanContext().traceId);
    expect(chat?.parentSpanContext?.spanId).toBe(parent?.spanContext().spanId);
  });
});
