import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type protobuf from 'protobufjs';
import { DEFAULTS, type TraceSettings } from '../../config/index.js';
import {
  isKept,
  MalformedRequestError,
  type ReadRequest,
  readTraceRequest,
  roleOf,
  type SpanRecord,
} from '../../traces/index.js';
import { signalTraceBatch } from '../../workflow-clients/index.js';
import { httpOnly } from '../errors.js';
import type { Api, RouteDeps } from '../options.js';
import { callerOf } from '../plugins/authentication.js';
import { asRefusal } from '../plugins/errors.js';
import {
  decodeProtobuf,
  ExportTraceServiceRequest,
  ExportTraceServiceResponse,
  encodeProtobuf,
  RpcStatus,
} from './protobuf.js';

// `POST /v1/traces`, as OTLP/HTTP specifies it (docs/traces.md): a protobuf or JSON
// ExportTraceServiceRequest, gzip or not, sized after decompression; its spans are stored before
// the answer, so a 200 means they survive a crash; each trace's workflow is then told. Malformed
// spans are refused one by one in `partial_success`; a body that does not decode is refused whole
// (400, nothing stored). Errors answer a google.rpc.Status in the request's encoding.

const gunzipAsync = promisify(gunzip);
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
    scope.post('/v1/traces', {
      config: { allow: ['system', 'agent'] },
      schema: { hide: true },
      handler: async (request, reply) => {
        const read = readBody(await inflate(request, settings.bodyLimitBytes), isProtobuf(request));
        const workspaceId = callerOf(request).workspaceId;
        const kept = read.spans.filter(isKept);
        await deps.store.traceSpans.put(
          workspaceId,
          kept.map((span) => ({ trace_id: span.traceId, span_id: span.spanId, body: span })),
        );
        await tellWorkflows(deps, settings, request, kept);
        return answer(request, reply, ExportTraceServiceResponse, responseOf(read));
      },
    });
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

function readBody(body: Buffer, protobufBody: boolean): ReadRequest {
  let decoded: unknown;
  try {
    decoded = protobufBody
      ? decodeProtobuf(ExportTraceServiceRequest, body)
      : JSON.parse(body.toString('utf8'));
  } catch (error) {
    const what = protobufBody ? 'protobuf ExportTraceServiceRequest' : 'JSON';
    throw httpOnly('bad_request', `the body is not a ${what}: ${(error as Error).message}`);
  }
  try {
    return readTraceRequest(decoded);
  } catch (error) {
    if (error instanceof MalformedRequestError) throw httpOnly('bad_request', error.message);
    throw error;
  }
}

/** Tells each trace's workflow that its spans are stored; Temporal down is a 503 to retry. */
async function tellWorkflows(
  deps: RouteDeps,
  settings: TraceSettings,
  request: FastifyRequest,
  spans: readonly SpanRecord[],
): Promise<void> {
  const caller = callerOf(request);
  const traces = new Map<string, boolean>();
  for (const span of spans) {
    const mayEnd = span.parentSpanId === null || roleOf(span) === 'agent';
    traces.set(span.traceId, (traces.get(span.traceId) ?? false) || mayEnd);
  }
  try {
    await Promise.all(
      [...traces].map(([traceId, mayEnd]) =>
        signalTraceBatch(deps.temporal.client, deps.store, deps.temporal.taskQueue, {
          workspaceId: caller.workspaceId,
          traceId,
          reporter: caller.principal.kind === 'agent' ? 'agent' : 'system',
          settleMs: settings.settleMs,
          idleMs: settings.idleMs,
          ...(settings.conversationAttribute
            ? { conversationAttribute: settings.conversationAttribute }
            : {}),
          mayEnd,
        }),
      ),
    );
  } catch (error) {
    request.log.warn({ err: error }, 'spans stored; their traces could not be signalled');
    throw httpOnly('unavailable', 'the engine is unavailable; retry (the spans are kept)', {
      'retry-after': '1',
    });
  }
}

function responseOf(read: ReadRequest): Record<string, unknown> {
  if (read.refused.length === 0) return {};
  const shown = read.refused
    .slice(0, 3)
    .map(({ spanId, reason }) => `span ${spanId ?? '(no id)'}: ${reason}`);
  const more = read.refused.length - shown.length;
  return {
    partialSuccess: {
      rejectedSpans: String(read.refused.length),
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
