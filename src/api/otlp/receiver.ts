import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type protobuf from 'protobufjs';
import { DEFAULTS, type TraceSettings } from '../../config/index.js';
import type { ReceivedSpan, TraceBatch } from '../../store/index.js';
import {
  isKept,
  MalformedRequestError,
  type ReadRequest,
  readLogsRequest,
  readTraceMessage,
  readTraceRequest,
  roleOf,
} from '../../traces/index.js';
import { httpOnly } from '../errors.js';
import type { Api, RouteDeps } from '../options.js';
import { callerOf } from '../plugins/authentication.js';
import { asRefusal } from '../plugins/errors.js';
import {
  decodeProtobuf,
  ExportLogsServiceRequest,
  ExportLogsServiceResponse,
  ExportTraceServiceRequest,
  ExportTraceServiceResponse,
  encodeProtobuf,
  RpcStatus,
} from './protobuf.js';

// `POST /v1/traces` and `POST /v1/logs`, as OTLP/HTTP specifies them (docs/traces.md): a protobuf
// or JSON export request, gzip or not, sized after decompression. What it holds is stored before
// the answer, with its traces noted in the outbox in the same transaction, so a 200 means it
// survives a crash; the relays' signaller tells the traces' workflows from there. Malformed
// items are refused one by one in `partial_success`; a body that does not decode is refused whole
// (400, nothing stored). Errors answer a google.rpc.Status in the request's encoding.

const gunzipAsync = promisify(gunzip);
/** How long a trace that may end a run may wait to be signalled before the receiver says 503. */
const BEHIND_MS = 30_000;
const PROTOBUF = 'application/x-protobuf';
const JSON_TYPE = 'application/json';

/** gRPC's codes for the statuses the receiver answers (google.rpc.Status `code`). */
const GRPC_CODE: Record<number, number> = {
  400: 3,
  401: 16,
  403: 7,
  413: 8,
  415: 3,
  429: 8,
  503: 14,
};

/** What a request held, as rows to store: each row's trace, and whether it may end a run. */
interface Received {
  rows: (ReceivedSpan & { mayEnd: boolean })[];
  refused: { id: string | null; reason: string }[];
}

/** One OTLP signal: its messages, how its request reads, and its response's count field. */
interface Signal {
  request: protobuf.Type;
  response: protobuf.Type;
  /** A protobuf body decoded, as `read` takes it. */
  decode(body: Buffer): unknown;
  /** A request read: OTLP/JSON as parsed, or protobuf as `decode` returns it. */
  read(decoded: unknown, protobufBody: boolean): Received;
  /** `rejectedSpans`, `rejectedLogRecords`. */
  rejectedField: string;
  /** What a refused item is called in the message. */
  item: string;
}

const traces: Signal = {
  request: ExportTraceServiceRequest,
  response: ExportTraceServiceResponse,
  rejectedField: 'rejectedSpans',
  item: 'span',
  // A protobuf body is read from the messages protobufjs decodes (readTraceMessage: no objects
  // made of them first, no schema); OTLP/JSON by the schema. Both read a body alike.
  decode: (body) => ExportTraceServiceRequest.decode(body),
  read: (decoded, protobufBody) =>
    receivedSpans(protobufBody ? readTraceMessage(decoded) : readTraceRequest(decoded)),
};

function receivedSpans(read: ReadRequest): Received {
  const rows: Received['rows'] = [];
  for (const span of read.spans) {
    const role = roleOf(span);
    if (!isKept(span, role)) continue;
    rows.push({
      trace_id: span.traceId,
      span_id: span.spanId,
      body: span,
      mayEnd: span.parentSpanId === null || role === 'agent',
    });
  }
  return {
    rows,
    refused: read.refused.map(({ spanId, reason }) => ({ id: spanId, reason })),
  };
}

const logs: Signal = {
  request: ExportLogsServiceRequest,
  response: ExportLogsServiceResponse,
  rejectedField: 'rejectedLogRecords',
  item: 'log record',
  decode: (body) => decodeProtobuf(ExportLogsServiceRequest, body),
  read(decoded) {
    const read = readLogsRequest(decoded);
    return {
      // A record is stored beside the spans, keyed by its span and its content: sent again, it
      // is the same row.
      rows: read.logs.map((log) => ({
        trace_id: log.traceId,
        span_id: `${log.spanId}:log:${createHash('sha256').update(JSON.stringify(log.event)).digest('hex').slice(0, 16)}`,
        body: log,
        mayEnd: false,
      })),
      refused: read.refused.map(({ reason }) => ({ id: null, reason })),
    };
  },
};

const isProtobuf = (request: FastifyRequest) =>
  (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() === PROTOBUF;

export function registerTraceReceiver(api: Api, deps: RouteDeps): void {
  const settings: TraceSettings = deps.traces ?? {
    bodyLimitBytes: DEFAULTS.otlpBodyLimitBytes,
    settleMs: DEFAULTS.otlpSettleMs,
    idleMs: DEFAULTS.otlpIdleMs,
    conversationAttribute: null,
  };
  void api.register(async (scope) => {
    // OTLP bodies are read as bytes here, whatever the API's own JSON parser does elsewhere.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      [PROTOBUF, JSON_TYPE],
      { parseAs: 'buffer', bodyLimit: settings.bodyLimitBytes },
      (_request, body, done) => done(null, body),
    );
    scope.setErrorHandler((error, request, reply) => {
      const refusal = asRefusal(error);
      if (refusal.status >= 500) request.log.error({ err: error }, 'OTLP request failed');
      return answer(request, reply.code(refusal.status).headers(refusal.headers), RpcStatus, {
        code: GRPC_CODE[refusal.status] ?? 13,
        message: refusal.body.message,
      });
    });
    for (const [path, signal] of [
      ['/v1/traces', traces],
      ['/v1/logs', logs],
    ] as const) {
      scope.post(path, {
        config: { allow: ['system', 'agent'] },
        schema: { hide: true },
        handler: async (request, reply) => {
          const body = await inflate(request, settings.bodyLimitBytes);
          const received = readBody(signal, body, isProtobuf(request));
          await refuseWhileBehind(deps);
          const workspaceId = callerOf(request).workspaceId;
          const batches = batchesOf(request, settings, received.rows);
          await deps.store.traceSpans.put(workspaceId, received.rows, batches);
          return answer(request, reply, signal.response, responseOf(signal, received));
        },
      });
    }
  });
}

/** The body, gunzipped when it says so, refused past the limit (413) or when unreadable. */
async function inflate(request: FastifyRequest, limit: number): Promise<Buffer> {
  const body = request.body;
  if (!Buffer.isBuffer(body)) {
    throw httpOnly('bad_request', `send ${PROTOBUF} or ${JSON_TYPE}`);
  }
  const encoding = (request.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding === 'identity') return body;
  if (encoding !== 'gzip') {
    throw httpOnly('bad_request', `Content-Encoding ${encoding} is not gzip or identity`);
  }
  try {
    return await gunzipAsync(body, { maxOutputLength: limit });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw httpOnly('too_large', `the request is over ${limit} bytes once decompressed`);
    }
    throw httpOnly('bad_request', `the gzip body does not decompress: ${(error as Error).message}`);
  }
}

function readBody(signal: Signal, body: Buffer, protobufBody: boolean): Received {
  let decoded: unknown;
  try {
    decoded = protobufBody ? signal.decode(body) : JSON.parse(body.toString('utf8'));
  } catch (error) {
    const what = protobufBody ? `protobuf ${signal.request.name}` : 'JSON';
    throw httpOnly('bad_request', `the body is not a ${what}: ${(error as Error).message}`);
  }
  try {
    return signal.read(decoded, protobufBody);
  } catch (error) {
    if (error instanceof MalformedRequestError) throw httpOnly('bad_request', error.message);
    throw error;
  }
}

/**
 * The traces of the rows, each once, as the outbox notes them: whether a row of it may end a run,
 * and what its workflow is to be started with.
 */
function batchesOf(
  request: FastifyRequest,
  settings: TraceSettings,
  rows: Received['rows'],
): TraceBatch[] {
  const mayEnd = new Map<string, boolean>();
  for (const row of rows)
    mayEnd.set(row.trace_id, (mayEnd.get(row.trace_id) ?? false) || row.mayEnd);
  const reporter = callerOf(request).principal.kind === 'agent' ? 'agent' : 'system';
  return [...mayEnd].map(([trace_id, may_end]) => ({
    trace_id,
    reporter,
    settle_ms: settings.settleMs,
    idle_ms: settings.idleMs,
    conversation_attribute: settings.conversationAttribute,
    may_end,
  }));
}

/**
 * Refuses (503, retry) while the engine is behind: a trace that may end a run has waited longer
 * than `BEHIND_MS` for its workflow to be told (Temporal or every relay down). What was sent
 * before is kept and told once the engine is back.
 */
async function refuseWhileBehind(deps: RouteDeps): Promise<void> {
  const oldest = await deps.store.traceSignals.oldestEndingMs();
  if (oldest !== null && deps.now().getTime() - oldest > BEHIND_MS) {
    throw httpOnly('unavailable', 'the engine is behind; retry (what was sent is kept)', {
      'retry-after': String(Math.ceil(BEHIND_MS / 1000)),
    });
  }
}

function responseOf(signal: Signal, received: Received): Record<string, unknown> {
  if (received.refused.length === 0) return {};
  const shown = received.refused
    .slice(0, 3)
    .map(({ id, reason }) => `${signal.item} ${id ?? '(no id)'}: ${reason}`);
  const more = received.refused.length - shown.length;
  return {
    partialSuccess: {
      [signal.rejectedField]: String(received.refused.length),
      errorMessage: `${shown.join('; ')}${more > 0 ? ` (and ${more} more)` : ''}`,
    },
  };
}

/** Answers in the request's encoding: protobuf for protobuf, OTLP/JSON otherwise. */
function answer(
  request: FastifyRequest,
  reply: FastifyReply,
  message: protobuf.Type,
  value: Record<string, unknown>,
) {
  if (isProtobuf(request)) {
    return reply.type(PROTOBUF).send(encodeProtobuf(message, value));
  }
  return reply.type(JSON_TYPE).send(JSON.stringify(value));
}
