import {
  type Context,
  type ContextManager,
  context as otelContext,
  ROOT_CONTEXT,
  trace,
} from '@opentelemetry/api';
import {
  InMemoryLogRecordExporter,
  LoggerProvider,
  type ReadableLogRecord,
  SimpleLogRecordProcessor,
} from '@opentelemetry/sdk-logs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { InvalidScoreError, type Score, type ScoreDataType } from '../../src/scores/index.js';
import { ATTRIBUTES, OtelEventSink } from '../../src/scores/otel/index.js';
import { checkScoreSink } from '../../src/testing/index.js';

function otel() {
  const exporter = new InMemoryLogRecordExporter();
  const loggerProvider = new LoggerProvider({
    processors: [new SimpleLogRecordProcessor({ exporter })],
  });
  return { exporter, sink: new OtelEventSink({ loggerProvider }) };
}

/** Rebuilds the score an event carries, as a reader keyed by score id would. */
function scoreOf(record: ReadableLogRecord): Score {
  const a = record.attributes as Record<string, string | number | undefined>;
  const dataType = a[ATTRIBUTES.dataType] as ScoreDataType;
  const value =
    dataType === 'BOOLEAN'
      ? a[ATTRIBUTES.value] === 1
      : dataType === 'NUMERIC'
        ? (a[ATTRIBUTES.value] as number)
        : dataType === 'CATEGORICAL'
          ? (a[ATTRIBUTES.label] as string)
          : (a[ATTRIBUTES.explanation] as string);
  const source = Object.fromEntries(
    Object.entries(a)
      .filter(([key]) => key.startsWith(ATTRIBUTES.sourcePrefix))
      .map(([key, v]) => [key.slice(ATTRIBUTES.sourcePrefix.length), String(v)]),
  );
  const [seconds, nanos] = record.hrTime;
  const score: Score = {
    id: a[ATTRIBUTES.scoreId] as string,
    name: a[ATTRIBUTES.name] as string,
    value,
    dataType,
    timestamp: new Date(seconds * 1000 + nanos / 1e6).toISOString(),
    source,
  };
  const traceId = record.spanContext?.traceId ?? (a[ATTRIBUTES.traceId] as string | undefined);
  if (traceId) score.traceId = traceId;
  if (record.spanContext) score.spanId = record.spanContext.spanId;
  if (a[ATTRIBUTES.sessionId] !== undefined) score.sessionId = a[ATTRIBUTES.sessionId] as string;
  if (a[ATTRIBUTES.evaluator] !== undefined) score.evaluator = a[ATTRIBUTES.evaluator] as string;
  if (a[ATTRIBUTES.version] !== undefined) score.version = a[ATTRIBUTES.version] as string;
  if (a[ATTRIBUTES.confidence] !== undefined) score.confidence = a[ATTRIBUTES.confidence] as number;
  return score;
}

const trace32 = '4bf92f3577b34da6a3ce929d0e0e4736';

/**
 * The current context as a stack, enough for a sink whose `record` emits before its first
 * await: without a context manager the API has no current context to keep.
 */
class StackContextManager implements ContextManager {
  #stack: Context[] = [];
  active(): Context {
    return this.#stack.at(-1) ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    context: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    this.#stack.push(context);
    try {
      return fn.call(thisArg, ...args);
    } finally {
      this.#stack.pop();
    }
  }
  bind<T>(_context: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.#stack = [];
    return this;
  }
}

describe('OtelEventSink', () => {
  it('passes the ScoreSink contract when its events are read back keyed by score id', async () => {
    const { exporter, sink } = otel();
    await checkScoreSink(
      () => sink,
      async () => {
        const latest = new Map<string, Score>();
        for (const record of exporter.getFinishedLogRecords())
          latest.set(scoreOf(record).id, scoreOf(record));
        return latest.values();
      },
    );
  });

  it('emits one gen_ai.evaluation.result event per score, at the score’s time, with session.id', async () => {
    const { exporter, sink } = otel();
    await sink.record([
      {
        id: 'f1',
        name: 'review.stars',
        value: 4,
        dataType: 'NUMERIC',
        sessionId: 'thread-7',
        timestamp: '2026-09-29T12:30:00.250Z',
        source: { actor: 'user:u1' },
      },
    ]);
    const [record] = exporter.getFinishedLogRecords();
    expect(exporter.getFinishedLogRecords()).toHaveLength(1);
    expect(record?.eventName).toBe('gen_ai.evaluation.result');
    expect(record?.instrumentationScope.name).toBe('evalflow.scores');
    expect(record?.hrTime).toEqual([Date.parse('2026-09-29T12:30:00Z') / 1000, 250_000_000]);
    expect(record?.attributes).toStrictEqual({
      'gen_ai.evaluation.name': 'review.stars',
      'gen_ai.evaluation.score.value': 4,
      'session.id': 'thread-7',
      'evalflow.score.id': 'f1',
      'evalflow.score.data_type': 'NUMERIC',
      'evalflow.source.actor': 'user:u1',
    });
  });

  it('puts the judged span in the event context, and explains a verdict’s scores by its texts', async () => {
    const { exporter, sink } = otel();
    const verdict = {
      traceId: trace32,
      spanId: '00f067aa0ba902b7',
      evaluator: 'judge',
      version: '1',
      source: {},
    };
    await sink.record([
      { ...verdict, id: 'a', name: 'helpfulness.helpful', value: true, dataType: 'BOOLEAN' },
      { ...verdict, id: 'b', name: 'helpfulness.reason', value: 'cites docs', dataType: 'TEXT' },
    ]);
    const [helpful, reason] = exporter.getFinishedLogRecords();
    expect(helpful?.spanContext).toEqual({
      traceId: trace32,
      spanId: '00f067aa0ba902b7',
      traceFlags: 1,
      isRemote: true,
    });
    // The span carries the trace, so no attribute repeats it.
    expect(helpful?.attributes).toStrictEqual({
      'gen_ai.evaluation.name': 'helpfulness.helpful',
      'gen_ai.evaluation.score.value': 1,
      'gen_ai.evaluation.score.label': 'true',
      'gen_ai.evaluation.explanation': 'cites docs',
      'evalflow.score.id': 'a',
      'evalflow.score.data_type': 'BOOLEAN',
      'evalflow.evaluator.name': 'judge',
      'evalflow.evaluator.version': '1',
    });
    expect(reason?.attributes).toStrictEqual({
      'gen_ai.evaluation.name': 'helpfulness.reason',
      'gen_ai.evaluation.explanation': 'cites docs',
      'evalflow.score.id': 'b',
      'evalflow.score.data_type': 'TEXT',
      'evalflow.evaluator.name': 'judge',
      'evalflow.evaluator.version': '1',
    });
  });

  it('gives a no as 0 and `false`, with its confidence', async () => {
    const { exporter, sink } = otel();
    await sink.record([
      {
        id: 'a',
        name: 'h.helpful',
        value: false,
        dataType: 'BOOLEAN',
        confidence: 0.5,
        source: {},
      },
    ]);
    expect(exporter.getFinishedLogRecords()[0]?.attributes).toStrictEqual({
      'gen_ai.evaluation.name': 'h.helpful',
      'gen_ai.evaluation.score.value': 0,
      'gen_ai.evaluation.score.label': 'false',
      'evalflow.score.id': 'a',
      'evalflow.score.data_type': 'BOOLEAN',
      'evalflow.confidence': 0.5,
    });
  });

  it('explains each score by its own verdict’s texts only, each text by itself', async () => {
    const { exporter, sink } = otel();
    const on = (traceId: string) => ({
      traceId,
      spanId: '00f067aa0ba902b7',
      evaluator: 'judge',
      version: '1',
      source: {},
    });
    const first = on(trace32);
    const other = on('0af7651916cd43dd8448eb211c80319c');
    await sink.record([
      { ...first, id: 'a', name: 'help.stars', value: 4, dataType: 'NUMERIC' },
      { ...first, id: 'b', name: 'help.reason', value: 'cites docs', dataType: 'TEXT' },
      { ...first, id: 'c', name: 'help.advice', value: 'add links', dataType: 'TEXT' },
      { ...first, id: 'd', name: 'tone.reason', value: 'curt', dataType: 'TEXT' },
      { ...other, id: 'e', name: 'help.stars', value: 2, dataType: 'NUMERIC' },
      { ...other, id: 'f', name: 'help.reason', value: 'vague', dataType: 'TEXT' },
    ]);
    const explanations = exporter
      .getFinishedLogRecords()
      .map((record) => record.attributes[ATTRIBUTES.explanation]);
    expect(explanations).toEqual([
      'cites docs\nadd links',
      'cites docs',
      'add links',
      'curt',
      'vague',
      'vague',
    ]);
  });

  it('carries a trace without a span as an attribute, leaving the current context alone', async () => {
    const { exporter, sink } = otel();
    otelContext.setGlobalContextManager(new StackContextManager());
    onTestFinished(() => {
      otelContext.disable();
    });
    await otelContext.with(
      trace.setSpanContext(otelContext.active(), {
        traceId: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
        spanId: 'bbbbbbbbbbbbbbbb',
        traceFlags: 1,
      }),
      () =>
        sink.record([
          {
            id: 'a',
            name: 't.c',
            value: 'warm',
            dataType: 'CATEGORICAL',
            traceId: trace32,
            source: {},
          },
        ]),
    );
    const [record] = exporter.getFinishedLogRecords();
    expect(record?.spanContext).toMatchObject({
      traceId: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      spanId: 'bbbbbbbbbbbbbbbb',
    });
    expect(record?.attributes[ATTRIBUTES.traceId]).toBe(trace32);
    expect(record?.attributes[ATTRIBUTES.label]).toBe('warm');
  });

  it('refuses an invalid batch whole, emitting nothing', async () => {
    const { exporter, sink } = otel();
    const good = { id: 'a', name: 't.n', value: 1, dataType: 'NUMERIC', source: {} } as const;
    await expect(sink.record([good, { ...good, value: 'x' } as never])).rejects.toThrow(
      InvalidScoreError,
    );
    expect(exporter.getFinishedLogRecords()).toEqual([]);
  });
});
