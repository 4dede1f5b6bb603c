import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createFeedbackTypeRegistry, targetKey } from '../../src/core/index.js';
import { judgeVerdictFeedback } from '../../src/evaluators/index.js';
import { readBacktest } from '../../src/evidence/index.js';
import { ReevaluationClient } from '../../src/workflow-clients/index.js';
import { review } from '../cli/fixtures/tuning.config.js';
import { feedbackEvents, given, type TestEngine, testEngine } from '../support/engine.js';
import { messageOfT, tunedVersion } from '../support/judge-versions.js';
import { finished, repoRoot, runTypeScript, waitForLine } from '../support/processes.js';
import { readChat } from '../support/stand-in-judge.js';
import {
  devServerEnvironment,
  testWorker,
  uniqueTaskQueue,
  workflowBundle,
} from '../support/temporal.js';
import { standInJudge } from '../workflows/fixtures/stalling-judge.js';

// A tuned judge's backtest survives a worker killed mid-backtest: the backfill of its held-out
// targets runs on a worker in a process of its own, which is SIGKILLed while four judge calls
// hang at the model; a worker started after it finishes the batch, and every held-out target is
// judged by the candidate exactly once, no example among them. The model is a local stand-in
// (no model can run here) that holds every call until the kill, then answers.

const killableWorker = fileURLToPath(
  new URL('../workflows/fixtures/killable-worker.ts', import.meta.url),
);
const ws = 'backtest';
const WINDOW = 4;
const message = messageOfT;
const heldOut = Array.from({ length: 12 }, (_, i) => message(i + 2));

let server: Server;
let baseUrl: string;
let env: TestWorkflowEnvironment;
let engine: TestEngine;
/** Calls held while the killed worker runs; each arrival wakes `heldReached`. */
const held: ServerResponse[] = [];
let holding = true;
let heldReached: () => void = () => {};

beforeAll(async () => {
  server = createServer(async (request, response) => {
    await readChat(request);
    if (holding) {
      held.push(response);
      heldReached();
      return;
    }
    const content = JSON.stringify({ score: 1, passed: true, reasoning: 'stand-in' });
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  env = await devServerEnvironment();
  engine = testEngine({ evaluators: [standInJudge(baseUrl)], feedbackTypes: [review] });
  await given(
    engine.store,
    ws,
    { type: 'create_thread', thread_id: 't' },
    ...Array.from({ length: 13 }, (_, i) => ({
      type: 'post_message',
      thread_id: 't',
      message_id: `m${i + 1}`,
      role: 'assistant',
      content: `answer ${i + 1}`,
    })),
    {
      type: 'record_judge_version',
      judge_version: tunedVersion({ heldOut }),
    },
  );
}, 120_000);
afterAll(async () => {
  await engine?.close();
  await env?.teardown();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

/** Resolves once `count` calls are held at the stand-in model. */
const heldCalls = (count: number) =>
  new Promise<void>((resolve) => {
    heldReached = () => {
      if (held.length >= count) resolve();
    };
    heldReached();
  });

it('judges every held-out target once across a worker killed mid-backtest', async () => {
  const taskQueue = uniqueTaskQueue('backtest-kill');
  const bundle = workflowBundle();
  const child = runTypeScript(
    killableWorker,
    [
      env.address,
      env.namespace ?? 'default',
      taskQueue,
      engine.storePath,
      'codePath' in bundle ? bundle.codePath : '',
      baseUrl,
    ],
    { cwd: repoRoot, env: process.env },
  );
  const exited = finished(child);
  await waitForLine(child, /^ready$/);
  const batches = new ReevaluationClient(
    env.client,
    engine.store,
    taskQueue,
    engine.evaluators,
    {},
    engine.store.judgeVersions,
  );
  await batches.start(ws, {
    selection: { kind: 'message', targets: heldOut },
    evaluators: ['llm_judge@tuned-1'],
    concurrency: WINDOW,
    batchId: 'backtest',
  });
  // The batch's whole window hangs at the model: kill the worker then.
  await heldCalls(WINDOW);
  child.kill('SIGKILL');
  await exited;
  holding = false;
  for (const response of held) response.destroy();

  const worker = await testWorker(env, taskQueue, engine.activities);
  const progress = await worker.runUntil(batches.watch(ws, 'backtest', () => {}, 100));
  expect(progress).toMatchObject({ total: heldOut.length, recorded: heldOut.length });
  // One feedback event per held-out target in the log: none twice, none missing, no other.
  const judged = (await feedbackEvents(engine.store, ws)).flatMap(({ actor, event }) =>
    actor.kind === 'evaluator' && event.type === 'feedback_given'
      ? [`${actor.name}@${actor.version} ${targetKey(event.target)}`]
      : [],
  );
  expect(judged.sort()).toEqual(heldOut.map((t) => `llm_judge@tuned-1 ${targetKey(t)}`).sort());
  // The backtest reads one verdict of the candidate on each held-out target (the base and the
  // reviewers have given none here, so each lacks theirs alone).
  const statistics = await readBacktest(
    engine.store,
    {
      evaluators: engine.evaluators,
      feedbackTypes: createFeedbackTypeRegistry([judgeVerdictFeedback, review]),
    },
    {
      workspaceId: ws,
      version: (await engine.store.judgeVersions.get(ws, 'llm_judge@tuned-1')) ?? never(),
      against: 'reviewers:review.passed',
    },
  );
  expect(statistics.incomplete.map((target) => target.missing)).toEqual(
    heldOut.map(() => ['reviewers', 'old']),
  );
}, 180_000);

function never(): never {
  throw new Error('llm_judge@tuned-1 is not recorded');
}
