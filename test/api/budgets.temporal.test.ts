import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvalflowClient } from '../../src/client/index.js';
import { defineConfig } from '../../src/config/index.js';
import { answerLengthEvaluator } from '../../src/evaluators/index.js';
import { type ApiHarness, startApi } from '../support/api.js';
import { devServerEnvironment } from '../support/temporal.js';

// Budgets over HTTP: the ones in force in a workspace (the config's and its own) with their
// period's spend, a workspace's own set and removed by its admins with every change kept, and
// bad input refused with nothing changed.

const app = defineConfig({
  evaluators: [answerLengthEvaluator()],
  budgets: [
    {
      budgetId: 'global',
      evaluator: 'answer_length',
      period: 'month',
      limitUsd: 100,
      onExhausted: 'defer',
    },
    {
      budgetId: 'daily',
      evaluator: 'answer_length@1',
      workspace: 'ws',
      period: 'day',
      limitUsd: 5,
      onExhausted: 'skip',
    },
  ],
});
let env: TestWorkflowEnvironment;
let h: ApiHarness;
beforeAll(async () => {
  env = await devServerEnvironment();
  h = await startApi(env, app);
});
afterAll(async () => {
  await h?.close();
  await env?.teardown();
});

const summary = (reply: {
  body: { budgets: { budgetId: string; source: string; limitUsd: number }[] };
}) => reply.body.budgets.map((b) => [b.budgetId, b.source, b.limitUsd]);

describe('the budgets routes', () => {
  it("list the config's budgets in force, then a workspace's own overriding its namesake", async () => {
    const admin = await h.key('admin');
    const listed = await h.call('GET', '/v1/budgets', { key: await h.key('agent') });
    expect(listed.status).toBe(200);
    expect(summary(listed)).toEqual([
      ['global', 'config', 100],
      ['daily', 'config', 5],
    ]);
    expect(listed.body.budgets[0]).toMatchObject({ spentUsd: 0, reservedUsd: 0, period: 'month' });
    const set = await h.call('PUT', '/v1/budgets/daily', {
      key: admin,
      body: { evaluator: 'answer_length', period: 'week', limitUsd: 7.5, onExhausted: 'defer' },
    });
    expect(set.status).toBe(200);
    expect(summary(set)).toEqual([
      ['global', 'config', 100],
      ['daily', 'workspace', 7.5],
    ]);
    // Another workspace keeps the config's global budget only.
    expect(
      summary(await h.call('GET', '/v1/budgets', { key: await h.key('agent', 'other') })),
    ).toEqual([['global', 'config', 100]]);
    const removed = await h.call('DELETE', '/v1/budgets/daily', { key: admin });
    expect(summary(removed)).toEqual([
      ['global', 'config', 100],
      ['daily', 'config', 5],
    ]);
    const changes = await h.call('GET', '/v1/budgets/daily/changes', { key: admin });
    expect(changes.body.changes).toEqual([
      expect.objectContaining({
        change: 1,
        settings: expect.objectContaining({ limitUsd: 7.5 }),
        changedBy: 'system:admin',
      }),
      expect.objectContaining({ change: 2, settings: null, changedBy: 'system:admin' }),
    ]);
  });

  it('refuse bad budgets, unknown evaluators and callers who are not owners, changing nothing', async () => {
    const admin = await h.key('admin', 'strict');
    for (const body of [
      { evaluator: 'answer_length', period: 'year', limitUsd: 1, onExhausted: 'skip' },
      { evaluator: 'answer_length', period: 'day', limitUsd: -1, onExhausted: 'skip' },
      { evaluator: 'answer_length', period: 'day', limitUsd: 1, onExhausted: 'drop' },
      {
        evaluator: 'answer_length',
        period: 'day',
        limitUsd: 1,
        onExhausted: 'skip',
        workspace: 'x',
      },
    ]) {
      const refused = await h.call('PUT', '/v1/budgets/b', { key: admin, body });
      expect(refused.status).toBe(422);
      expect(refused.body.type).toBe('validation_failed');
    }
    const unknown = await h.call('PUT', '/v1/budgets/b', {
      key: admin,
      body: { evaluator: 'nobody', period: 'day', limitUsd: 1, onExhausted: 'skip' },
    });
    expect(unknown.status).toBe(404);
    const agent = await h.call('PUT', '/v1/budgets/b', {
      key: await h.key('agent', 'strict'),
      body: { evaluator: 'answer_length', period: 'day', limitUsd: 1, onExhausted: 'skip' },
    });
    expect(agent.status).toBe(403);
    expect((await h.call('DELETE', '/v1/budgets/b', { key: admin })).status).toBe(404);
    expect(summary(await h.call('GET', '/v1/budgets', { key: admin }))).toEqual([
      ['global', 'config', 100],
    ]);
    expect((await h.call('GET', '/v1/budgets/b/changes', { key: admin })).status).toBe(404);
  });

  it('are what EvalflowClient.budgets calls', async () => {
    const client = new EvalflowClient({ baseUrl: h.url, apiKey: await h.key('admin', 'sdk') });
    const set = await client.budgets.set('weekly', {
      evaluator: 'answer_length@1',
      period: 'week',
      limitUsd: 3,
      onExhausted: 'defer',
    });
    expect(set.budgets.map((b) => [b.budgetId, b.source, b.period])).toEqual([
      ['global', 'config', 'month'],
      ['weekly', 'workspace', 'week'],
    ]);
    expect((await client.budgets.list()).budgets).toHaveLength(2);
    expect((await client.budgets.remove('weekly')).budgets).toHaveLength(1);
    expect((await client.budgets.changes('weekly')).changes.map((c) => c.change)).toEqual([1, 2]);
  });
});
