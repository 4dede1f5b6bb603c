// A span as evalflow keeps it: what OTLP/HTTP carried (protobuf or JSON), decoded to one shape,
// with ids as lowercase hex and times as nanoseconds since the epoch in decimal strings (they
// exceed 2^53). Only what the translator reads is kept.

/** An attribute's value: OTLP's AnyValue with its wrapper removed (bytes as base64). */
export type AttributeValue =
  | string
  | number
  | boolean
  | null
  | AttributeValue[]
  | { [key: string]: AttributeValue };

export type Attributes = Record<string, AttributeValue>;

/**
 * Sets an attribute as a property of its own, whatever its key: assigning a key `__proto__`
 * would set the object's prototype instead, and every absent attribute would read through it.
 */
export function setAttribute(attributes: Attributes, key: string, value: AttributeValue): void {
  if (key !== '__proto__') attributes[key] = value;
  else
    Object.defineProperty(attributes, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
}

/** OTLP's status codes: unset, ok, error. */
export const STATUS_ERROR = 2;

export interface SpanEvent {
  name: string;
  timeNs: string;
  attributes: Attributes;
}

export interface SpanRecord {
  /** 32 lowercase hex digits. */
  traceId: string;
  /** 16 lowercase hex digits. */
  spanId: string;
  /** Null for a trace's root span. */
  parentSpanId: string | null;
  name: string;
  /** OTLP's SpanKind: 0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  startNs: string;
  endNs: string;
  status: { code: number; message: string };
  /** The span's attributes, with its resource's `service.name` under `service.name`. */
  attributes: Attributes;
  events: SpanEvent[];
}

/** Two nanosecond times compared, as a sort's comparator wants. */
export const compareNs = (a: string, b: string): number => {
  const [x, y] = [BigInt(a), BigInt(b)];
  return x < y ? -1 : x > y ? 1 : 0;
};

/** Spans in the order they started; ties by end, then id, so any arrival order sorts alike. */
export const byStartThenEnd = (a: SpanRecord, b: SpanRecord): number =>
  compareNs(a.startNs, b.startNs) ||
  compareNs(a.endNs, b.endNs) ||
  (a.spanId < b.spanId ? -1 : a.spanId > b.spanId ? 1 : 0);

/** A nanosecond time in milliseconds: exact, through BigInt (nanoseconds exceed 2^53). */
export const msOfNs = (ns: string): number => Number(BigInt(ns) / 1_000_000n);

/** A span's time (nanoseconds since the epoch) as an ISO instant, to the millisecond. */
export const isoOfNs = (ns: string): string => new Date(msOfNs(ns)).toISOString();

/** A span's error from its status, `error.type` and exception events together; null for none. */
export function errorOf(span: SpanRecord): string | null {
  const exception = span.events.find((event) => event.name === 'exception');
  const type = span.attributes['error.type'] ?? exception?.attributes['exception.type'];
  if (span.status.code !== STATUS_ERROR && type === undefined) return null;
  const message =
    span.status.message || exception?.attributes['exception.message'] || (type ?? 'error');
  return typeof message === 'string' ? message : JSON.stringify(message);
}
