import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trace } from '@opentelemetry/api';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowBundle, WorkflowBundleOption } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueCredential, parsePrincipal, startApi } from '../../src/api/index.js';
import { type Config, defineConfig, loadConfig } from '../../src/config/index.js';
import { llmJudgeEvaluator } from '../../src/evaluators/index.js';
import {
  bundleWorkflows,
  startEngine,
  startTracing,
  type Tracing,
} from '../../src/worker/index.js';
import {
  agentTurn,
  chatCompletions,
  collector,
  type Received,
  randomHex,
} from '../support/otlp-collector.js';
import {
  devServerEnvironment,
  sharedTemporalEnv,
  uniqueTaskQueue,
  workflowBundle,
} from '../support/temporal.js';

// evalflow tracing its own work, with its real parts: `evalflow start`'s engine and API in this
// process, the environment's OTLP endpoint pointing at a collector stand-in here (a real HTTP
// server reading protobuf `ExportTraceServiceRequest`s), an agent's run sent over OTLP, and the
// LLM judge asking a chat completions stand-in. The operator follows the agent span to the
// evaluation (a link) and the evaluation to its judge call (one trace, parent to child).

const close = (server: Server) => new Promise((resolve) => server.close(resolve));

let env: TestWorkflowEnvironment;
let otlp: Awaited<ReturnType<typeof collector>>;
let judge: Awaited<ReturnType<typeof chatCompletions>>;
let tracedBundle: WorkflowBundle;
const dirs: string[] = [];

beforeAll(async () => {
  env = await devServerEnvironment();
  otlp = await collector();
  judge = await chatCompletions();
  tracedBundle = await bundleWorkflows({ tracing: true });
}, 120_000);
afterAll(async () => {
  await env?.teardown();
  if (otlp) await close(otlp.server);
  if (judge) await close(judge.server);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const app = () =>
  defineConfig({
    evaluators: [llmJudgeEvaluator({ baseUrl: judge.baseUrl, model: 'grader', targets: ['turn'] })],
    rules: [{ evaluator: 'llm_judge@1' }],
  });

/** The environment `evalflow start` reads, plus `extra` (the OTel variables). */
function configWith(extra: Record<string, string>): Config {
  const dir = mkdtempSync(join(tmpdir(), 'evalflow-self-tracing-'));
  dirs.push(dir);
  const config = loadConfig({
    ...sharedTemporalEnv(env),
    EVALFLOW_TASK_QUEUE: uniqueTaskQueue('self-tracing'),
    EVALFLOW_SQLITE_PATH: join(dir, 'evalflow.db'),
    EVALFLOW_SCORES_FILE: join(dir, 'scores.jsonl'),
    EVALFLOW_SCORE_CONFIGS_FILE: join(dir, 'score-configs.jsonl'),
    EVALFLOW_OTLP_SETTLE_MS: '200',
    ...extra,
  });
  // Any free port for the API.
  return { ...config, api: { ...config.api, port: 0 } };
}

/**
 * The engine and API as `evalflow start` runs them, with its tracing when the config has some;
 * an agent's run sent to the API over OTLP/JSON and judged; then everything stopped (the tracing
 * last, which sends its last spans). Returns the agent span's ids.
 */
async function judgeOneRun(config: Config, bundle: WorkflowBundleOption) {
  const tracing: Tracing | null = config.tracing && (await startTracing(config.tracing));
  const definition = app();
  const engine = await startEngine({
    config,
    app: definition,
    temporal: { address: env.address },
    relayPollMs: 100,
    log: () => {},
    workflowBundle: bundle,
    ...(tracing ? { tracing } : {}),
  });
  const api = await startApi({
    config,
    app: definition,
    temporal: { address: env.address },
    shared: {
      store: engine.deps.store,
      onScoreConfigsChanged: () => engine.deps.forgetScoreConfigs(),
      metrics: engine.metrics.registry,
    },
    logRequests: false,
    log: () => {},
    ...(tracing ? { clientInterceptors: tracing.clientInterceptors } : {}),
  });
  try {
    const principal = parsePrincipal('agent');
    if (principal === null) throw new Error('agent is a principal');
    const { key } = await issueCredential(engine.deps.store, {
      kind: 'key',
      workspaceId: 'ws',
      principal,
    });
    const traceId = randomHex(16);
    const spanId = randomHex(8);
    const sent = await fetch(`${api.url}/v1/traces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(agentTurn(traceId, spanId)),
    });
    expect(sent.status).toBe(200);
    await expect
      .poll(async () => (await engine.deps.store.ledger.evaluations('ws')).map((e) => e.state), {
        timeout: 30_000,
      })
      .toEqual(['recorded']);
    // The evaluation's workflow ends after its verdict is recorded; its spans leave the sandbox
    // as it goes, and the batch processor sends them when flushed.
    if (tracing) {
      await expect
        .poll(
          async () => {
            await tracing.forceFlush();
            return otlp.spans.map((span) => span.name);
          },
          { timeout: 30_000 },
        )
        .toEqual(expect.arrayContaining(['RunWorkflow:evaluateRun', 'StartActivity:evaluate']));
    }
    return { traceId, spanId, tracing };
  } finally {
    await api.stop();
    await engine.stop();
  }
}

describe("evalflow's own spans", () => {
  it('follow a run from the agent span through Temporal to the judge call, over OTLP/protobuf', async () => {
    const config = configWith({
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_SERVICE_NAME: 'evalflow-under-test',
    });
    expect(config.tracing?.endpoint).toBe(`${otlp.url}/v1/traces`);
    const { traceId, spanId, tracing } = await judgeOneRun(config, tracedBundle);
    // The last spans (the workflows', sent from the sandbox through the sink) are flushed at
    // shutdown, as `evalflow start` does when it stops.
    await tracing?.shutdown();
    expect(trace.getTracer('after').startSpan('x').isRecording()).toBe(false);
    expect(new Set(otlp.contentTypes)).toEqual(new Set(['application/x-protobuf']));

    const named = (name: string) => otlp.spans.filter((span) => span.name === name);
    const one = (name: string) => {
      const [span, ...more] = named(name);
      expect(span, name).toBeDefined();
      expect(more, `one ${name}`).toEqual([]);
      return span as Received;
    };
    const chat = one('chat grader');
    const activity = one('RunActivity:evaluate');
    const scheduled = one('StartActivity:evaluate');
    const workflow = one('RunWorkflow:evaluateRun');
    const ingested = one('SignalWithStartWorkflow:ingestTrace');

    // The judge's call: a GenAI client span with what it asked and what it cost.
    expect(chat.kind).toBe(3);
    expect(chat.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'grader',
      'gen_ai.response.model': 'grader-2025',
      'gen_ai.usage.input_tokens': 31,
      'gen_ai.usage.output_tokens': 8,
    });
    expect(chat.serviceName).toBe('evalflow-under-test');

    // One trace from the receiver's word to the trace's workflow to the judge call: the judge
    // call's ancestors, child to parent, as far as they have ended (the trace's own workflow,
    // `RunWorkflow:ingestTrace`, ends only at its idle timeout).
    const byId = new Map(otlp.spans.map((span) => [span.spanId, span]));
    const ancestors: string[] = [];
    for (let span: Received | undefined = chat; span; span = byId.get(span.parentSpanId ?? '')) {
      ancestors.push(span.name);
      expect(span.traceId).toBe(ingested.traceId);
    }
    expect(ancestors).toEqual([
      'chat grader',
      'RunActivity:evaluate',
      'StartActivity:evaluate',
      'RunWorkflow:evaluateRun',
      'SignalWithStartWorkflow:evaluateRun',
      'RunActivity:recordTrace',
      'StartActivity:recordTrace',
    ]);
    expect(activity.parentSpanId).toBe(scheduled.spanId);
    expect(scheduled.parentSpanId).toBe(workflow.spanId);
    expect(ingested.parentSpanId).toBeNull();

    // The evaluation names the run it judged and links to its agent span.
    const runId = `${traceId}-${spanId}`;
    expect(activity.attributes).toMatchObject({
      'evalflow.workspace.id': 'ws',
      'evalflow.evaluator.name': 'llm_judge',
      'evalflow.evaluator.version': '1',
      'evalflow.target': `turn:${runId}`,
      'evalflow.judged_run.id': runId,
    });
    expect(activity.links).toEqual([
      { traceId, spanId, attributes: { 'evalflow.link.type': 'judged_agent_span' } },
    ]);
    // The agent's trace is the agent's: evalflow adds no span to it.
    expect(otlp.spans.filter((span) => span.traceId === traceId)).toEqual([]);
  }, 120_000);

  it('registers nothing and sends nothing without an endpoint', async () => {
    const before = otlp.spans.length;
    const requests = otlp.contentTypes.length;
    const calls = judge.calls();
    const config = configWith({ OTEL_SERVICE_NAME: 'evalflow-under-test' });
    expect(config.tracing).toBeNull();
    const { tracing } = await judgeOneRun(config, workflowBundle());
    expect(tracing).toBeNull();
    expect(judge.calls()).toBe(calls + 1);
    // No provider: the judge's span, like any, records nothing, so no processor holds a span to
    // send later; nothing has come by the time the run was judged.
    expect(trace.getTracer('judge').startSpan('chat grader').isRecording()).toBe(false);
    expect(otlp.spans.length).toBe(before);
    expect(otlp.contentTypes.length).toBe(requests);
  }, 120_000);
});
