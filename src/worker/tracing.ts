import { createRequire } from 'node:module';
import type { TracingSettings } from '../config/index.js';
import type { Tracing, TracingOptions } from './tracing-sdk.js';

export type { Tracing, TracingOptions };

// evalflow's own spans (docs/traces.md#evalflows-own-spans): with an OTLP endpoint set, the
// process registers a tracer provider exporting OTLP/HTTP protobuf through a batch processor, and
// its Temporal clients and workers take Temporal's OpenTelemetry interceptors, so one trace runs
// from a workflow's start (`StartWorkflow:…`) through its run (`RunWorkflow:…`) and activities
// (`StartActivity:…`, `RunActivity:…`) to the judge's `chat` spans. Without an endpoint none of
// this is loaded (the SDK is imported by `startTracing`, from tracing-sdk.ts) or registered: the
// API's no-op tracer is all that runs.

/**
 * The workflow interceptors' module, bundled into the workflow code when tracing: they run in the
 * workflow sandbox, where they only make spans (no commands), sent out through a sink.
 */
export const TRACING_WORKFLOW_MODULES: readonly string[] = [
  createRequire(import.meta.url).resolve(
    '@temporalio/interceptors-opentelemetry/lib/workflow-interceptors',
  ),
];

/**
 * Registers the process's tracer provider (global: the judge's spans and Temporal's interceptors
 * take it), the W3C trace context propagator and an async-hooks context manager. The SDK is
 * loaded here, so a process without tracing never loads it (a worker's restart is the quicker).
 * @throws Error when a tracer provider is already registered in the process.
 */
export async function startTracing(
  settings: TracingSettings,
  options: TracingOptions = {},
): Promise<Tracing> {
  const { registerTracing } = await import('./tracing-sdk.js');
  return registerTracing(settings, options);
}
