import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { EvalflowClient } from '../../src/client/index.js';
import { cliInProcess } from '../support/cli.js';
import { exampleIds, reportedRun } from '../support/examples.js';
import { freePort } from '../support/free-port.js';
import {
  embeddedDefaults,
  eventually,
  finished,
  repoRoot,
  runCli,
  runTypeScript,
  temporalBinaries,
  waitForLine,
} from '../support/processes.js';

// examples/quickstart/http-host.ts, run exactly as its comment tells a user to, against a real
// server: `evalflow start` with the quickstart app (dev server, worker), and the host talking to
// a separate `evalflow api` process on the same store and Temporal, with keys from `evalflow keys`;
// host.ts beside it on the same store, each twice, in turn.

const home = mkdtempSync(join(tmpdir(), 'evalflow-http-host-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const example = join(repoRoot, 'examples', 'quickstart');
const config = join(example, 'evalflow.config.ts');

it('reports a run, rates the answer and reviews the run over HTTP with EvalflowClient, any number of times beside host.ts', async () => {
  const [port, uiPort, startApiPort, apiPort, metricsPort] = await Promise.all(
    [0, 1, 2, 3, 4].map(() => freePort()),
  );
  const env = {
    ...embeddedDefaults(),
    ...temporalBinaries(),
    EVALFLOW_TASK_QUEUE: 'http-host-example',
  };
  const engine = runCli(
    [
      'start',
      '--config',
      config,
      '--port',
      `${port}`,
      '--ui-port',
      `${uiPort}`,
      '--api-port',
      `${startApiPort}`,
      '--metrics-port',
      `${metricsPort}`,
    ],
    { cwd: home, env },
  );
  engine.stderr?.pipe(process.stderr);
  let api: ChildProcess | undefined;
  try {
    await waitForLine(engine, /worker polling/);
    api = runCli(['api', '--config', config, '--api-port', `${apiPort}`], {
      cwd: home,
      env: { ...env, TEMPORAL_ADDRESS: `127.0.0.1:${port}` },
    });
    api.stderr?.pipe(process.stderr);
    await waitForLine(api, /API at/);
    const key = async (principal: string) => {
      const made = await cliInProcess(
        ['keys', 'create', '--workspace', 'quickstart', '--principal', principal, '--json'],
        {
          cwd: home,
          env,
        },
      );
      expect(made.code, made.err).toBe(0);
      return (JSON.parse(made.out) as { key: string }).key;
    };
    const [systemKey, reviewerKey] = [await key('system'), await key('reviewer:grace')];
    const url = `http://127.0.0.1:${apiPort}`;

    // The README's order and then again: each run reports a run of its own, and all exit 0.
    const httpHost = () =>
      finished(
        runTypeScript(join(example, 'http-host.ts'), [], {
          cwd: repoRoot,
          env: { ...env, EVALFLOW_URL: url, SYSTEM_KEY: systemKey, REVIEWER_KEY: reviewerKey },
        }),
      );
    const storeHost = () =>
      finished(
        runTypeScript(join(example, 'host.ts'), [], {
          cwd: home,
          env: { ...env, TEMPORAL_ADDRESS: `127.0.0.1:${port}` },
        }),
      );
    const runs: string[] = [];
    for (const [host, own] of [
      [storeHost, ['rated; raters on the message: 1', 'review: recorded at position 0']],
      [httpHost, ['rated; raters on the message: 1', 'review: recorded at position 0']],
      [storeHost, ['rated; raters on the message: 1', 'review: recorded at position 0']],
      [httpHost, ['rated; raters on the message: 1', 'review: recorded at position 0']],
    ] as const) {
      const ran = await host();
      expect(ran.err).toBe('');
      expect(ran.code).toBe(0);
      runs.push(reportedRun(ran.out, [...own]));
    }
    expect(new Set(runs).size).toBe(4);
    const runId = runs[1] as string;

    // What it reported is there, and the run's evaluators judged the answer.
    const system = new EvalflowClient({ baseUrl: url, apiKey: systemKey });
    const { messages } = await system.conversation(exampleIds(runId).threadId);
    expect(messages.map((m) => m.role)).toEqual(['ROLE_USER', 'ROLE_ASSISTANT']);
    const judged = await eventually(
      () => system.run(runId),
      (read) => read.evaluations.length >= 2,
    );
    expect(judged.run.status).toBe('completed');
    expect(judged.evaluations.map((e) => [e.evaluator, e.state]).sort()).toEqual([
      ['answer_length@1', 'recorded'],
      ['politeness@1', 'recorded'],
    ]);
    const { groups } = await system.scoresSummary({ source: 'SCORE_SOURCE_HUMAN' });
    expect(groups.map((g) => g.name).sort()).toEqual([
      'review_verdict.note',
      'review_verdict.verdict',
    ]);

    // Missing settings are one clear error, before any request.
    const unset = await finished(
      runTypeScript(join(example, 'http-host.ts'), [], { cwd: repoRoot, env: embeddedDefaults() }),
    );
    expect(unset.code).toBe(1);
    expect(unset.err).toContain('set EVALFLOW_URL, as the comment at the top of this file says');
  } finally {
    await Promise.all([stop(api), stop(engine)]);
  }
});

/** Interrupts a process, as Ctrl-C would, and waits for it to exit (at once if it has). */
async function stop(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGINT');
  await once(child, 'exit');
}
