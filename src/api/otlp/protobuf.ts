import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

// OTLP's protobuf messages, read by protobufjs from opentelemetry-proto's own definitions
// (vendored under proto/, pinned to the release named in proto/README.md), and google.rpc.Status,
// the body of OTLP's errors (its three fields, as googleapis defines them).

const PROTO_ROOT = fileURLToPath(new URL('../../../proto/', import.meta.url));
const SERVICES = [
  'opentelemetry/proto/collector/trace/v1/trace_service.proto',
  'opentelemetry/proto/collector/logs/v1/logs_service.proto',
];

function loadRoot(): protobuf.Root {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => `${PROTO_ROOT}${target}`;
  root.loadSync(SERVICES, { keepCase: false });
  root.addJSON({
    google: {
      nested: {
        rpc: {
          nested: {
            Status: {
              fields: {
                code: { type: 'int32', id: 1 },
                message: { type: 'string', id: 2 },
                details: { rule: 'repeated', type: 'google.protobuf.Any', id: 3 },
              },
            },
          },
        },
      },
    },
  });
  root.addJSON(protobuf.common.get('google/protobuf/any.proto')?.nested ?? {});
  root.resolveAll();
  return root;
}

const root = loadRoot();
const type = (name: string) => root.lookupType(name);

export const ExportTraceServiceRequest = type(
  'opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest',
);
export const ExportTraceServiceResponse = type(
  'opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse',
);
export const ExportLogsServiceRequest = type(
  'opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest',
);
export const ExportLogsServiceResponse = type(
  'opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse',
);
export const RpcStatus = type('google.rpc.Status');

/**
 * A protobuf body as plain objects in OTLP/JSON's field names: 64-bit integers as decimal
 * strings, enums as numbers, bytes as bytes (ids become hex when read).
 */
export function decodeProtobuf(message: protobuf.Type, body: Uint8Array): unknown {
  return message.toObject(message.decode(body), { longs: String, enums: Number, arrays: false });
}

export function encodeProtobuf(message: protobuf.Type, value: Record<string, unknown>): Buffer {
  return Buffer.from(message.encode(message.fromObject(value)).finish());
}
