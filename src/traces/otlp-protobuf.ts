import { MalformedRequestError, type ReadRequest } from './otlp-request.js';
import {
  type Attributes,
  type AttributeValue,
  type SpanEvent,
  type SpanRecord,
  setAttribute,
} from './span.js';

// An ExportTraceServiceRequest as protobufjs decodes a protobuf body into its messages (no
// `toObject`, no schema): the protobuf path's reader, for what readTraceRequest does on the same
// body as objects, span for span and refusal for refusal. The .proto types the message, so only
// what it cannot say is checked here: an id's length and that it is not all zeros, a kind or a
// status code in OTLP's range, a double that is a number (not NaN or an infinity), a time that is
// set, a key that is set, an AnyValue that is not a dictionary index (`string_value_strindex`).
// Fields read as proto3 reads them (and protobufjs decodes them): an empty id, a zero time, an
// empty key are not set; a message not sent is null. Ids are bytes, 64-bit integers Long-like
// objects `{ low, high, unsigned }` (numbers or decimal strings are read too), repeated fields
// arrays, an AnyValue has one of its oneof's fields as its own property. Refusals are worded as
// the schema words them (`field: message`); a malformed span is refused alone, a malformed
// resource refuses the whole body.

interface LongLike {
  low: number;
  high: number;
  unsigned?: boolean;
}
type Int64Wire = LongLike | number | string | null | undefined;
type BytesWire = Uint8Array | null | undefined;

interface AnyValueMessage {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: Int64Wire;
  doubleValue?: number;
  arrayValue?: { values?: (AnyValueMessage | null)[] | null } | null;
  kvlistValue?: { values?: (KeyValueMessage | null)[] | null } | null;
  bytesValue?: Uint8Array;
  stringValueStrindex?: number;
}
interface KeyValueMessage {
  key?: string | null;
  value?: AnyValueMessage | null;
}
type KeyValues = readonly (KeyValueMessage | null)[] | null | undefined;

interface SpanMessage {
  traceId?: BytesWire;
  spanId?: BytesWire;
  parentSpanId?: BytesWire;
  name?: string | null;
  kind?: number | null;
  startTimeUnixNano?: Int64Wire;
  endTimeUnixNano?: Int64Wire;
  attributes?: KeyValues;
  events?:
    | readonly ({ timeUnixNano?: Int64Wire; name?: string | null; attributes?: KeyValues } | null)[]
    | null;
  status?: { code?: number | null; message?: string | null } | null;
}
interface TraceMessage {
  resourceSpans?:
    | readonly ({
        resource?: { attributes?: KeyValues } | null;
        scopeSpans?: readonly ({ spans?: readonly (SpanMessage | null)[] | null } | null)[] | null;
      } | null)[]
    | null;
}

/** Why a span (or a resource) is refused, with the field it is about, innermost segment first. */
class Refusal {
  readonly path: (string | number)[];
  constructor(
    readonly message: string,
    ...path: (string | number)[]
  ) {
    this.path = path.reverse();
  }
  /** Adds the segments around the field, innermost first. */
  within(...segments: (string | number)[]): Refusal {
    for (let at = segments.length - 1; at >= 0; at--) this.path.push(segments[at] as string);
    return this;
  }
  /** As `issueLine` writes a schema's issue: `events[1].attributes[0].value: message`. */
  reason(): string {
    let field = '';
    for (let at = this.path.length - 1; at >= 0; at--) {
      const part = this.path[at];
      field += typeof part === 'number' ? `[${part}]` : field === '' ? part : `.${part}`;
    }
    return field === '' ? this.message : `${field}: ${this.message}`;
  }
}

const within = (error: unknown, ...segments: (string | number)[]): unknown =>
  error instanceof Refusal ? error.within(...segments) : error;

const hasOwn = (object: object, key: string): boolean => Object.hasOwn(object, key);

const NOT_SET = 'Invalid input';
const NOT_DECIMAL = 'a decimal integer';
const NO_KEY = 'Invalid input: expected string, received undefined';

/** Reads a decoded ExportTraceServiceRequest message into spans and refusals. */
export function readTraceMessage(message: unknown): ReadRequest {
  const read: ReadRequest = { spans: [], refused: [] };
  const resourceSpans = (message as TraceMessage | null)?.resourceSpans ?? [];
  for (let r = 0; r < resourceSpans.length; r++) {
    const { resource, scopeSpans } = resourceSpans[r] ?? {};
    let serviceName: AttributeValue | undefined;
    if (resource) {
      let attributes: Attributes;
      try {
        attributes = attributesOf(resource.attributes, {});
      } catch (error) {
        const refusal = within(error, 'resourceSpans', r, 'resource', 'attributes');
        if (!(refusal instanceof Refusal)) throw refusal;
        throw new MalformedRequestError(`not an ExportTraceServiceRequest: ${refusal.reason()}`);
      }
      serviceName = attributes['service.name'];
    }
    for (const scope of scopeSpans ?? []) {
      for (const span of scope?.spans ?? []) {
        try {
          read.spans.push(spanOf(span ?? {}, serviceName));
        } catch (error) {
          if (!(error instanceof Refusal)) throw error;
          read.refused.push({ spanId: spanIdOf(span), reason: error.reason() });
        }
      }
    }
  }
  return read;
}

// The fields are read in the schema's order, so that the first one refused is the one it names.
function spanOf(span: SpanMessage, serviceName: AttributeValue | undefined): SpanRecord {
  const traceId = idOf(span.traceId, 16, 'traceId');
  const spanId = idOf(span.spanId, 8, 'spanId');
  const parent = span.parentSpanId;
  const parentSpanId =
    parent == null || parent.length === 0 ? null : idOf(parent, 8, 'parentSpanId');
  const kind = span.kind ?? 0;
  if (kind < 0 || kind > 5) throw new Refusal(rangeOf(kind, 5), 'kind');
  const startNs = timeOf(span.startTimeUnixNano, 'startTimeUnixNano');
  const endNs = timeOf(span.endTimeUnixNano, 'endTimeUnixNano');
  // The resource's `service.name` first (the span's own wins, in that first place).
  let attributes: Attributes;
  try {
    attributes =
      serviceName === undefined
        ? attributesOf(span.attributes, {})
        : attributesOf(span.attributes, { 'service.name': serviceName });
  } catch (error) {
    throw within(error, 'attributes');
  }
  const events: SpanEvent[] = [];
  const wireEvents = span.events ?? [];
  for (let e = 0; e < wireEvents.length; e++) {
    const event = wireEvents[e] ?? {};
    const time = event.timeUnixNano;
    const timeNs = isZero(time) ? '0' : timeOf(time, 'events', e, 'timeUnixNano');
    let eventAttributes: Attributes;
    try {
      eventAttributes = attributesOf(event.attributes, {});
    } catch (error) {
      throw within(error, 'events', e, 'attributes');
    }
    events.push({ name: event.name ?? '', attributes: eventAttributes, timeNs });
  }
  const code = span.status?.code ?? 0;
  if (code < 0 || code > 2) throw new Refusal(rangeOf(code, 2), 'status', 'code');
  return {
    traceId,
    spanId,
    parentSpanId,
    name: span.name ?? '',
    kind,
    attributes,
    status: { code, message: span.status?.message ?? '' },
    startNs,
    endNs,
    events,
  };
}

const rangeOf = (value: number, max: number) =>
  value < 0 ? 'Too small: expected number to be >=0' : `Too big: expected number to be <=${max}`;

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** An id of `bytes` bytes as lowercase hex; not set (empty), another length, or zeros refused. */
function idOf(id: BytesWire, bytes: number, field: string): string {
  if (id == null || id.length === 0) throw new Refusal(NOT_SET, field);
  if (id.length !== bytes) {
    throw new Refusal(`an id of ${bytes} bytes: ${bytes * 2} hex digits`, field);
  }
  let hex = '';
  let zeros = true;
  for (let at = 0; at < bytes; at++) {
    const byte = id[at] as number;
    if (byte !== 0) zeros = false;
    hex += HEX[byte];
  }
  if (zeros) throw new Refusal('an id that is not all zeros', field);
  return hex;
}

/** A refused span's id as the schema's path shows it: its hex (32 digits at most), or null. */
function spanIdOf(span: SpanMessage | null | undefined): string | null {
  const id = span?.spanId;
  if (id == null || id.length === 0) return null;
  let hex = '';
  for (let at = 0; at < id.length && at < 16; at++) hex += HEX[id[at] as number];
  return hex;
}

const isZero = (value: Int64Wire): boolean =>
  value == null ||
  value === 0 ||
  (typeof value === 'object' && value.low === 0 && value.high === 0);

/** A 64-bit unsigned time as a decimal string; a zero (not set) refused as the schema does. */
function timeOf(value: Int64Wire, ...path: (string | number)[]): string {
  if (isZero(value)) throw new Refusal(NOT_SET, ...path);
  if (typeof value === 'object') {
    // A Long-like read signed with its top bit set is negative: no unsigned integer.
    if (!(value as LongLike).unsigned && (value as LongLike).high < 0) {
      throw new Refusal(NOT_DECIMAL, ...path);
    }
    return decimalOf((value as LongLike).high >>> 0, (value as LongLike).low >>> 0);
  }
  const digits = typeof value === 'number' ? String(value) : value;
  if (typeof digits !== 'string' || !/^\d{1,20}$/.test(digits)) {
    throw new Refusal(typeof digits === 'string' ? NOT_DECIMAL : NOT_SET, ...path);
  }
  return digits.length > 1 && digits[0] === '0' ? BigInt(digits).toString() : digits;
}

/**
 * `high * 2^32 + low` (two unsigned 32-bit halves) in decimal, exactly: past 2^53 in two parts
 * of base 10^6 (2^32 = 4294 * 10^6 + 967296), each exact in a double.
 */
function decimalOf(high: number, low: number): string {
  if (high <= 0x1fffff) return String(high * 4294967296 + low);
  const below = high * 967296 + low;
  const millions = Math.floor(below / 1e6);
  const units = below - millions * 1e6;
  return `${high * 4294 + millions}${String(units).padStart(6, '0')}`;
}

/** A signed 64-bit integer as the schema reads it: a number (past 2^53 rounded, as it rounds). */
function int64Of(value: Int64Wire): number {
  if (typeof value === 'object' && value !== null) {
    const { low, high, unsigned } = value;
    return (unsigned ? high >>> 0 : high | 0) * 4294967296 + (low >>> 0);
  }
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  const digits = typeof value === 'number' ? String(value) : value;
  if (typeof digits !== 'string' || !/^-?\d{1,20}$/.test(digits)) {
    throw new Refusal(NOT_DECIMAL, 'intValue');
  }
  return Number(digits);
}

/** Key-value pairs into `attributes`, later keys winning; a pair with no value is null. */
function attributesOf(pairs: KeyValues, attributes: Attributes): Attributes {
  if (pairs == null) return attributes;
  for (let at = 0; at < pairs.length; at++) {
    const pair = pairs[at];
    const key = pair?.key;
    if (key == null || key === '') throw new Refusal(NO_KEY, at, 'key');
    let value: AttributeValue;
    try {
      value = pair?.value == null ? null : unwrapped(pair.value);
    } catch (error) {
      throw within(error, at, 'value');
    }
    setAttribute(attributes, key, value);
  }
  return attributes;
}

/** An AnyValue unwrapped: the one field of its oneof set, or null for none. */
function unwrapped(value: AnyValueMessage): AttributeValue {
  if (hasOwn(value, 'stringValue')) return value.stringValue as string;
  if (hasOwn(value, 'intValue')) return int64Of(value.intValue);
  if (hasOwn(value, 'boolValue')) return value.boolValue as boolean;
  if (hasOwn(value, 'doubleValue')) {
    const double = value.doubleValue as number;
    if (!Number.isFinite(double)) {
      throw new Refusal(`Invalid input: expected number, received ${double}`, 'doubleValue');
    }
    return double;
  }
  if (hasOwn(value, 'arrayValue') && value.arrayValue != null) {
    const values = value.arrayValue.values ?? [];
    const array: AttributeValue[] = [];
    for (let at = 0; at < values.length; at++) {
      const item = values[at];
      try {
        array.push(item == null ? null : unwrapped(item));
      } catch (error) {
        throw within(error, 'arrayValue', 'values', at);
      }
    }
    return array;
  }
  if (hasOwn(value, 'kvlistValue') && value.kvlistValue != null) {
    try {
      return attributesOf(value.kvlistValue.values, {});
    } catch (error) {
      throw within(error, 'kvlistValue', 'values');
    }
  }
  if (hasOwn(value, 'bytesValue') && value.bytesValue != null) {
    const bytes = value.bytesValue;
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  }
  if (hasOwn(value, 'stringValueStrindex')) {
    throw new Refusal('Unrecognized key: "stringValueStrindex"');
  }
  return null;
}
