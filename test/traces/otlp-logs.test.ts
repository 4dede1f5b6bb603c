import { describe, expect, it } from 'vitest';
import { joinLogs, readLogsRequest, translateTrace } from '../../src/traces/index.js';
import { span, TRACE } from './spans.js';

// Message content sent as OTLP log records: each record joins the span it names as an event.

const request = (records: unknown[]) => ({
  resourceLogs: [{ scopeLogs: [{ logRecords: records }] }],
});

describe('readLogsRequest', () => {
  it("reads a record's event name, time and body into an event of its span", () => {
    const read = readLogsRequest(
      request([
        {
          timeUnixNano: '1700000000000000000',
          eventName: 'gen_ai.user.message',
          traceId: TRACE,
          spanId: '00000000000000aa',
          body: { kvlistValue: { values: [{ key: 'content', value: { stringValue: 'Hi' } }] } },
          attributes: [{ key: 'gen_ai.system', value: { stringValue: 'openai' } }],
        },
      ]),
    );
    expect(read).toEqual({
      logs: [
        {
          traceId: TRACE,
          spanId: '00000000000000aa',
          event: {
            name: 'gen_ai.user.message',
            timeNs: '1700000000000000000',
            attributes: { 'gen_ai.system': 'openai', content: 'Hi' },
          },
        },
      ],
      refused: [],
    });
  });

  it('refuses a record that names no span, and one that is malformed, keeping the rest', () => {
    const read = readLogsRequest(
      request([
        { eventName: 'gen_ai.choice', body: { stringValue: 'x' } },
        { eventName: 'gen_ai.choice', traceId: TRACE, spanId: 'zz' },
        { eventName: 'gen_ai.choice', traceId: TRACE, spanId: '00000000000000ab' },
      ]),
    );
    expect(read.logs.map((log) => log.spanId)).toEqual(['00000000000000ab']);
    expect(read.refused).toEqual([
      { reason: 'a log record with no trace and span id: its content joins no span' },
      { reason: expect.stringMatching(/^spanId: /) },
    ]);
  });

  it('refuses a body that is no logs request whole', () => {
    expect(() => readLogsRequest({ resourceLogs: 7 })).toThrow(/^not an ExportLogsServiceRequest/);
  });
});

describe('joinLogs', () => {
  it('gives a model call the messages its instrumentation sent as log records', () => {
    const agent = span({ attributes: { 'gen_ai.operation.name': 'invoke_agent' } });
    const chat = span({
      parentSpanId: agent.spanId,
      attributes: { 'gen_ai.operation.name': 'chat' },
    });
    const event = (name: string, attributes: Record<string, unknown>) => ({
      traceId: TRACE,
      spanId: chat.spanId,
      event: { name, timeNs: '1', attributes: attributes as never },
    });
    const joined = joinLogs(
      [agent, chat],
      [
        event('gen_ai.user.message', { content: 'Is it raining?' }),
        event('gen_ai.choice', { message: { role: 'assistant', content: 'No.' } }),
        event('gen_ai.user.message', { content: 'for a span not yet here' }),
      ].map((log, at) => (at === 2 ? { ...log, spanId: 'ffffffffffffffff' } : log)),
    );
    expect(translateTrace(joined, { idle: false }).runs).toMatchObject([
      { input: ['Is it raining?'], output: 'No.' },
    ]);
  });
});
