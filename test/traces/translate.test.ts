import { describe, expect, it } from 'vitest';
import { boundedContent, commandsOfRun, translateTrace } from '../../src/traces/index.js';
import { genaiAgent, span, spanId, TRACE } from './spans.js';

// The translator over hand-written spans of each convention: which span is a run, its thread,
// its turn's input and answer, how it ended, and that the answer does not depend on order.

describe('translateTrace', () => {
  it('makes one run of a top agent span, with its thread, input and answer', () => {
    const agent = genaiAgent(
      { attributes: { 'gen_ai.conversation.id': 'conv-1' } },
      'Where is my order?',
      'It ships today.',
    );
    const chat = span({
      parentSpanId: agent.spanId,
      name: 'chat gpt-4o',
      attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o' },
    });
    const { runs, waiting } = translateTrace([chat, agent], { idle: false });
    expect(waiting).toBe(0);
    expect(runs).toEqual([
      {
        runId: `${TRACE}-${agent.spanId}`,
        threadId: 'conv-1',
        traceId: TRACE,
        status: 'completed',
        failure: null,
        input: ['Where is my order?'],
        output: 'It ships today.',
        steps: {
          steps: [
            expect.objectContaining({ kind: 'model', span_id: chat.spanId, model: 'gpt-4o' }),
          ],
          omitted: 0,
        },
        spanCount: 2,
        startNs: agent.startNs,
        endNs: agent.endNs,
        outputNs: agent.endNs,
      },
    ]);
  });

  it('times a run by its span, and its answer by the end of the span it was read from', () => {
    const agent = span({
      name: 'invoke_agent support',
      startNs: '1700000000123456789',
      endNs: '1700000009000000000',
      attributes: { 'gen_ai.operation.name': 'invoke_agent' },
    });
    const chat = (startNs: string, endNs: string, answer: string) =>
      span({
        parentSpanId: agent.spanId,
        startNs,
        endNs,
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.output.messages': JSON.stringify([
            { role: 'assistant', parts: [{ type: 'text', content: answer }] },
          ]),
        },
      });
    const first = chat('1700000001000000000', '1700000002000000000', 'thinking');
    const last = chat('1700000003000000000', '1700000008000000000', 'done');
    expect(translateTrace([first, agent, last], { idle: false }).runs).toMatchObject([
      {
        output: 'done',
        startNs: '1700000000123456789',
        endNs: '1700000009000000000',
        outputNs: '1700000008000000000',
      },
    ]);
    // Its span never came: the earliest start and the latest end of the spans it has.
    expect(translateTrace([last, first], { idle: true }).runs).toMatchObject([
      { status: 'stopped', startNs: first.startNs, endNs: last.endNs, outputNs: last.endNs },
    ]);
  });

  it('waits for the agent span: its children alone are no run until the trace goes idle', () => {
    const agentId = spanId();
    const chat = span({
      parentSpanId: agentId,
      attributes: { 'gen_ai.operation.name': 'chat' },
    });
    expect(translateTrace([chat], { idle: false })).toEqual({ runs: [], waiting: 1 });
    const idle = translateTrace([chat], { idle: true });
    expect(idle.runs).toMatchObject([{ runId: `${TRACE}-${agentId}`, status: 'stopped' }]);
  });

  it('puts nested agent spans (OpenInference sends two per turn) into the top one', () => {
    const root = span({
      name: 'Agent workflow',
      attributes: { 'openinference.span.kind': 'AGENT', 'session.id': 'sess-7' },
    });
    const inner = span({
      parentSpanId: root.spanId,
      name: 'Assistant',
      attributes: { 'openinference.span.kind': 'AGENT', 'agent.name': 'Assistant' },
    });
    const llm = span({
      parentSpanId: inner.spanId,
      name: 'response',
      attributes: {
        'openinference.span.kind': 'LLM',
        'llm.input_messages.0.message.role': 'system',
        'llm.input_messages.0.message.content': 'Be brief.',
        'llm.input_messages.1.message.role': 'user',
        'llm.input_messages.1.message.content': 'Hi there',
        'llm.output_messages.0.message.role': 'assistant',
        'llm.output_messages.0.message.content': 'Hello!',
      },
    });
    // The inner agent alone is a run until its parent comes (the settle window's reason).
    const [early] = translateTrace([llm, inner], { idle: false }).runs;
    expect(early?.runId).toBe(`${TRACE}-${inner.spanId}`);
    const { runs } = translateTrace([llm, inner, root], { idle: false });
    expect(runs).toMatchObject([
      {
        runId: `${TRACE}-${root.spanId}`,
        threadId: 'sess-7',
        input: ['Hi there'],
        output: 'Hello!',
        spanCount: 3,
      },
    ]);
  });

  it('reads an OpenInference answer once though it is written as both message.content and message.contents (openai-agents, OpenInference 2.6)', () => {
    const root = span({
      name: 'Agent workflow',
      attributes: { 'openinference.span.kind': 'AGENT' },
    });
    const llm = span({
      parentSpanId: root.spanId,
      name: 'response',
      attributes: {
        'openinference.span.kind': 'LLM',
        'llm.input_messages.1.message.role': 'user',
        'llm.input_messages.1.message.content': 'Where is order 7?',
        'llm.output_messages.0.message.role': 'assistant',
        'llm.output_messages.0.message.contents.0.message_content.type': 'text',
        'llm.output_messages.0.message.contents.0.message_content.text': 'It ships Monday.',
        'llm.output_messages.0.message.content': 'It ships Monday.',
      },
    });
    expect(translateTrace([llm, root], { idle: false }).runs).toMatchObject([
      { input: ['Where is order 7?'], output: 'It ships Monday.' },
    ]);
  });

  it("reads the Vercel AI SDK's spans: its prompt, its answer, its metadata key", () => {
    const root = span({
      name: 'ai.generateText',
      attributes: {
        'ai.operationId': 'ai.generateText',
        'ai.prompt': JSON.stringify({ system: 'Be kind.', prompt: 'What is 2+2?' }),
        'ai.response.text': 'Four.',
        'ai.telemetry.metadata.conversationId': 'chat-42',
      },
    });
    const step = span({
      parentSpanId: root.spanId,
      name: 'ai.generateText.doGenerate',
      attributes: { 'ai.operationId': 'ai.generateText.doGenerate' },
    });
    const tool = span({
      parentSpanId: root.spanId,
      name: 'ai.toolCall',
      attributes: { 'ai.operationId': 'ai.toolCall', 'ai.toolCall.name': 'add' },
    });
    const { runs } = translateTrace([tool, step, root], {
      idle: false,
      conversationAttribute: 'ai.telemetry.metadata.conversationId',
    });
    expect(runs).toMatchObject([
      { threadId: 'chat-42', input: ['What is 2+2?'], output: 'Four.', status: 'completed' },
    ]);
    // Without the workspace's key, the run has a thread of its own per trace.
    expect(translateTrace([tool, step, root], { idle: false }).runs[0]?.threadId).toBe(
      `trace-${TRACE}`,
    );
  });

  it('takes the new user input after the last answer from a model call that repeats the history', () => {
    const agent = span({ attributes: { 'gen_ai.operation.name': 'invoke_agent' } });
    const chat = span({
      parentSpanId: agent.spanId,
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.prompt.0.role': 'user',
        'gen_ai.prompt.0.content': 'first question',
        'gen_ai.prompt.1.role': 'assistant',
        'gen_ai.prompt.1.content': 'first answer',
        'gen_ai.prompt.2.role': 'user',
        'gen_ai.prompt.2.content': 'second question',
        'gen_ai.completion.0.role': 'assistant',
        'gen_ai.completion.0.content': 'second answer',
      },
    });
    expect(translateTrace([agent, chat], { idle: false }).runs).toMatchObject([
      { input: ['second question'], output: 'second answer' },
    ]);
  });

  it('fails a run whose model call failed though its agent span is OK; a failed tool alone does not', () => {
    const agent = span({ attributes: { 'gen_ai.operation.name': 'invoke_agent' } });
    const tool = span({
      parentSpanId: agent.spanId,
      status: { code: 2, message: 'tool broke' },
      attributes: { 'gen_ai.operation.name': 'execute_tool' },
    });
    expect(translateTrace([agent, tool], { idle: false }).runs[0]?.status).toBe('completed');
    const chat = span({
      parentSpanId: agent.spanId,
      name: 'chat',
      attributes: {
        'gen_ai.operation.name': 'chat',
        'error.type': "<class 'openai.BadRequestError'>",
      },
    });
    expect(translateTrace([agent, tool, chat], { idle: false }).runs[0]).toMatchObject({
      status: 'failed',
      failure: "chat: <class 'openai.BadRequestError'>",
    });
  });

  it('makes a trace with no agent span one run: its root span and what is under it', () => {
    const root = span({ name: 'handle request' });
    const chat = span({
      parentSpanId: root.spanId,
      attributes: { 'gen_ai.operation.name': 'chat' },
    });
    expect(translateTrace([chat], { idle: false }).runs).toEqual([]);
    expect(translateTrace([chat, root], { idle: false }).runs).toMatchObject([
      { runId: `${TRACE}-${root.spanId}`, status: 'completed', spanCount: 2 },
    ]);
    // A root with nothing of GenAI under it is no run.
    expect(translateTrace([span({ name: 'GET /health' })], { idle: true }).runs).toEqual([]);
  });

  it('leaves an HTTP root above an agent span out of the run', () => {
    const http = span({ name: 'POST /chat', kind: 2 });
    const agent = genaiAgent({ parentSpanId: http.spanId }, 'q', 'a');
    expect(translateTrace([agent, http], { idle: true }).runs).toMatchObject([
      { runId: `${TRACE}-${agent.spanId}`, spanCount: 1 },
    ]);
  });

  it('gives the same runs whatever order the spans come in', () => {
    const agent = genaiAgent({}, 'q', 'a');
    const spans = [
      agent,
      span({ parentSpanId: agent.spanId, attributes: { 'gen_ai.operation.name': 'chat' } }),
      span({ parentSpanId: agent.spanId, attributes: { 'gen_ai.operation.name': 'execute_tool' } }),
    ];
    const forward = translateTrace(spans, { idle: false });
    expect(translateTrace([...spans].reverse(), { idle: false })).toEqual(forward);
  });

  it('joins agent spans of several traces into one run by evalflow.run.id', () => {
    const agent = genaiAgent({ attributes: { 'evalflow.run.id': 'ticket-9' } }, 'q', 'a');
    expect(translateTrace([agent], { idle: false }).runs[0]?.runId).toBe('ticket-9');
  });

  it('ends on spans that are their own ancestors, each still in a run', () => {
    const a = span({ attributes: { 'gen_ai.operation.name': 'chat' } });
    const b = span({ parentSpanId: a.spanId, attributes: { 'gen_ai.operation.name': 'chat' } });
    a.parentSpanId = b.spanId;
    const { runs } = translateTrace([a, b], { idle: true });
    expect(runs.reduce((sum, run) => sum + run.spanCount, 0)).toBe(2);
  });
});

describe('commandsOfRun', () => {
  it("is a host's lifecycle: start, the input, the answer, the end, with ids from the run's", () => {
    const agent = genaiAgent({}, 'q', 'a');
    const [run] = translateTrace([agent], { idle: false }).runs;
    if (!run) throw new Error('no run');
    expect(commandsOfRun(run, new Date()).map((c) => [c.type, c.command_id])).toEqual([
      ['start_run', `otlp:${run.runId}:start`],
      ['post_message', `otlp:${run.runId}:in-0`],
      ['post_message', `otlp:${run.runId}:out`],
      ['end_run', `otlp:${run.runId}:end`],
    ]);
  });

  const timesOf = (commands: ReturnType<typeof commandsOfRun>) =>
    commands.map((c) =>
      c.type === 'start_run' ? c.started_at : c.type === 'end_run' ? c.ended_at : c.posted_at,
    );
  const agentAt = (startNs: string, endNs: string) => {
    const [run] = translateTrace([genaiAgent({ startNs, endNs }, 'q', 'a')], { idle: false }).runs;
    if (!run) throw new Error('no run');
    return run;
  };

  it("reports the spans' times in milliseconds, exactly: the input at the start, the answer at its span's end", () => {
    const run = agentAt('1700000000123456789', '1700000004999999999');
    expect(timesOf(commandsOfRun(run, new Date()))).toEqual([
      '2023-11-14T22:13:20.123Z',
      '2023-11-14T22:13:20.123Z',
      '2023-11-14T22:13:24.999Z',
      '2023-11-14T22:13:24.999Z',
    ]);
  });

  it('bounds the times by the receiver’s clock and the run’s start, so the run is still recorded', () => {
    const now = new Date('2023-11-14T22:13:22.000Z');
    // An agent clock running ahead: what is after `now` is reported at `now`.
    expect(
      timesOf(commandsOfRun(agentAt('1700000000123456789', '1700000900000000000'), now)),
    ).toEqual([
      '2023-11-14T22:13:20.123Z',
      '2023-11-14T22:13:20.123Z',
      now.toISOString(),
      now.toISOString(),
    ]);
    // An end before its start is reported at the start.
    expect(
      timesOf(commandsOfRun(agentAt('1700000001000000000', '1700000000000000000'), now)),
    ).toEqual(Array(4).fill('2023-11-14T22:13:21.000Z'));
    // OTLP's unset zero: no times, the store's clock stands in.
    expect(timesOf(commandsOfRun(agentAt('0', '1700000000000000000'), now))).toEqual(
      Array(4).fill(undefined),
    );
  });
});

describe('a trace of 10,000 spans', () => {
  it('is one run whether its spans hang flat under the agent span or nest 10,000 deep', () => {
    const agent = genaiAgent({}, 'q', 'a');
    const flat = Array.from({ length: 9_999 }, () =>
      span({ parentSpanId: agent.spanId, attributes: { 'gen_ai.operation.name': 'chat' } }),
    );
    expect(translateTrace([...flat, agent], { idle: false }).runs).toMatchObject([
      { spanCount: 10_000 },
    ]);
    const deep = [agent];
    for (let i = 1; i < 10_000; i++) {
      const parent = deep[i - 1] as (typeof deep)[number];
      deep.push(
        span({ parentSpanId: parent.spanId, attributes: { 'gen_ai.operation.name': 'chat' } }),
      );
    }
    expect(translateTrace(deep.reverse(), { idle: false }).runs).toMatchObject([
      { runId: `${TRACE}-${agent.spanId}`, spanCount: 10_000 },
    ]);
  });
});

describe('boundedContent', () => {
  it('cuts content over the limit with a marker that says how much, within the limit', () => {
    expect(boundedContent('short', 1000)).toBe('short');
    const long = 'é'.repeat(1000);
    const cut = boundedContent(long, 500);
    expect(new TextEncoder().encode(cut).length).toBeLessThanOrEqual(500);
    expect(cut).toMatch(/^é+\n\[… cut by evalflow: \d+ more bytes\]$/);
  });
});
