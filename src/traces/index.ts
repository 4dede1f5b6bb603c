// Traces in: an agent's OpenTelemetry spans read from OTLP requests and translated into the runs
// they tell of (docs/traces.md). Pure: the receiver (api) and the activity that records the runs
// do the I/O.
export { boundedContent } from './bounded.js';
export { commandsOfRun, type RunCommand } from './commands.js';
export { joinLogs, type ReadLogs, readLogsRequest, type SpanLog } from './otlp-logs.js';
export { readTraceMessage } from './otlp-protobuf.js';
export {
  MalformedRequestError,
  type ReadRequest,
  readTraceRequest,
} from './otlp-request.js';
export { isKept, roleOf, type SpanRole } from './roles.js';
export type { Attributes, AttributeValue, SpanRecord } from './span.js';
export { type StoredTraces, spansOfStored, stepsOfRun } from './stored.js';
export {
  type TraceRun,
  type TraceTranslation,
  translateTrace,
} from './translate.js';
