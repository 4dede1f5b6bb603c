import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeProtobuf,
  ExportTraceServiceRequest,
  encodeProtobuf,
} from '../../src/api/otlp/protobuf.js';
import { readTraceMessage, readTraceRequest } from '../../src/traces/index.js';

// The protobuf path's reader (readTraceMessage, on the messages protobufjs decodes) against the
// schema's (readTraceRequest, on the same body as objects): the same spans, field for field and
// key for key, the same refusals with the same reasons, the same bodies refused whole.

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const bytes = (hex: string) => Buffer.from(hex, 'hex');
const id = (n: number, size: number) => bytes(n.toString(16).padStart(size * 2, '0'));
const NS = 1_700_000_000_000_000_000n;

type Wire = Record<string, unknown>;
const str = (value: string) => ({ stringValue: value });
const int = (value: number | string) => ({ intValue: value });
const attributes = (pairs: Record<string, Wire | undefined>) =>
  Object.entries(pairs).map(([key, value]) => (value ? { key, value } : { key }));

/** A span on the wire: ids as bytes, times as decimal strings, attributes as key-values. */
function wireSpan(n: number, fields: Wire = {}): Wire {
  return {
    traceId: bytes(TRACE),
    spanId: id(n, 8),
    name: `span ${n}`,
    kind: 1,
    startTimeUnixNano: (NS + BigInt(n) * 1_000_000n).toString(),
    endTimeUnixNano: (NS + BigInt(n) * 1_000_000n + 500_000n).toString(),
    ...fields,
  };
}

const body = (resourceSpans: Wire[]) =>
  encodeProtobuf(ExportTraceServiceRequest, { resourceSpans });
const oneResource = (spans: Wire[], service: Wire | null = str('support-bot')) =>
  body([
    {
      ...(service ? { resource: { attributes: [{ key: 'service.name', value: service }] } } : {}),
      scopeSpans: [{ scope: { name: 'test' }, spans }],
    },
  ]);

/** Reads a body both ways: what each read, or the error each threw. */
function bothWays(encoded: Uint8Array) {
  const attempt = (read: () => unknown) => {
    try {
      return { read: read() };
    } catch (error) {
      return { error: `${(error as Error).name}: ${(error as Error).message}` };
    }
  };
  return {
    schema: attempt(() => readTraceRequest(decodeProtobuf(ExportTraceServiceRequest, encoded))),
    messages: attempt(() => readTraceMessage(ExportTraceServiceRequest.decode(encoded))),
  };
}

/** A value with each object's prototype shown, where it is not a plain object's or an array's. */
function withPrototypes(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(withPrototypes);
  const proto = Object.getPrototypeOf(value);
  const own = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withPrototypes(v)]));
  return proto === Object.prototype ? own : { own, prototype: withPrototypes(proto) };
}

function expectSameRead(encoded: Uint8Array) {
  const { schema, messages } = bothWays(encoded);
  expect(messages).toStrictEqual(schema);
  // Key for key, as the receiver stores a span (JSON), and prototypes alike.
  expect(JSON.stringify(messages)).toBe(JSON.stringify(schema));
  expect(withPrototypes(messages)).toStrictEqual(withPrototypes(schema));
  return schema;
}

const genaiSpans = (): Wire[] => [
  wireSpan(1, {
    name: 'invoke_agent support',
    attributes: attributes({
      'gen_ai.operation.name': str('invoke_agent'),
      'gen_ai.agent.name': str('support'),
      'gen_ai.conversation.id': str('conv-1'),
    }),
  }),
  wireSpan(2, {
    name: 'chat gpt-4o-mini',
    kind: 3,
    parentSpanId: id(1, 8),
    attributes: attributes({
      'gen_ai.operation.name': str('chat'),
      'gen_ai.request.model': str('gpt-4o-mini'),
      'gen_ai.usage.input_tokens': int(42),
      'gen_ai.usage.output_tokens': int(7),
      'gen_ai.request.temperature': { doubleValue: 0.2 },
      'gen_ai.input.messages': str(
        JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Where is order 7?' }] }]),
      ),
      'gen_ai.response.finish_reasons': { arrayValue: { values: [str('stop')] } },
    }),
    events: [
      {
        timeUnixNano: (NS + 2_100_000n).toString(),
        name: 'gen_ai.user.message',
        attributes: attributes({ content: str('Where is order 7?') }),
      },
      { name: 'no time' },
    ],
    status: { code: 2, message: 'rate limited' },
  }),
  wireSpan(3, {
    name: 'execute_tool lookup_order',
    parentSpanId: id(1, 8),
    attributes: attributes({
      'gen_ai.operation.name': str('execute_tool'),
      'gen_ai.tool.name': str('lookup_order'),
      'error.type': str('Timeout'),
    }),
    events: [
      {
        timeUnixNano: (NS + 3_200_000n).toString(),
        name: 'exception',
        attributes: attributes({
          'exception.type': str('Timeout'),
          'exception.message': str('no answer in 5s'),
          'exception.escaped': { boolValue: true },
        }),
      },
    ],
    status: { code: 1 },
  }),
];

const openInferenceSpans = (): Wire[] => [
  wireSpan(11, {
    name: 'ChatCompletion',
    kind: 3,
    parentSpanId: id(12, 8),
    attributes: attributes({
      'openinference.span.kind': str('LLM'),
      'llm.model_name': str('gpt-4o'),
      'llm.input_messages.0.message.role': str('user'),
      'llm.input_messages.0.message.content': str('Hi'),
      'llm.output_messages.0.message.role': str('assistant'),
      'llm.output_messages.0.message.content': str('Hello!'),
      'llm.token_count.prompt': int(9),
      'llm.token_count.completion': int('3'),
      'llm.invocation_parameters': str('{"temperature":0}'),
      'input.value': str('{"messages":[]}'),
      'input.mime_type': str('application/json'),
      'session.id': str('session-9'),
    }),
  }),
  wireSpan(12, {
    name: 'agent',
    attributes: attributes({
      'openinference.span.kind': str('AGENT'),
      'input.value': str('Hi'),
      'output.value': str('Hello!'),
      metadata: str('{"user":"ada"}'),
    }),
  }),
];

const vercelSpans = (): Wire[] => [
  wireSpan(21, {
    name: 'ai.generateText',
    attributes: attributes({
      'operation.name': str('ai.generateText'),
      'ai.operationId': str('ai.generateText'),
      'ai.prompt': str('{"prompt":"What is 2+2?"}'),
      'ai.response.text': str('Four.'),
      'ai.response.finishReason': str('stop'),
      'ai.settings.maxRetries': int(2),
      'ai.telemetry.metadata.conversationId': str('chat-7'),
      'ai.usage.promptTokens': int(12),
      'ai.usage.completionTokens': int(3),
    }),
  }),
  wireSpan(22, {
    name: 'ai.generateText.doGenerate',
    parentSpanId: id(21, 8),
    kind: 3,
    attributes: attributes({
      'ai.operationId': str('ai.generateText.doGenerate'),
      'ai.prompt.messages': str('[{"role":"user","content":[{"type":"text","text":"2+2?"}]}]'),
      'ai.prompt.tools': { arrayValue: { values: [str('{"type":"function","name":"add"}')] } },
      'ai.response.toolCalls': str('[{"toolCallId":"call-1","toolName":"add","input":"{}"}]'),
      'gen_ai.system': str('mock-provider'),
      'gen_ai.usage.input_tokens': int(12),
    }),
  }),
  wireSpan(23, {
    name: 'ai.toolCall',
    parentSpanId: id(21, 8),
    attributes: attributes({
      'ai.operationId': str('ai.toolCall'),
      'ai.toolCall.name': str('add'),
      'ai.toolCall.id': str('call-1'),
      'ai.toolCall.args': str('{"a":2,"b":2}'),
      'ai.toolCall.result': str('4'),
    }),
  }),
];

/** An attribute of every AnyValue kind, nested, and the edges of each. */
const everyKind = attributes({
  string: str('text'),
  emptyString: str(''),
  true: { boolValue: true },
  false: { boolValue: false },
  int: int(42),
  zero: int(0),
  negative: int(-7),
  aboveSafe: int('9007199254740993'),
  int64Max: int('9223372036854775807'),
  int64Min: int('-9223372036854775808'),
  double: { doubleValue: 1.5 },
  doubleZero: { doubleValue: 0 },
  negativeZero: { doubleValue: -0 },
  tiny: { doubleValue: 5e-324 },
  huge: { doubleValue: 1.7976931348623157e308 },
  bytes: { bytesValue: bytes('00ff10') },
  emptyBytes: { bytesValue: new Uint8Array(0) },
  emptyArray: { arrayValue: {} },
  emptyList: { kvlistValue: {} },
  empty: {},
  noValue: undefined,
  array: {
    arrayValue: {
      values: [
        str('a'),
        int('1152921504606846977'),
        { arrayValue: { values: [{ boolValue: false }, {}, { doubleValue: 2.5 }] } },
        { kvlistValue: { values: attributes({ inner: str('x'), none: undefined }) } },
        { bytesValue: bytes('deadbeef') },
      ],
    },
  },
  kvlist: {
    kvlistValue: {
      values: attributes({
        nested: { kvlistValue: { values: attributes({ deeper: { arrayValue: { values: [] } } }) } },
        n: int(-1),
      }),
    },
  },
  twoOnTheWire: { stringValue: 'first', intValue: 5 },
  'service.name': str('the span says so'),
});

const timesSpans = (): Wire[] => [
  wireSpan(31, { startTimeUnixNano: '1', endTimeUnixNano: '9007199254740993' }),
  wireSpan(32, { startTimeUnixNano: '4294967296', endTimeUnixNano: '18446744073709551615' }),
  wireSpan(33, { startTimeUnixNano: '9007199254740991', endTimeUnixNano: '9999999999999999999' }),
  wireSpan(34, {
    events: [{ timeUnixNano: '18446744073709551615', name: 'last' }, { timeUnixNano: '1' }],
  }),
];

const malformedSpans = (): Wire[] => [
  wireSpan(41, { traceId: id(1, 8) }),
  wireSpan(42, { traceId: Buffer.alloc(16) }),
  wireSpan(43, { traceId: undefined }),
  wireSpan(44, { spanId: id(44, 4) }),
  wireSpan(45, { spanId: Buffer.alloc(8) }),
  wireSpan(46, { spanId: undefined }),
  wireSpan(47, { spanId: Buffer.alloc(20, 0xab) }),
  wireSpan(48, { parentSpanId: id(1, 4) }),
  wireSpan(49, { parentSpanId: Buffer.alloc(8) }),
  wireSpan(50, { parentSpanId: new Uint8Array(0) }),
  wireSpan(51, { kind: 6 }),
  wireSpan(52, { kind: -1 }),
  wireSpan(53, { status: { code: 3 } }),
  wireSpan(54, { status: { code: -2, message: 'no' } }),
  wireSpan(55, { attributes: attributes({ ok: str('x'), nan: { doubleValue: Number.NaN } }) }),
  wireSpan(56, { attributes: attributes({ inf: { doubleValue: Number.POSITIVE_INFINITY } }) }),
  wireSpan(57, {
    events: [
      { name: 'fine' },
      {
        attributes: attributes({
          a: { arrayValue: { values: [str('x'), { doubleValue: Number.NEGATIVE_INFINITY }] } },
        }),
      },
    ],
  }),
  wireSpan(58, { attributes: [{ key: '', value: str('no key') }] }),
  wireSpan(59, {
    attributes: attributes({
      list: { kvlistValue: { values: [{ key: 'k', value: int(1) }, { value: str('no key') }] } },
    }),
  }),
  wireSpan(60, { startTimeUnixNano: '0' }),
  wireSpan(61, { endTimeUnixNano: undefined }),
  wireSpan(62, { attributes: attributes({ index: { stringValueStrindex: 3 } }) }),
  wireSpan(63, { attributes: [{ keyStrindex: 4, value: str('by index') }] }),
  // The first field refused is the one named: the trace id before the kind.
  wireSpan(64, { traceId: id(1, 3), kind: 9, status: { code: 7 } }),
  wireSpan(65, { kind: 9, startTimeUnixNano: '0', attributes: attributes({ x: {} }) }),
];

describe('readTraceMessage reads a protobuf body as readTraceRequest reads its objects', () => {
  it('reads GenAI, OpenInference and Vercel AI SDK spans alike', () => {
    const read = expectSameRead(
      body([
        {
          resource: {
            attributes: attributes({ 'service.name': str('support-bot'), host: str('h') }),
          },
          scopeSpans: [{ spans: genaiSpans() }, { spans: openInferenceSpans() }],
        },
        { scopeSpans: [{ spans: vercelSpans() }] },
      ]),
    );
    expect(read).toMatchObject({ read: { refused: [] } });
    expect((read.read as { spans: unknown[] }).spans).toHaveLength(8);
  });

  it('reads attributes of every AnyValue kind alike, nested, past 2^53 and with bytes', () => {
    const read = expectSameRead(oneResource([wireSpan(5, { attributes: everyKind })]));
    // Not a check of parity: that the body did hold what the test means it to.
    expect(read.read).toMatchObject({
      spans: [
        {
          attributes: {
            'service.name': 'the span says so',
            aboveSafe: 9007199254740992,
            bytes: 'AP8Q',
            twoOnTheWire: 5,
            array: ['a', 2 ** 60, [false, null, 2.5], { inner: 'x', none: null }, '3q2+7w=='],
          },
        },
      ],
    });
  });

  it('reads times at the edges of 64 bits, and events with and without a time', () => {
    expectSameRead(oneResource(timesSpans()));
  });

  it('puts the resource service.name first, of whatever kind, or none', () => {
    for (const service of [str('svc'), int(7), {}, null]) {
      expectSameRead(oneResource([wireSpan(6, { attributes: everyKind }), wireSpan(7)], service));
    }
    expectSameRead(
      body([{ resource: { attributes: [{ key: 'service.name' }] }, scopeSpans: [{ spans: [] }] }]),
    );
  });

  it('refuses each malformed span alone, with the same reason, keeping the rest', () => {
    const read = expectSameRead(oneResource([wireSpan(40), ...malformedSpans(), wireSpan(66)]));
    // An empty parent id is no parent on the wire (proto3 writes no empty bytes): span 50 is kept.
    expect(read.read).toMatchObject({
      spans: [40, 50, 66].map((n) => ({ spanId: id(n, 8).toString('hex') })),
    });
    expect((read.read as { refused: unknown[] }).refused).toHaveLength(malformedSpans().length - 1);
  });

  it('reads a key named __proto__ as an attribute of its own, on either path, prototype untouched', () => {
    // Written as pairs: in an object literal, `__proto__:` would set the literal's prototype.
    const proto = [
      {
        key: '__proto__',
        value: { kvlistValue: { values: attributes({ 'gen_ai.operation.name': str('chat') }) } },
      },
      { key: 'after', value: str('x') },
    ];
    for (const service of [str('svc'), null]) {
      const request = oneResource([wireSpan(8, { attributes: proto })], service);
      expectSameRead(request);
      const [span] = readTraceMessage(ExportTraceServiceRequest.decode(request)).spans;
      expect(Object.getPrototypeOf(span?.attributes)).toBe(Object.prototype);
      expect(span?.attributes['gen_ai.operation.name']).toBeUndefined();
      expect(Object.getOwnPropertyDescriptor(span?.attributes, '__proto__')?.value).toEqual({
        'gen_ai.operation.name': 'chat',
      });
      expect(JSON.parse(JSON.stringify(span?.attributes))).toEqual(span?.attributes);
    }
    expectSameRead(
      body([{ resource: { attributes: proto }, scopeSpans: [{ spans: [wireSpan(9)] }] }]),
    );
  });

  it('refuses a body whose resource is malformed whole, with the same message', () => {
    for (const resource of [
      attributes({ 'service.name': str('ok'), bad: { doubleValue: Number.NaN } }),
      [{ value: str('no key') }],
    ]) {
      const { schema } = bothWays(
        body([
          { scopeSpans: [{ spans: [wireSpan(70)] }] },
          { resource: { attributes: resource }, scopeSpans: [{ spans: [wireSpan(71)] }] },
        ]),
      );
      expect(schema.error).toMatch(/^MalformedRequestError: not an ExportTraceServiceRequest: /);
      expectSameRead(
        body([
          { scopeSpans: [{ spans: [wireSpan(70)] }] },
          { resource: { attributes: resource }, scopeSpans: [{ spans: [wireSpan(71)] }] },
        ]),
      );
    }
  });

  it('reads an empty body and empty envelopes alike', () => {
    expectSameRead(new Uint8Array(0));
    expectSameRead(body([{}, { resource: {}, scopeSpans: [{}, { spans: [] }] }]));
  });

  it('reads any span alike (generated)', () => {
    const uint64 = fc.oneof(
      fc.constant(0n),
      fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
      fc.bigInt({ min: NS, max: NS + 10n ** 12n }),
    );
    const anId = (size: number) =>
      fc.oneof(
        { weight: 6, arbitrary: fc.uint8Array({ minLength: size, maxLength: size }) },
        { weight: 1, arbitrary: fc.constant(new Uint8Array(size)) },
        { weight: 1, arbitrary: fc.uint8Array({ maxLength: 20 }) },
      );
    const key = fc.oneof(
      fc.constantFrom('', 'service.name', 'gen_ai.operation.name', '__proto__', 'a'),
      fc.string({ maxLength: 12 }),
    );
    const { value } = fc.letrec<{ value: Wire; pair: Wire }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.record({ stringValue: fc.string({ maxLength: 12 }) }),
        fc.record({ boolValue: fc.boolean() }),
        fc.record({ intValue: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String) }),
        fc.record({ doubleValue: fc.double() }),
        fc.record({ bytesValue: fc.uint8Array({ maxLength: 6 }) }),
        fc.record({ arrayValue: fc.record({ values: fc.array(tie('value'), { maxLength: 3 }) }) }),
        fc.record({ kvlistValue: fc.record({ values: fc.array(tie('pair'), { maxLength: 3 }) }) }),
        fc.constant({}),
      ),
      pair: fc.record({ key, value: tie('value') }, { requiredKeys: ['key'] }),
    }));
    const pairs = fc.array(fc.record({ key, value }, { requiredKeys: ['key'] }), { maxLength: 4 });
    const span = fc.record(
      {
        traceId: anId(16),
        spanId: anId(8),
        parentSpanId: anId(8),
        name: fc.string({ maxLength: 12 }),
        kind: fc.integer({ min: -1, max: 6 }),
        startTimeUnixNano: uint64.map(String),
        endTimeUnixNano: uint64.map(String),
        attributes: pairs,
        events: fc.array(
          fc.record(
            {
              timeUnixNano: uint64.map(String),
              name: fc.string({ maxLength: 6 }),
              attributes: pairs,
            },
            { requiredKeys: [] },
          ),
          { maxLength: 2 },
        ),
        status: fc.record(
          { code: fc.integer({ min: -1, max: 3 }), message: fc.string({ maxLength: 6 }) },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: ['traceId', 'spanId', 'startTimeUnixNano', 'endTimeUnixNano'] },
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.record(
            {
              resource: fc.record({ attributes: pairs }),
              scopeSpans: fc.array(fc.record({ spans: fc.array(span, { maxLength: 4 }) }), {
                maxLength: 2,
              }),
            },
            { requiredKeys: ['scopeSpans'] },
          ),
          { maxLength: 2 },
        ),
        (resourceSpans) => {
          expectSameRead(body(resourceSpans));
        },
      ),
      { numRuns: 400 },
    );
  });
});
