import { z } from 'zod';
import { issueLine } from '../core/rejections.js';
import { type Attributes, type AttributeValue, type SpanRecord, setAttribute } from './span.js';

// An ExportTraceServiceRequest as OTLP/JSON writes it (ids in hex, enums as integers, 64-bit
// integers as decimal strings or numbers), and as protobufjs decodes the protobuf body into
// objects (ids as bytes, 64-bit integers as decimal strings): one schema reads both. The
// request's envelope is checked whole (a body that is not a request is refused whole); each
// span alone, so that a malformed span is refused by itself and the rest of the batch kept.

/** An id of `bytes` bytes: hex in JSON, bytes from protobuf; lowercase hex once read. */
export const HexId = (bytes: number) => {
  const digits = new RegExp(`^[0-9a-f]{${bytes * 2}}$`);
  return z
    .union([
      z.string(),
      z.instanceof(Uint8Array).transform((raw) => Buffer.from(raw).toString('hex')),
    ])
    .transform((id) => id.toLowerCase())
    .refine((id) => digits.test(id), {
      message: `an id of ${bytes} bytes: ${bytes * 2} hex digits`,
    })
    .refine((id) => !/^0+$/.test(id), { message: 'an id that is not all zeros' });
};

/** A 64-bit unsigned integer: a decimal string, or a number JSON could carry exactly. */
export const Uint64 = z
  .union([z.string().regex(/^\d{1,20}$/, 'a decimal integer'), z.int().nonnegative()])
  .transform((value) => BigInt(value).toString());

const Int64 = z
  .union([z.string().regex(/^-?\d{1,20}$/, 'a decimal integer'), z.int()])
  .transform((value) => Number(value));

export interface AnyValueWire {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number | string;
  arrayValue?: { values?: AnyValueWire[] };
  kvlistValue?: { values?: KeyValueWire[] };
  bytesValue?: string | Uint8Array;
}
export interface KeyValueWire {
  key: string;
  value?: AnyValueWire | undefined;
}

export const AnyValue: z.ZodType<AttributeValue> = z.lazy(() =>
  z
    .strictObject({
      stringValue: z.string().optional(),
      boolValue: z.boolean().optional(),
      intValue: Int64.optional(),
      // JSON writes NaN and the infinities as strings; they are no JSON value to keep.
      doubleValue: z.number().optional(),
      arrayValue: z.strictObject({ values: z.array(AnyValue).optional() }).optional(),
      kvlistValue: z.strictObject({ values: z.array(KeyValue).optional() }).optional(),
      bytesValue: z
        .union([
          z.string(),
          z.instanceof(Uint8Array).transform((b) => Buffer.from(b).toString('base64')),
        ])
        .optional(),
    })
    .check((ctx) => {
      if (Object.keys(ctx.value).length > 1) {
        ctx.issues.push({
          code: 'custom',
          message: 'an AnyValue holds one value',
          input: ctx.value,
        });
      }
    })
    .transform((wire): AttributeValue => {
      if (wire.arrayValue) return wire.arrayValue.values ?? [];
      if (wire.kvlistValue) return attributesOf(wire.kvlistValue.values ?? []);
      return (
        wire.stringValue ??
        wire.boolValue ??
        wire.intValue ??
        wire.doubleValue ??
        wire.bytesValue ??
        null
      );
    }),
) as z.ZodType<AttributeValue>;

const KeyValue = z.object({ key: z.string(), value: AnyValue.optional() });
type KeyValue = z.output<typeof KeyValue>;

function attributesOf(pairs: readonly KeyValue[]): Attributes {
  const attributes: Attributes = {};
  for (const { key, value } of pairs) setAttribute(attributes, key, value ?? null);
  return attributes;
}

export const AttributeList = z.array(KeyValue).default([]).transform(attributesOf);

const Span = z.object({
  traceId: HexId(16),
  spanId: HexId(8),
  parentSpanId: z
    .union([z.literal(''), HexId(8)])
    .optional()
    .transform((id) => id || null),
  name: z.string().default(''),
  kind: z.int().min(0).max(5).default(0),
  startTimeUnixNano: Uint64,
  endTimeUnixNano: Uint64,
  attributes: AttributeList,
  events: z
    .array(
      z.object({
        timeUnixNano: Uint64.default('0'),
        name: z.string().default(''),
        attributes: AttributeList,
      }),
    )
    .default([]),
  status: z
    .object({ code: z.int().min(0).max(2).default(0), message: z.string().default('') })
    .default({ code: 0, message: '' }),
});

// The envelope: checked whole, spans left to be read one by one.
const Request = z.object({
  resourceSpans: z
    .array(
      z.object({
        resource: z.object({ attributes: AttributeList }).optional(),
        scopeSpans: z.array(z.object({ spans: z.array(z.unknown()).default([]) })).default([]),
      }),
    )
    .default([]),
});

/** What a request held: its spans as kept, and each span refused with why. */
export interface ReadRequest {
  spans: SpanRecord[];
  refused: { spanId: string | null; reason: string }[];
}

/** A request's envelope is not the export request it should be: the whole body is refused. */
export class MalformedRequestError extends Error {
  override readonly name = 'MalformedRequestError';
}

/** A request's envelope read by `schema`, or the whole body refused, naming what it is not. */
export function envelopeOf<T>(schema: z.ZodType<T>, decoded: unknown, message: string): T {
  const request = schema.safeParse(decoded);
  if (request.success) return request.data;
  const first = request.error.issues[0];
  throw new MalformedRequestError(`not an ${message}: ${first ? issueLine(first) : 'unreadable'}`);
}

/** The first issue of a refused item, as one line. */
export const reasonOf = (error: z.ZodError, fallback: string): string => {
  const first = error.issues[0];
  return first ? issueLine(first) : fallback;
};

/** Reads a decoded request (JSON parsed, or protobuf as objects) into spans and refusals. */
export function readTraceRequest(decoded: unknown): ReadRequest {
  const request = envelopeOf(Request, decoded, 'ExportTraceServiceRequest');
  const read: ReadRequest = { spans: [], refused: [] };
  for (const resourceSpans of request.resourceSpans) {
    const serviceName = resourceSpans.resource?.attributes['service.name'];
    for (const scopeSpans of resourceSpans.scopeSpans) {
      for (const raw of scopeSpans.spans) {
        const span = Span.safeParse(raw);
        if (!span.success) {
          read.refused.push({ spanId: spanIdOf(raw), reason: reasonOf(span.error, 'not a span') });
          continue;
        }
        const { startTimeUnixNano, endTimeUnixNano, events, ...rest } = span.data;
        read.spans.push({
          ...rest,
          startNs: startTimeUnixNano,
          endNs: endTimeUnixNano,
          attributes:
            serviceName === undefined
              ? rest.attributes
              : { 'service.name': serviceName, ...rest.attributes },
          events: events.map(({ timeUnixNano, ...event }) => ({ ...event, timeNs: timeUnixNano })),
        });
      }
    }
  }
  return read;
}

function spanIdOf(raw: unknown): string | null {
  const id = (raw as { spanId?: unknown } | null)?.spanId;
  if (typeof id === 'string') return id.slice(0, 32);
  if (id instanceof Uint8Array) return Buffer.from(id).toString('hex').slice(0, 32);
  return null;
}
