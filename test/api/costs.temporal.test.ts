import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvalflowApiError, EvalflowClient } from '../../src/client/index.js';
import { judgesApp } from '../evidence/stored-verdicts.js';
import { type ApiHarness, startApi } from '../support/api.js';
import { seedSpend } from '../support/spend.js';
import { devServerEnvironment } from '../support/temporal.js';

// GET /v1/costs through the real API and the HTTP client, on usage recorded in the store on
// known UTC days (test/support/spend.ts): sums exact to the nano-dollar, unpriced usage counted
// apart, a workspace's key held to its workspace and the system's key reading across them.

let env: TestWorkflowEnvironment;
let h: ApiHarness;
let reader: EvalflowClient;
let system: EvalflowClient;

beforeAll(async () => {
  env = await devServerEnvironment();
  const dir = mkdtempSync(join(tmpdir(), 'evalflow-costs-'));
  await seedSpend(join(dir, 'evalflow.db'), judgesApp.feedbackTypes);
  h = await startApi(env, judgesApp, { dir });
  reader = new EvalflowClient({ baseUrl: h.url, apiKey: await h.key('reviewer:grace') });
  system = new EvalflowClient({ baseUrl: h.url, apiKey: await h.key('system') });
});
afterAll(async () => {
  await h?.close();
  await env?.teardown();
});

const refusal = async (call: Promise<unknown>) => {
  const error = await call.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(EvalflowApiError);
  return error as EvalflowApiError;
};
const brief = (rows: { evaluator: string | null; day: string | null; costUsd: number }[]) =>
  rows.map((row) => [row.evaluator, row.day, row.costUsd]);

describe('the ledger’s entries', () => {
  it('carry what judging each used: attempts, tokens, dollars and unpriced reports, duration', async () => {
    for (const version of ['1', '2']) {
      await h.engine.store.ledger.settleEvaluation({
        workspace_id: 'ws',
        generation: 'run',
        participant: `evaluator:politeness@${version}`,
        target_key: 'turn:t1',
        target: { kind: 'turn', run_id: 't1' },
        state: 'recorded',
        reason: null,
        envelope_id: null,
      });
    }
    const page = await reader.ledger();
    expect(page.entries.map((entry) => [entry.evaluator, entry.usage])).toEqual([
      [
        'politeness@1',
        {
          attempts: 1,
          durationMs: 40,
          inputTokens: 1000,
          outputTokens: 200,
          costUsd: 0.0015,
          unpricedReports: 0,
        },
      ],
      [
        'politeness@2',
        {
          attempts: 1,
          durationMs: 40,
          inputTokens: 2100,
          outputTokens: 310,
          costUsd: 0.00301,
          unpricedReports: 0,
        },
      ],
    ]);
  });
});

describe('GET /v1/costs', () => {
  it('sums a workspace’s spend per version and day by default, unpriced reports counted apart', async () => {
    const costs = await reader.costs();
    expect(costs.by).toEqual(['version', 'day']);
    expect(costs.workspace).toBe('ws');
    expect(costs.rows).toEqual([
      {
        evaluator: 'politeness@1',
        workspace: null,
        day: '2026-05-01',
        model: null,
        evaluations: 2,
        reports: 2,
        inputTokens: 1500,
        outputTokens: 300,
        costUsd: 0.0015,
        unpricedReports: 1,
      },
      {
        evaluator: 'politeness@2',
        workspace: null,
        day: '2026-05-02',
        model: null,
        evaluations: 1,
        reports: 2,
        inputTokens: 2100,
        outputTokens: 310,
        costUsd: 0.00301,
        unpricedReports: 0,
      },
    ]);
    expect(costs.total).toEqual({
      evaluations: 3,
      reports: 4,
      inputTokens: 3600,
      outputTokens: 610,
      costUsd: 0.00451,
      unpricedReports: 1,
    });
  });

  it('groups by evaluator (every version summed), by model, and filters by version and days', async () => {
    const byName = await reader.costs({ by: ['evaluator'] });
    expect(byName.rows.map((row) => [row.evaluator, row.evaluations, row.costUsd])).toEqual([
      ['politeness', 3, 0.00451],
    ]);
    const byModel = await reader.costs({ by: ['model'], evaluator: 'politeness@2' });
    expect(byModel.rows.map((row) => [row.model, row.costUsd])).toEqual([
      ['gpt-4o', 0.003],
      ['gpt-4o-mini', 0.00001],
    ]);
    const late = await reader.costs({ from: '2026-05-02', to: '2026-05-02' });
    expect(brief(late.rows)).toEqual([['politeness@2', '2026-05-02', 0.00301]]);
    const named = await reader.costs({ evaluator: 'politeness' });
    expect(named.total.evaluations).toBe(3);
  });

  it('lets the system’s key read every workspace, or name one', async () => {
    const all = await system.costs({ by: ['workspace'] });
    expect(all.workspace).toBeNull();
    expect(all.rows.map((row) => [row.workspace, row.evaluations, row.costUsd])).toEqual([
      ['other', 1, 0.0001],
      ['ws', 3, 0.00451],
    ]);
    const other = await system.costs({ by: ['version'], workspace: 'other' });
    expect(brief(other.rows)).toEqual([['politeness@1', null, 0.0001]]);
  });

  it('holds a workspace’s key to its own workspace', async () => {
    const error = await refusal(reader.costs({ workspace: 'other' }));
    expect([error.status, error.body.type]).toEqual([403, 'forbidden']);
    expect((await reader.costs({ workspace: 'ws' })).total.evaluations).toBe(3);
  });

  it('refuses a bad grouping, day or evaluator as the validation failure it is', async () => {
    const key = await h.key('admin');
    for (const query of [
      'by=cost',
      'by=version,evaluator',
      'by=day,day',
      'from=2026-13-01',
      'from=2026-05-03&to=2026-05-01',
      'evaluator=a@b@c',
    ]) {
      const reply = await h.call('GET', `/v1/costs?${query}`, { key });
      expect([query, reply.status, reply.body.type]).toEqual([query, 422, 'validation_failed']);
    }
  });
});
