import { describe, expect, it } from 'vitest';
import {
  budgetMetrics,
  engineMetrics,
  httpMetrics,
  Registry,
  reviewQueueMetrics,
} from '../../src/metrics/index.js';

// What the engine's and the API's observers turn into, read back as Prometheus would scrape it.

/** The value of one series in the registry's text, by its name and labels as printed. */
async function sample(registry: Registry, series: string): Promise<number | undefined> {
  const text = await registry.metrics();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const deployed = [
  { name: 'tone', version: '2' },
  { name: 'length', version: '1' },
];

describe("the engine's metrics", () => {
  it('start every deployed version at zero in every ledger state, so rates see them', async () => {
    const registry = new Registry();
    engineMetrics(registry, { evaluators: deployed, sink: 'file' });
    for (const state of ['recorded', 'sampled_out', 'failed', 'skipped']) {
      expect(
        await sample(
          registry,
          `evalflow_evaluations_total{evaluator="length",version="1",state="${state}"}`,
        ),
      ).toBe(0);
    }
    expect(
      await sample(
        registry,
        'evalflow_evaluation_duration_seconds_count{evaluator="tone",version="2"}',
      ),
    ).toBe(0);
    expect(await sample(registry, 'evalflow_mirror_score_failures_total{sink="file"}')).toBe(0);
    expect(await sample(registry, 'evalflow_relay_undelivered_events_total')).toBe(0);
  });

  it('count evaluations by version and state, and time each judging', async () => {
    const registry = new Registry();
    const { evaluations } = engineMetrics(registry, { evaluators: deployed, sink: 'file' });
    const tone = { name: 'tone', version: '2' };
    evaluations.settled(tone, 'recorded');
    evaluations.settled(tone, 'recorded');
    evaluations.settled(tone, 'failed');
    evaluations.judged(tone, 0.3, false);
    evaluations.judged(tone, 4, true);
    const labels = 'evaluator="tone",version="2"';
    expect(await sample(registry, `evalflow_evaluations_total{${labels},state="recorded"}`)).toBe(
      2,
    );
    expect(await sample(registry, `evalflow_evaluations_total{${labels},state="failed"}`)).toBe(1);
    expect(await sample(registry, `evalflow_evaluation_duration_seconds_count{${labels}}`)).toBe(2);
    expect(await sample(registry, `evalflow_evaluation_duration_seconds_sum{${labels}}`)).toBe(4.3);
    expect(
      await sample(registry, `evalflow_evaluation_duration_seconds_bucket{le="0.5",${labels}}`),
    ).toBe(1);
    expect(await sample(registry, `evalflow_evaluation_errors_total{${labels}}`)).toBe(1);
  });

  it('sum each version’s spend exactly, in dollars converted once from nano-dollars', async () => {
    const registry = new Registry();
    const { evaluations } = engineMetrics(registry, { evaluators: deployed, sink: 'file' });
    const tone = { name: 'tone', version: '2' };
    const usage = { model: 'm', inputTokens: 10, outputTokens: 2 };
    const used = evaluations.used;
    if (used === undefined) throw new Error('the engine observes usage');
    // $0.0018 six times: added as floats, 0.010799999999999999.
    expect(Array.from({ length: 6 }, () => 0.0018).reduce((a, b) => a + b, 0)).not.toBe(0.0108);
    for (let i = 0; i < 6; i += 1) used(tone, usage, 1_800_000);
    used(tone, usage, null);
    const cost = 'evalflow_evaluation_cost_usd_total';
    expect(await sample(registry, `${cost}{evaluator="tone",version="2"}`)).toBe(0.0108);
    expect(await registry.metrics()).toContain(`${cost}{evaluator="tone",version="2"} 0.0108\n`);
    expect(await sample(registry, `${cost}{evaluator="length",version="1"}`)).toBe(0);
    expect(
      await sample(
        registry,
        'evalflow_evaluation_tokens_total{evaluator="tone",version="2",direction="input"}',
      ),
    ).toBe(70);
  });

  it("count the mirror's writes, deletes, confirmations and failures for its sink", async () => {
    const registry = new Registry();
    const { mirror } = engineMetrics(registry, { evaluators: [], sink: 'langfuse' });
    mirror.written(5);
    mirror.written(2);
    mirror.deletesSent(1);
    mirror.confirmed(6);
    mirror.failed(1);
    const of = (what: string) =>
      sample(registry, `evalflow_mirror_score_${what}_total{sink="langfuse"}`);
    expect([
      await of('writes'),
      await of('deletes'),
      await of('confirmations'),
      await of('failures'),
    ]).toEqual([7, 1, 6, 1]);
  });

  it("read the relays' figures at each scrape: workspaces here, the store's backlog and lag", async () => {
    const registry = new Registry();
    const metrics = engineMetrics(registry, { evaluators: [], sink: 'file' });
    // Before the relays run, nothing trails.
    expect(await sample(registry, 'evalflow_relay_lag_seconds')).toBe(0);
    let reads = 0;
    let oldest: string | null = new Date(Date.now() - 90_000).toISOString();
    metrics.watchRelays({
      relaying: () => 3,
      backlog: async () => {
        reads++;
        return { events: 42, oldest_ts: oldest };
      },
    });
    const text = await registry.metrics();
    expect(text).toMatch(/^evalflow_relay_workspaces 3$/m);
    expect(text).toMatch(/^evalflow_relay_backlog_events 42$/m);
    const lag = Number(/^evalflow_relay_lag_seconds (\S+)$/m.exec(text)?.[1]);
    expect(lag).toBeGreaterThanOrEqual(90);
    expect(lag).toBeLessThan(100);
    // One read of the store per scrape, for both gauges.
    expect(reads).toBe(1);
    oldest = null;
    expect(await sample(registry, 'evalflow_relay_lag_seconds')).toBe(0);
  });

  it('count relayed and undelivered events, and how old each page was when relayed', async () => {
    const registry = new Registry();
    const { relay } = engineMetrics(registry, { evaluators: [], sink: 'file' });
    relay.relayed(500, new Date(Date.now() - 2000).toISOString());
    relay.relayed(3, new Date().toISOString());
    relay.undelivered(2);
    expect(await sample(registry, 'evalflow_relay_events_total')).toBe(503);
    expect(await sample(registry, 'evalflow_relay_undelivered_events_total')).toBe(2);
    expect(await sample(registry, 'evalflow_relay_delay_seconds_count')).toBe(2);
    expect(await sample(registry, 'evalflow_relay_delay_seconds_bucket{le="1"}')).toBe(1);
  });
});

describe("the API's metrics", () => {
  it('count requests by method, route pattern and status, and time them by route', async () => {
    const registry = new Registry();
    const http = httpMetrics(registry);
    http.answered('POST', '/v1/threads/:threadId/runs', 201, 0.004);
    http.answered('POST', '/v1/threads/:threadId/runs', 201, 0.006);
    http.answered('POST', '/v1/threads/:threadId/runs', 409, 0.002);
    const route = 'method="POST",route="/v1/threads/:threadId/runs"';
    expect(await sample(registry, `evalflow_http_requests_total{${route},status="201"}`)).toBe(2);
    expect(await sample(registry, `evalflow_http_requests_total{${route},status="409"}`)).toBe(1);
    expect(await sample(registry, `evalflow_http_request_duration_seconds_count{${route}}`)).toBe(
      3,
    );
    expect(
      await sample(registry, `evalflow_http_request_duration_seconds_bucket{le="0.005",${route}}`),
    ).toBe(2);
  });
});

describe("review queues' gauges (the hook for the queues' store)", () => {
  it('read every queue at each scrape, and forget a queue that is gone', async () => {
    const registry = new Registry();
    let queues = [
      { queue: 'escalations', depth: 4, leased: 1 },
      { queue: 'spot-checks', depth: 0, leased: 0 },
    ];
    reviewQueueMetrics(registry, async () => queues);
    expect(await sample(registry, 'evalflow_review_queue_depth{queue="escalations"}')).toBe(4);
    expect(await sample(registry, 'evalflow_review_queue_leases{queue="escalations"}')).toBe(1);
    queues = [{ queue: 'spot-checks', depth: 2, leased: 2 }];
    expect(
      await sample(registry, 'evalflow_review_queue_depth{queue="escalations"}'),
    ).toBeUndefined();
    expect(await sample(registry, 'evalflow_review_queue_depth{queue="spot-checks"}')).toBe(2);
  });
});

describe("budgets' gauges (the hook for the budgets in force)", () => {
  it("sum each budget's workspaces with one read per scrape, keep its fullest share, and forget one gone", async () => {
    const registry = new Registry();
    let reads = 0;
    let budgets = [
      { budget: 'monthly', scope: '*', limitUsd: 200, spentUsd: 50, reservedUsd: 0.01 },
      { budget: 'daily', scope: 'acme', limitUsd: 5, spentUsd: 4.5, reservedUsd: 0.02 },
      { budget: 'daily', scope: 'globex', limitUsd: 10, spentUsd: 1, reservedUsd: 0 },
    ];
    budgetMetrics(registry, async () => {
      reads += 1;
      return budgets;
    });
    expect(await sample(registry, 'evalflow_budget_limit_usd{budget="daily"}')).toBe(15);
    expect(reads).toBe(1);
    expect(await sample(registry, 'evalflow_budget_spent_usd{budget="daily"}')).toBe(5.5);
    expect(await sample(registry, 'evalflow_budget_reserved_usd{budget="daily"}')).toBe(0.02);
    // acme's period is 90 % spent, though the two together are at 37 %.
    expect(await sample(registry, 'evalflow_budget_used_ratio{budget="daily"}')).toBe(0.9);
    expect(await sample(registry, 'evalflow_budget_used_ratio{budget="monthly"}')).toBe(0.25);
    expect(await registry.metrics()).not.toMatch(/acme|globex|scope=/);
    // Spends summed exactly: 0.0018 six times is 0.0108, not 0.010799999999999999.
    budgets = ['a', 'b', 'c', 'd', 'e', 'f'].map((scope) => ({
      budget: 'daily',
      scope,
      limitUsd: 0.1,
      spentUsd: 0.0018,
      reservedUsd: 0.0018,
    }));
    expect(await registry.metrics()).toContain(
      'evalflow_budget_spent_usd{budget="daily"} 0.0108\n',
    );
    expect(await sample(registry, 'evalflow_budget_reserved_usd{budget="daily"}')).toBe(0.0108);
    expect(await sample(registry, 'evalflow_budget_limit_usd{budget="daily"}')).toBe(0.6);
    budgets = [{ budget: 'monthly', scope: '*', limitUsd: 200, spentUsd: 50, reservedUsd: 0.01 }];
    expect(await sample(registry, 'evalflow_budget_spent_usd{budget="daily"}')).toBeUndefined();
    expect(await sample(registry, 'evalflow_budget_spent_usd{budget="monthly"}')).toBe(50);
  });
});
