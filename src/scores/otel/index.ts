// evalflow's OpenTelemetry adapter (`evalflow/scores/otel`): scores as GenAI evaluation events.
export { ATTRIBUTES, EVALUATION_RESULT, evaluationAttributes } from './attributes.js';
export { INSTRUMENTATION_SCOPE, OtelEventSink, type OtelEventSinkOptions } from './sink.js';
