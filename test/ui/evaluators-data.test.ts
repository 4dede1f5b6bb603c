import { describe, expect, it } from 'vitest';
import {
  dollars,
  type EvaluatorsApi,
  intervalText,
  loadEvaluators,
  percent,
  type Rule,
  type SummaryGroup,
  seriesOf,
  spendOf,
  trendLabel,
  trendOf,
  versionsOf,
  windowOf,
} from '../../src/ui/evaluators-data.js';

// The evaluators page's arrangement of the API's answers, apart from the DOM: the days asked
// for, which versions gave which labelled fields, each day's counts, the trend, and the reading.
// The page itself, against the real API, is test/ui/evaluators.temporal.test.ts.

const rule = (evaluator: string, mode: 'live' | 'shadow'): Rule => ({
  evaluator,
  targets: ['message'],
  sampleRate: 1,
  filter: {},
  enabled: true,
  idleFor: null,
  mode,
  origin: 'config',
  setBy: null,
  setAt: null,
});
const group = (
  producer: string,
  name: string,
  distribution: Record<string, number> | null,
  more: Partial<SummaryGroup> = {},
): SummaryGroup => ({
  source: 'SCORE_SOURCE_JUDGE',
  producer,
  sourceLabel: null,
  shadow: false,
  name,
  declared: true,
  count: Object.values(distribution ?? { n: 1 }).reduce((x, y) => x + y, 0),
  mean: null,
  distribution,
  ...more,
});

describe('the days asked for', () => {
  it('are each day from the first to the last, midnight to midnight in UTC', () => {
    const window = windowOf('2026-05-01', '2026-05-03');
    expect(window).toEqual({
      from: '2026-05-01T00:00:00.000Z',
      to: '2026-05-04T00:00:00.000Z',
      days: [
        { from: '2026-05-01T00:00:00.000Z', to: '2026-05-02T00:00:00.000Z' },
        { from: '2026-05-02T00:00:00.000Z', to: '2026-05-03T00:00:00.000Z' },
        { from: '2026-05-03T00:00:00.000Z', to: '2026-05-04T00:00:00.000Z' },
      ],
    });
    expect(windowOf('2026-05-01', '2026-05-01')).toMatchObject({ days: [{}] });
  });

  it('are refused, with the reason, when reversed, missing or too many', () => {
    expect(windowOf('2026-05-02', '2026-05-01')).toBe('The last day comes before the first.');
    expect(windowOf('', '2026-05-01')).toBe('Give both days as dates.');
    expect(windowOf('2026-01-01', '2026-12-31')).toBe('At most 92 days at once (365 asked for).');
  });
});

describe('the versions and what they gave', () => {
  it("lists every rule's version and every version with verdicts, with their labelled fields", () => {
    const rows = versionsOf(
      [rule('politeness@1', 'live'), rule('politeness@2', 'shadow'), rule('tone@1', 'live')],
      [
        group('politeness@2', 'politeness.polite', { true: 3, false: 1 }, { shadow: true }),
        group('politeness@2', 'politeness.warmth', null),
        group('politeness@1', 'politeness.polite', { true: 2 }),
        group('politeness@1', 'politeness.polite', { false: 1 }, { sourceLabel: 'imported' }),
        group('old@1', 'old.verdict', { pass: 1 }),
        group(
          'old@1',
          'old.verdict',
          { fail: 1 },
          { source: 'SCORE_SOURCE_HUMAN', producer: null },
        ),
      ],
    );
    expect(rows.map((r) => [r.version, r.shadow, r.rule?.mode ?? null, r.fields])).toEqual([
      ['old@1', false, null, [{ scoreName: 'old.verdict', field: 'verdict', labels: ['pass'] }]],
      [
        'politeness@1',
        false,
        'live',
        [{ scoreName: 'politeness.polite', field: 'polite', labels: ['true'] }],
      ],
      [
        'politeness@2',
        true,
        'shadow',
        [{ scoreName: 'politeness.polite', field: 'polite', labels: ['false', 'true'] }],
      ],
      ['tone@1', false, 'live', []],
    ]);
  });

  it("counts each day's verdicts of a version's field, a day without any as 0", () => {
    const window = windowOf('2026-05-01', '2026-05-03');
    if (typeof window === 'string') throw new Error(window);
    const on = (day: string) => ({ day: `2026-05-0${day}` });
    const series = seriesOf('politeness@2', 'politeness.polite', window, [
      group('politeness@2', 'politeness.polite', { true: 3, false: 1 }, on('1')),
      group('politeness@1', 'politeness.polite', { true: 5 }, on('2')),
      group('politeness@2', 'politeness.polite', { false: 2 }, on('3')),
      group('politeness@2', 'politeness.polite', { false: 7 }, on('4')),
      group('politeness@2', 'politeness.warmth', null, on('3')),
    ]);
    expect(series.map((d) => [d.count, d.byLabel])).toEqual([
      [4, { true: 3, false: 1 }],
      [0, {}],
      [2, { false: 2 }],
    ]);
    expect(trendOf(series, 'true')).toEqual([0.75, null, 0]);
    expect(trendLabel(series, ['false', 'true'])).toBe('true');
    expect(trendLabel(series, ['fail', 'pass'])).toBe('fail');
    expect(trendLabel(series, [])).toBeNull();
  });

  it('writes an interval and a rate as the page shows them, a missing one as a dash', () => {
    expect(intervalText({ low: -0.04, high: 1 })).toBe('-0.040 – 1.000');
    expect(intervalText({ low: null, high: null })).toBe('–');
    expect(percent(2 / 3)).toBe('66.7 %');
    expect(percent(null)).toBe('–');
  });
});

describe('reading the page', () => {
  it("asks for each version's agreement over the days, and keeps a refusal beside its version", async () => {
    const asked: unknown[] = [];
    const summaries: unknown[] = [];
    const costsAsked: unknown[] = [];
    const api: EvaluatorsApi = {
      rules: async () => [rule('politeness@1', 'live'), rule('politeness@2', 'shadow')],
      summary: async (query) => {
        summaries.push(query);
        return [
          group('politeness@1', 'politeness.polite', { true: 1 }),
          group('politeness@2', 'politeness.polite', { true: 1 }, { shadow: true }),
        ];
      },
      agreement: async (request) => {
        asked.push(request);
        if (request.a.startsWith('politeness@1')) throw new Error('politeness@1 is not deployed');
        return { a: { feedbackType: 'politeness' } } as never;
      },
      costs: async (request) => {
        costsAsked.push(request);
        throw new Error('a reviewer key cannot GET /v1/costs');
      },
      conversation: async () => {
        throw new Error('not read');
      },
      run: async () => {
        throw new Error('not read');
      },
    };
    const window = windowOf('2026-05-01', '2026-05-02');
    if (typeof window === 'string') throw new Error(window);
    const view = await loadEvaluators(api, window, 'reviewers');
    // One summary for every day at once.
    expect(summaries).toEqual([
      { from: window.from, to: window.to, includeShadow: 'true', per: 'day' },
    ]);
    expect(asked).toEqual([
      {
        a: 'politeness@1:polite',
        b: 'reviewers',
        from: window.from,
        to: window.to,
        limit: 20,
      },
      {
        a: 'politeness@2:polite',
        b: 'reviewers',
        from: window.from,
        to: window.to,
        limit: 20,
      },
    ]);
    expect(view.types.map((t) => [t.feedbackType, t.versions.map((v) => v.version)])).toEqual([
      ['politeness', ['politeness@1', 'politeness@2']],
    ]);
    expect(view.types[0]?.versions[0]?.views[0]?.agreement).toEqual({
      refused: 'politeness@1 is not deployed',
    });
    // The spend of the same days, by version and UTC day; a refusal is kept, the rest still shown.
    expect(costsAsked).toEqual([{ by: ['version', 'day'], from: '2026-05-01', to: '2026-05-02' }]);
    expect(view.spend).toEqual({ refused: 'a reviewer key cannot GET /v1/costs' });
  });
});

describe('spend per version and day', () => {
  it('gives each version a slot for every day of the window, zero where nothing was used', () => {
    const window = windowOf('2026-05-01', '2026-05-03');
    if (typeof window === 'string') throw new Error(window);
    const row = (evaluator: string, day: string, costUsd: number, unpricedReports = 0) => ({
      evaluator,
      day,
      workspace: null,
      model: null,
      evaluations: 1,
      reports: 1,
      inputTokens: 10,
      outputTokens: 1,
      costUsd,
      unpricedReports,
    });
    const total = {
      evaluations: 3,
      reports: 3,
      inputTokens: 30,
      outputTokens: 3,
      costUsd: 0.004,
      unpricedReports: 1,
    };
    const spend = spendOf(
      {
        by: ['version', 'day'],
        workspace: 'ws',
        from: '2026-05-01',
        to: '2026-05-03',
        rows: [
          row('tone@2', '2026-05-03', 0.003),
          row('tone@1', '2026-05-01', 0.001),
          row('tone@1', '2026-05-02', 0, 1),
        ],
        total,
      },
      window,
    );
    expect(spend.total).toEqual(total);
    expect(
      spend.versions.map((v) => [v.version, v.days.map((d) => d.costUsd), v.unpricedReports]),
    ).toEqual([
      ['tone@1', [0.001, 0, 0], 1],
      ['tone@2', [0, 0, 0.003], 0],
    ]);
    expect(dollars(0.00301)).toBe('$0.003010');
  });

  it('sums a version’s days exactly, in whole nano-dollars', () => {
    const window = windowOf('2026-05-01', '2026-05-06');
    if (typeof window === 'string') throw new Error(window);
    const days = ['01', '02', '03', '04', '05', '06'].map((d) => `2026-05-${d}`);
    const rows = days.map((day) => ({
      evaluator: 'tone@1',
      day,
      workspace: null,
      model: null,
      evaluations: 1,
      reports: 1,
      inputTokens: 10,
      outputTokens: 1,
      costUsd: 0.0018,
      unpricedReports: 0,
    }));
    const total = {
      evaluations: 6,
      reports: 6,
      inputTokens: 60,
      outputTokens: 6,
      costUsd: 0.0108,
      unpricedReports: 0,
    };
    const spend = spendOf(
      { by: ['version', 'day'], workspace: 'ws', from: days[0], to: days[5], rows, total } as never,
      window,
    );
    expect(rows.reduce((sum, row) => sum + row.costUsd, 0)).not.toBe(0.0108);
    expect(spend.versions[0]?.costUsd).toBe(0.0108);
  });
});
