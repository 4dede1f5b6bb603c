import { z } from 'zod';
import { AnyValue, AttributeList, envelopeOf, HexId, reasonOf, Uint64 } from './otlp-request.js';
import type { Attributes, SpanEvent, SpanRecord } from './span.js';

// An ExportLogsServiceRequest read as the span events it tells of: instrumentations that send
// message content as OTLP log records (`gen_ai.client.inference.operation.details`, the
// per-message `gen_ai.*.message` and `gen_ai.choice` events) name the span it belongs to, and the
// record joins that span as one of its events. Its body, a map, becomes the event's attributes.

/** A log record as an event of the span it names. */
export interface SpanLog {
  traceId: string;
  spanId: string;
  event: SpanEvent;
}

const LogRecord = z.object({
  timeUnixNano: Uint64.default('0'),
  observedTimeUnixNano: Uint64.default('0'),
  eventName: z.string().default(''),
  body: AnyValue.optional(),
  attributes: AttributeList,
  traceId: z.union([z.literal(''), HexId(16)]).optional(),
  spanId: z.union([z.literal(''), HexId(8)]).optional(),
});

const Request = z.object({
  resourceLogs: z
    .array(
      z.object({
        scopeLogs: z.array(z.object({ logRecords: z.array(z.unknown()).default([]) })).default([]),
      }),
    )
    .default([]),
});

export interface ReadLogs {
  logs: SpanLog[];
  refused: { reason: string }[];
}

export function readLogsRequest(decoded: unknown): ReadLogs {
  const request = envelopeOf(Request, decoded, 'ExportLogsServiceRequest');
  const read: ReadLogs = { logs: [], refused: [] };
  for (const resourceLogs of request.resourceLogs) {
    for (const scopeLogs of resourceLogs.scopeLogs) {
      for (const raw of scopeLogs.logRecords) {
        const record = LogRecord.safeParse(raw);
        if (!record.success) {
          read.refused.push({ reason: reasonOf(record.error, 'not a log record') });
          continue;
        }
        const { traceId, spanId, eventName, body, attributes } = record.data;
        if (!traceId || !spanId) {
          read.refused.push({
            reason: 'a log record with no trace and span id: its content joins no span',
          });
          continue;
        }
        const time =
          record.data.timeUnixNano !== '0'
            ? record.data.timeUnixNano
            : record.data.observedTimeUnixNano;
        const name =
          eventName ||
          (typeof attributes['event.name'] === 'string' ? attributes['event.name'] : '');
        read.logs.push({
          traceId,
          spanId,
          event: { name, timeNs: time, attributes: { ...attributes, ...bodyAttributes(body) } },
        });
      }
    }
  }
  return read;
}

function bodyAttributes(body: unknown): Attributes {
  if (body === undefined || body === null) return {};
  if (typeof body === 'object' && !Array.isArray(body)) return body as Attributes;
  return { body: body as Attributes[string] };
}

/** The spans with the log records that name them as events: a record whose span has not come waits. */
export function joinLogs(spans: readonly SpanRecord[], logs: readonly SpanLog[]): SpanRecord[] {
  const bySpan = new Map<string, SpanEvent[]>();
  for (const log of logs) bySpan.set(log.spanId, [...(bySpan.get(log.spanId) ?? []), log.event]);
  return spans.map((span) => {
    const events = bySpan.get(span.spanId);
    return events ? { ...span, events: [...span.events, ...events] } : span;
  });
}
