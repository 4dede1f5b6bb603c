import type { Attributes, SpanRecord } from '../../src/traces/index.js';

// Spans as the receiver keeps them, written by hand for the translator's tests.

export const TRACE = '0af7651916cd43dd8448eb211c80319c';
let next = 1;

/** A span id of 16 hex digits, new each call. */
export const spanId = () => (next++).toString(16).padStart(16, '0');

export function span(fields: Partial<SpanRecord> & { attributes?: Attributes }): SpanRecord {
  return {
    traceId: TRACE,
    spanId: spanId(),
    parentSpanId: null,
    name: 'span',
    kind: 1,
    startNs: '1700000000000000000',
    endNs: '1700000001000000000',
    status: { code: 0, message: '' },
    attributes: {},
    events: [],
    ...fields,
  };
}

/** An OTel GenAI agent span, with its input and answer as GenAI messages (JSON strings). */
export function genaiAgent(fields: Partial<SpanRecord>, user: string, answer: string): SpanRecord {
  return span({
    name: 'invoke_agent support',
    ...fields,
    attributes: {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'support',
      'gen_ai.input.messages': JSON.stringify([
        { role: 'user', parts: [{ type: 'text', content: user }] },
      ]),
      'gen_ai.output.messages': JSON.stringify([
        { role: 'assistant', parts: [{ type: 'text', content: answer }], finish_reason: 'stop' },
      ]),
      ...fields.attributes,
    },
  });
}
