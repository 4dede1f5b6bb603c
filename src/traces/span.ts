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

/** The earlier of two nanosecond times. */
export const earlierNs = (a: string, b: string): boolean => BigInt(a) < BigInt(b);

/** A nanosecond time in milliseconds: exact, through BigInt (nanoseconds exceed 2^53). */
export const msOfNs = (ns: string): number => Number(BigInt(ns) / 1_000_000n);
