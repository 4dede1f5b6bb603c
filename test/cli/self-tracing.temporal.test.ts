import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cliInProcess } from '../support/cli.js';
import { freePort } from '../support/free-port.js';
import { agentTurn, chatCompletions, collector, randomHex } from '../support/otlp-collector.js';
import {
  embeddedDefaults,
  eventually,
  runCli,
  temporalBinaries,
  waitForLine,
} from '../support/processes.js';

// `evalflow start` as a user runs it, with OTEL_EXPORTER_OTLP_ENDPOINT set: it says where its
// spans go, judges an agent's run sent over OTLP with the built-in LLM judge, and when stopped
// sends its last spans (a batch processor would otherwise hold them for seconds) and exits 0.

const home = mkdtempSync(join(tmpdir(), 'evalflow-self-tracing-start-'));
let otlp: Awaited<ReturnType<typeof collector>>;
let judge: Awaited<ReturnType<typeof chatCompletions>>;
beforeAll(async () => {
  otlp = await collector();
  judge = await chatCompletions();
});
const close = (server: Server) => new Promise((resolve) => server.close(resolve));
afterAll(async () => {
  if (otlp) await close(otlp.server);
  if (judge) await close(judge.server);
  rmSync(home, { recursive: true, force: true });
});

it('traces its own work to the endpoint the environment names, and sends the last spans as it stops', async () => {
  const [port, uiPort, apiPort, metricsPort] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ]);
  const env = {
    ...embeddedDefaults(),
    ...temporalBinaries(),
    EVALFLOW_TASK_QUEUE: 'self-tracing-start',
    EVALFLOW_OTLP_SETTLE_MS: '200',
    EVALFLOW_JUDGE_BASE_URL: judge.baseUrl,
    EVALFLOW_JUDGE_MODEL: 'grader',
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
  };
  const engine = runCli(
    [
      'start',
      ...['--port', String(port), '--ui-port', String(uiPort), '--api-port', String(apiPort)],
      ...['--metrics-port', String(metricsPort)],
    ],
    { cwd: home, env },
  );
  engine.stderr?.pipe(process.stderr);
  const said = waitForLine(engine, /tracing its own work/);
  await waitForLine(engine, /worker polling/);
  expect(await said).toBe(`evalflow: tracing its own work to ${otlp.url}/v1/traces`);

  const made = await cliInProcess(
    ['keys', 'create', '--workspace', 'acme', '--principal', 'agent', '--json'],
    { cwd: home, env },
  );
  const { key } = JSON.parse(made.out) as { key: string };
  const traceId = randomHex(16);
  const spanId = randomHex(8);
  const sent = await fetch(`http://127.0.0.1:${apiPort}/v1/traces`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(agentTurn(traceId, spanId)),
  });
  expect(sent.status).toBe(200);
  // The judge answered; the verdict is recorded soon after.
  await eventually(
    async () => judge.calls(),
    (calls) => calls > 0,
  );
  const runId = `${traceId}-${spanId}`;
  await eventually(
    async () => {
      const { out } = await cliInProcess(['ledger', '--workspace', 'acme', '--json'], {
        cwd: home,
        env,
      });
      return out;
    },
    (out) => out.includes('llm_judge') && out.includes('recorded'),
  );

  engine.kill('SIGINT');
  expect((await once(engine, 'exit'))[0]).toBe(0);
  // Sent by the time it exited: nothing waits on the batch processor's schedule. (A workflow's
  // own span leaves when the workflow ends, which a stop may come before: the in-process test,
  // test/worker/self-tracing.temporal.test.ts, waits for those.)
  const names = otlp.spans.map((span) => span.name);
  expect(names).toEqual(
    expect.arrayContaining([
      'SignalWithStartWorkflow:ingestTrace',
      'RunActivity:evaluate',
      'chat grader',
    ]),
  );
  expect(new Set(otlp.spans.map((span) => span.serviceName))).toEqual(new Set(['evalflow']));
  const judged = otlp.spans.filter(
    (span) =>
      span.name === 'RunActivity:evaluate' &&
      span.attributes['evalflow.evaluator.name'] === 'llm_judge',
  );
  expect(judged.length).toBeGreaterThan(0);
  for (const span of judged) {
    expect(span.attributes['evalflow.judged_run.id']).toBe(runId);
    expect(span.links).toEqual([
      { traceId, spanId, attributes: { 'evalflow.link.type': 'judged_agent_span' } },
    ]);
  }
}, 240_000);
