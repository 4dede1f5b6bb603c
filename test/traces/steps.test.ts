import { describe, expect, it } from 'vitest';
import { MAX_STEPS_PER_RUN, STEP_TEXT_BYTES, utf8Bytes } from '../../src/core/index.js';
import { type SpanRecord, stepsOfRun, translateTrace } from '../../src/traces/index.js';
import { genaiAgent, span, TRACE } from './spans.js';

// A run's steps from each convention's model and tool spans: what each step says, tool spans
// joined to the model call that asked for them, tokens counted once, errors, and the bounds.

const at = (ms: number) => String(BigInt(1_700_000_000_000 + ms) * 1_000_000n);
const stepsOf = (spans: SpanRecord[]) => {
  const [run] = translateTrace(spans, { idle: false }).runs;
  if (!run) throw new Error('no run');
  return run.steps;
};

describe('steps', () => {
  it('reads GenAI model and tool calls in order, the tool joined to its call by call id', () => {
    const agent = genaiAgent({ startNs: at(0), endNs: at(900) }, 'Weather in Oslo?', 'Rainy.');
    const chat = span({
      parentSpanId: agent.spanId,
      name: 'chat gpt-4o',
      startNs: at(10),
      endNs: at(200),
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'gpt-4o',
        'gen_ai.response.model': 'gpt-4o-2024-08-06',
        'gen_ai.provider.name': 'openai',
        'gen_ai.usage.input_tokens': 120,
        'gen_ai.usage.output_tokens': '15',
        'gen_ai.output.messages': [
          {
            role: 'assistant',
            parts: [
              { type: 'tool_call', id: 'call_1', name: 'weather', arguments: { city: 'Oslo' } },
            ],
          },
        ],
      },
    });
    const tool = span({
      parentSpanId: agent.spanId,
      name: 'execute_tool weather',
      startNs: at(210),
      endNs: at(260),
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'weather',
        'gen_ai.tool.call.id': 'call_1',
        'gen_ai.tool.call.result': '{"sky":"rain"}',
      },
    });
    const { steps, omitted } = stepsOf([tool, agent, chat]);
    expect(omitted).toBe(0);
    expect(steps).toEqual([
      {
        kind: 'model',
        span_id: chat.spanId,
        name: 'chat gpt-4o',
        operation: 'chat',
        model: 'gpt-4o-2024-08-06',
        provider: 'openai',
        input_tokens: 120,
        output_tokens: 15,
        started_at: '2023-11-14T22:13:20.010Z',
        ended_at: '2023-11-14T22:13:20.200Z',
        status: 'ok',
        error: null,
        tool_name: null,
        call_id: null,
        arguments: null,
        result: null,
      },
      {
        kind: 'tool',
        span_id: tool.spanId,
        name: 'execute_tool weather',
        operation: 'execute_tool',
        model: null,
        provider: null,
        input_tokens: null,
        output_tokens: null,
        started_at: '2023-11-14T22:13:20.210Z',
        ended_at: '2023-11-14T22:13:20.260Z',
        status: 'ok',
        error: null,
        tool_name: 'weather',
        call_id: 'call_1',
        arguments: '{"city":"Oslo"}',
        result: '{"sky":"rain"}',
      },
    ]);
  });

  it("counts the Vercel AI SDK's tokens once: its model calls', not the root's sum of them", () => {
    const root = span({
      name: 'ai.generateText',
      attributes: {
        'ai.operationId': 'ai.generateText',
        'ai.usage.inputTokens': 30,
        'ai.usage.outputTokens': 12,
      },
    });
    const call = (n: number, fields: Record<string, string | number>) =>
      span({
        parentSpanId: root.spanId,
        name: 'ai.generateText.doGenerate',
        startNs: at(n * 100),
        endNs: at(n * 100 + 50),
        attributes: { 'ai.operationId': 'ai.generateText.doGenerate', ...fields },
      });
    const first = call(1, {
      'ai.model.id': 'mock-model',
      'ai.model.provider': 'mock-provider',
      'ai.usage.inputTokens': 10,
      'ai.usage.outputTokens': 5,
      'ai.response.toolCalls': JSON.stringify([
        { toolCallId: 'c1', toolName: 'lookup', input: '{"q":"x"}' },
      ]),
    });
    const tool = span({
      parentSpanId: root.spanId,
      name: 'ai.toolCall',
      startNs: at(160),
      endNs: at(170),
      attributes: {
        'ai.operationId': 'ai.toolCall',
        'ai.toolCall.name': 'lookup',
        'ai.toolCall.id': 'c1',
        'ai.toolCall.args': '{"q":"x"}',
        'ai.toolCall.result': '"found"',
      },
    });
    const second = call(2, { 'ai.usage.inputTokens': 20, 'ai.usage.outputTokens': 7 });
    const { steps } = stepsOf([root, first, tool, second]);
    expect(steps.map((s) => [s.kind, s.input_tokens, s.output_tokens])).toEqual([
      ['model', 10, 5],
      ['tool', null, null],
      ['model', 20, 7],
    ]);
    expect(steps[0]).toMatchObject({ model: 'mock-model', provider: 'mock-provider' });
    expect(steps[1]).toMatchObject({ tool_name: 'lookup', call_id: 'c1', result: '"found"' });
  });

  it("reads OpenInference's LLM and TOOL spans, the tool's arguments from the model's call", () => {
    const agent = span({ name: 'Assistant', attributes: { 'openinference.span.kind': 'AGENT' } });
    const llm = span({
      parentSpanId: agent.spanId,
      name: 'response',
      startNs: at(1),
      attributes: {
        'openinference.span.kind': 'LLM',
        'llm.model_name': 'gpt-4.1',
        'llm.provider': 'openai',
        'llm.token_count.prompt': 50,
        'llm.token_count.completion': 9,
        'llm.output_messages.0.message.role': 'assistant',
        'llm.output_messages.0.message.tool_calls.0.tool_call.id': 'call_9',
        'llm.output_messages.0.message.tool_calls.0.tool_call.function.name': 'add',
        'llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments': '{"a":1}',
      },
    });
    const tool = span({
      parentSpanId: agent.spanId,
      name: 'add',
      startNs: at(2),
      attributes: {
        'openinference.span.kind': 'TOOL',
        'tool_call.id': 'call_9',
        'output.value': '2',
      },
    });
    const { steps } = stepsOf([agent, llm, tool]);
    expect(steps).toMatchObject([
      { kind: 'model', model: 'gpt-4.1', provider: 'openai', input_tokens: 50, output_tokens: 9 },
      { kind: 'tool', tool_name: 'add', call_id: 'call_9', arguments: '{"a":1}', result: '2' },
    ]);
  });

  it('marks a failed step with its error from status, error.type or an exception event', () => {
    const agent = genaiAgent({}, 'q', 'a');
    const failed = span({
      parentSpanId: agent.spanId,
      startNs: at(1),
      attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'db' },
      events: [
        {
          name: 'exception',
          timeNs: at(2),
          attributes: { 'exception.type': 'TimeoutError', 'exception.message': 'db timed out' },
        },
      ],
    });
    const typed = span({
      parentSpanId: agent.spanId,
      startNs: at(3),
      attributes: { 'gen_ai.operation.name': 'chat', 'error.type': 'rate_limited' },
    });
    const [run] = translateTrace([agent, failed, typed], { idle: false }).runs;
    expect(run?.steps.steps.map((s) => [s.status, s.error])).toEqual([
      ['error', 'db timed out'],
      ['error', 'rate_limited'],
    ]);
    expect(run?.status).toBe('failed');
  });

  it('cuts long arguments and results with a marker, and lists at most the limit of steps', () => {
    const agent = genaiAgent({}, 'q', 'a');
    const long = 'x'.repeat(STEP_TEXT_BYTES * 2);
    const tools = Array.from({ length: MAX_STEPS_PER_RUN + 5 }, (_, n) =>
      span({
        parentSpanId: agent.spanId,
        startNs: at(n + 1),
        attributes: {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.call.arguments': n === 0 ? long : '{}',
        },
      }),
    );
    const { steps, omitted } = stepsOf([agent, ...tools]);
    expect(steps).toHaveLength(MAX_STEPS_PER_RUN);
    expect(omitted).toBe(5);
    const cut = steps[0]?.arguments ?? '';
    expect(utf8Bytes(cut)).toBeLessThanOrEqual(STEP_TEXT_BYTES);
    expect(cut).toMatch(/\[… cut by evalflow: \d+ more bytes\]$/);
  });
});

describe('stepsOfRun', () => {
  it("reads a run's steps from the stored spans of each of its traces", async () => {
    const other = '1'.repeat(32);
    const first = genaiAgent({ attributes: { 'evalflow.run.id': 'ticket-9' } }, 'q', 'a');
    const chat = span({
      parentSpanId: first.spanId,
      attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'm1' },
    });
    const second = genaiAgent(
      { traceId: other, attributes: { 'evalflow.run.id': 'ticket-9' } },
      'q2',
      'a2',
    );
    const tool = span({
      traceId: other,
      parentSpanId: second.spanId,
      attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'refund' },
    });
    const stored = new Map<string, unknown[]>([
      [TRACE, [first, chat]],
      [other, [tool, second]],
    ]);
    const traces = {
      ofTrace: async (workspace: string, trace: string) =>
        workspace === 'ws' ? (stored.get(trace) ?? []) : [],
    };
    const run = { run_id: 'ticket-9', trace_ids: [TRACE, other, '2'.repeat(32)] };
    const { steps, omitted } = await stepsOfRun(traces, 'ws', run);
    expect(omitted).toBe(0);
    expect(steps.map((s) => [s.kind, s.model ?? s.tool_name])).toEqual([
      ['model', 'm1'],
      ['tool', 'refund'],
    ]);
    expect(await stepsOfRun(traces, 'ws', { run_id: 'other', trace_ids: [TRACE] })).toEqual({
      steps: [],
      omitted: 0,
    });
  });
});
