import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUDGET_PAUSED_EXIT_CODE } from '../../src/cli/commands/reevaluate.js';
import { cliInProcess } from '../support/cli.js';
import { given, type TestEngine, testEngine } from '../support/engine.js';
import { embeddedDefaults, repoRoot } from '../support/processes.js';
import {
  devServerEnvironment,
  sharedTemporalEnv,
  testWorker,
  uniqueTaskQueue,
} from '../support/temporal.js';
import { pricedTitle } from './fixtures/priced.config.js';

// `evalflow reevaluate … --max-cost-usd … --watch` in-process against the shared dev server, with
// a worker on the engine's real activities and SQLite store (issue 34): a watch ends when the
// batch's budget pauses it, says the command that raises the budget, and exits 3; that command,
// run as printed, lets the batch finish. Money is printed as the budget was set ($0.0010).

const config = join(repoRoot, 'test/cli/fixtures/priced.config.ts');
let env: TestWorkflowEnvironment;
let engine: TestEngine;
let cliEnv: NodeJS.ProcessEnv;
const taskQueue = uniqueTaskQueue('cli-budget');

const cli = (...args: string[]) =>
  cliInProcess(args, { cwd: dirname(engine.storePath), env: cliEnv });

beforeAll(async () => {
  env = await devServerEnvironment();
  engine = testEngine({ evaluators: [pricedTitle] });
  cliEnv = {
    ...embeddedDefaults(),
    ...sharedTemporalEnv(env),
    EVALFLOW_TASK_QUEUE: taskQueue,
    EVALFLOW_SQLITE_PATH: engine.storePath,
  };
  const puts = Array.from({ length: 10 }, (_, i) => ({
    type: 'put_artifact',
    artifact_id: `report-${i}`,
    kind: 'report',
    data: i % 2 ? { title: `Report ${i}` } : {},
  }));
  await given(engine.store, 'acme', ...puts);
});
afterAll(async () => {
  const dir = engine ? dirname(engine.storePath) : null;
  await engine?.close();
  await env?.teardown();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const budgeted = [
  'reevaluate',
  'start',
  '--workspace',
  'acme',
  '--evaluator',
  'priced_title@1',
  '--all',
  '--concurrency',
  '1',
  '--max-cost-usd',
  '0.001',
  '--config',
  config,
];

describe('evalflow reevaluate --watch on a budgeted batch', () => {
  it('ends when the budget pauses the batch, with the command that raises it, and exits 3', async () => {
    const worker = await testWorker(env, taskQueue, engine.activities);
    await worker.runUntil(async () => {
      const watched = await cli(...budgeted, '--batch', 'capped', '--watch');
      expect(watched.err).toBe('');
      expect(BUDGET_PAUSED_EXIT_CODE).toBe(3);
      expect(watched.code).toBe(3);
      const lines = watched.out.trim().split('\n');
      expect(lines[0]).toBe('batch capped');
      // $0.00037 an evaluation, one at a time: the third takes the spend past $0.001.
      expect(lines.at(-4)).toMatch(
        /^capped: 3\/10 done, 0 in flight, 0 failed, \$0\.0011 spent of \$0\.0010, .*, paused: budget reached$/,
      );
      expect(lines.at(-3)).toBe('recorded 3, sampled out 0, failed 0, skipped 0');
      expect(lines.at(-2)).toBe(
        'paused by its budget: $0.0011 of $0.0010 spent, 3/10 done; it goes on when its budget is above the spend',
      );
      // At $0.00037 an evaluation so far, ten cost $0.0037.
      const hint = lines.at(-1) ?? '';
      const command = `npx evalflow reevaluate budget capped --workspace acme --max-cost-usd 0.0037 --config ${config}`;
      expect(hint).toBe(`raise it (this one finishes the batch at its spend so far): ${command}`);

      // A watch of a batch waiting on its budget ends at once, the same way.
      const status = await cli(
        'reevaluate',
        'status',
        'capped',
        '--workspace',
        'acme',
        '--watch',
        '--json',
        '--config',
        config,
      );
      expect(status.code).toBe(3);
      expect(JSON.parse(status.out)).toMatchObject({
        batchId: 'capped',
        progress: { done: 3, total: 10, paused: true, pausedBy: 'budget', inFlight: 0 },
      });

      // The printed command, run as printed, raises the budget; the batch then finishes.
      const raised = await cli(...command.split(' ').slice(2));
      expect([raised.code, raised.err]).toEqual([0, '']);
      expect(raised.out).toMatch(
        /^budget set: capped: 3\/10 done, .*spent \$0\.0011 of \$0\.0037, /,
      );
      const finished = await cli(
        'reevaluate',
        'status',
        'capped',
        '--workspace',
        'acme',
        '--watch',
        '--json',
        '--config',
        config,
      );
      expect([finished.code, finished.err]).toEqual([0, '']);
      expect(JSON.parse(finished.out).progress).toMatchObject({
        total: 10,
        done: 10,
        recorded: 10,
        paused: false,
        pausedBy: null,
        spentNanos: 3_700_000,
        maxCostNanos: 3_700_000,
      });
    });
  }, 120_000);
});
