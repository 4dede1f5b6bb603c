import { createRequire } from 'node:module';
import type { Resource } from '@opentelemetry/resources';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { ClientInterceptors } from '@temporalio/client';
import type { WorkerOptions as SdkWorkerOptions } from '@temporalio/worker';
import type { TracingSettings } from '../config/index.js';

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

/** The process's tracing, from `startTracing`. */
export interface Tracing {
  readonly settings: TracingSettings;
  readonly resource: Resource;
  /** Interceptors for a Temporal client: each workflow it starts or signals gets a span. */
  readonly clientInterceptors: ClientInterceptors;
  /**
   * What a worker adds to its options: the activity interceptors, and for a worker that runs
   * workflows the workflow interceptors' module and the sink their spans leave the sandbox by.
   * The worker's workflow bundle must hold the module (`bundleWorkflows({ tracing: true })`).
   */
  workerOptions(runsWorkflows: boolean): Pick<SdkWorkerOptions, 'interceptors' | 'sinks'>;
  /** Exports every span ended so far. */
  forceFlush(): Promise<void>;
  /** Exports what is left and unregisters the provider, the propagator and the context manager. */
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  /** Where spans go instead of OTLP (tests); the batch processor still sends them. */
  exporter?: SpanExporter;
}

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
