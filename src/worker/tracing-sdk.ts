import { context, propagation, type SpanContext, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  CompositePropagator,
  W3CBaggagePropagator,
  W3CTraceContextPropagator,
} from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { defaultResource, type Resource, resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { ClientInterceptors } from '@temporalio/client';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  OpenTelemetryWorkflowClientInterceptor,
} from '@temporalio/interceptors-opentelemetry';
import type { WorkerOptions as SdkWorkerOptions } from '@temporalio/worker';
import type { TracingSettings } from '../config/index.js';

// The OpenTelemetry SDK's side of `startTracing` (tracing.ts), imported only when tracing starts;
// tracing.ts takes its types from here (types only: they load nothing).

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

/** `startTracing`'s work, with the SDK loaded. */
export function registerTracing(settings: TracingSettings, options: TracingOptions): Tracing {
  const resource = defaultResource().merge(
    resourceFromAttributes({ 'service.name': settings.serviceName }),
  );
  const exporter =
    options.exporter ??
    new OTLPTraceExporter({ url: settings.endpoint, headers: settings.headers });
  const processor = new BatchSpanProcessor(exporter);
  const provider = new BasicTracerProvider({ resource, spanProcessors: [processor] });
  if (!trace.setGlobalTracerProvider(provider)) {
    throw new Error(
      'a tracer provider is already registered in this process; evalflow registers its own only where it is the only one',
    );
  }
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(
    new CompositePropagator({
      propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
    }),
  );
  const workflowSpans = fromWorkflows(processor, resource);
  let stopped: Promise<void> | null = null;
  return {
    settings,
    resource,
    clientInterceptors: { workflow: [new OpenTelemetryWorkflowClientInterceptor()] },
    workerOptions(runsWorkflows) {
      return {
        interceptors: {
          activity: [
            (ctx) => ({
              inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
              outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
            }),
          ],
        },
        ...(runsWorkflows
          ? {
              sinks: {
                // The SDK's types are of the OTel SDK 1.x it depends on; the processor is 2.x's,
                // given the spans as 2.x reads them (`fromWorkflows`).
                exporter: makeWorkflowExporter(
                  workflowSpans as unknown as Parameters<typeof makeWorkflowExporter>[0],
                  resource as unknown as Parameters<typeof makeWorkflowExporter>[1],
                ),
              },
            }
          : {}),
      };
    },
    forceFlush: () => provider.forceFlush(),
    shutdown() {
      stopped ??= provider.shutdown().finally(() => {
        trace.disable();
        propagation.disable();
        context.disable();
      });
      return stopped;
    },
  };
}

/**
 * The workflow sandbox's spans, made by the OTel SDK 1.x the interceptors bundle, as the 2.x SDK
 * reads them: a parent span context for the parent's id, an instrumentation scope for the library.
 */
function fromWorkflows(processor: SpanProcessor, resource: Resource): SpanProcessor {
  return {
    onStart() {},
    onEnd(span) {
      processor.onEnd(fromWorkflow(span as unknown as WorkflowSpan, resource));
    },
    forceFlush: () => processor.forceFlush(),
    // The provider shuts its processor down.
    shutdown: async () => {},
  };
}

/** A span as the 1.x SDK in the sandbox shapes it. */
type WorkflowSpan = Omit<ReadableSpan, 'parentSpanContext' | 'instrumentationScope'> & {
  parentSpanId?: string;
  instrumentationLibrary?: ReadableSpan['instrumentationScope'];
};

function fromWorkflow(span: WorkflowSpan, resource: Resource): ReadableSpan {
  const { parentSpanId, instrumentationLibrary, ...rest } = span;
  const own = span.spanContext();
  const parent: SpanContext | undefined = parentSpanId
    ? { traceId: own.traceId, spanId: parentSpanId, traceFlags: own.traceFlags }
    : undefined;
  return {
    ...rest,
    spanContext: () => own,
    resource,
    parentSpanContext: parent,
    instrumentationScope: instrumentationLibrary ?? { name: '@temporalio/interceptor-workflow' },
  };
}
