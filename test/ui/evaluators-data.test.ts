import { describe, expect, it } from 'vitest';
import type { ApiScoreConfig } from '../../src/client/index.js';
import { counted } from '../../src/core/index.js';
import {
  agreementRequest,
  comparisonOf,
  type EvaluatorsApi,
  intervalText,
  labelsMeet,
  loadEvaluators,
  noMatchText,
  noQueueText,
  percent,
  type Rule,
  readChosen,
  reviewedFields,
  type SummaryGroup,
  seriesOf,
  spendOf,
  spentText,
  totalText,
  trendLabel,
  trendOf,
  unmappedText,
  unpricedText,
  versionsOf,
  windowOf,
} from '../../src/ui/evaluators-data.js';
import type { QueueSummary } from '../../src/ui/queue-types.js';

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
  comparable: true,
  count: Object.values(distribution ?? { n: 1 }).reduce((x, y) => x + y, 0),
  mean: null,
  distribution,
  ...more,
});

const queue = (
  queueId: string,
  feedbackType: string,
  targetKinds: QueueSummary['targetKinds'],
  more: Partial<QueueSummary> = {},
): QueueSummary =>
  ({ queueId, feedbackType, targetKinds, routing: [], archived: false, ...more }) as QueueSummary;
const config = (
  name: string,
  dataType: ApiScoreConfig['dataType'],
  categories: string[] = [],
): ApiScoreConfig => ({
  configId: name,
  name,
  isArchived: false,
  dataType,
  minValue: null,
  maxValue: null,
  categories,
  description: null,
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
      queues: async () => [queue('second-look', 'politeness', ['message'])],
      scoreConfigs: async () => [config('politeness.polite', 'BOOLEAN')],
    };
    const window = windowOf('2026-05-01', '2026-05-02');
    if (typeof window === 'string') throw new Error(window);
    const view = await loadEvaluators(api, window, {});
    // One summary for every day at once.
    expect(summaries).toEqual([
      { from: window.from, to: window.to, includeShadow: 'true', per: 'day' },
    ]);
    expect(asked).toEqual([
      {
        a: 'politeness@1:polite',
        b: 'reviewers:politeness.polite',
        from: window.from,
        to: window.to,
        limit: 20,
      },
      {
        a: 'politeness@2:polite',
        b: 'reviewers:politeness.polite',
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

describe('what each version is compared with', () => {
  const lengthRow = versionsOf(
    [rule('answer_length@1', 'live')],
    [group('answer_length@1', 'answer_length.within_limit', { true: 4, false: 2 })],
  )[0];
  if (lengthRow === undefined) throw new Error('no row');
  const withinLimit = lengthRow.fields[0];
  if (withinLimit === undefined) throw new Error('no field');
  const configs = [
    config('review_verdict.verdict', 'CATEGORICAL', ['pass', 'fail']),
    config('review_verdict.note', 'TEXT'),
    config('politeness.polite', 'BOOLEAN'),
    config('answer_length.within_limit', 'BOOLEAN'),
  ];
  const human = (name: string, count: number) =>
    group('', name, null, { source: 'SCORE_SOURCE_HUMAN', producer: null, count });

  it('charts and compares only comparable fields: a free text is neither', () => {
    const rows = versionsOf(
      [rule('json_validity@1', 'live')],
      [
        group('json_validity@1', 'json_validity.valid', { true: 2, false: 1 }),
        group(
          'json_validity@1',
          'json_validity.error',
          { 'Unexpected token a in JSON at position 0': 1 },
          { comparable: false },
        ),
      ],
    );
    expect(rows[0]?.fields.map((f) => f.scoreName)).toEqual(['json_validity.valid']);
  });

  it("is the reviewers' labelled field of the queues reviewing its targets, not its own name", () => {
    const queues = [
      queue('verdicts', 'review_verdict', ['message']),
      queue('turns', 'politeness', ['turn']),
      queue('old', 'politeness', ['message'], { archived: true }),
    ];
    const reviewed = reviewedFields(lengthRow, withinLimit, queues, configs, [
      human('review_verdict.verdict', 6),
    ]);
    expect(reviewed).toEqual([
      {
        side: 'reviewers:review_verdict.verdict',
        scoreName: 'review_verdict.verdict',
        queues: ['verdicts'],
        labels: ['pass', 'fail'],
        verdicts: 6,
        routesThis: false,
      },
    ]);
    expect(comparisonOf(undefined, reviewed)).toEqual({
      against: 'reviewers:review_verdict.verdict',
      mapping: {},
    });
    // The author's choice, with the label mapping she gave, wins and is what is asked.
    const chosen = { against: 'reviewer:grace', mapping: { true: 'pass', false: 'fail' } };
    const comparison = comparisonOf(chosen, reviewed);
    expect(comparison).toBe(chosen);
    const window = windowOf('2026-05-01', '2026-05-02');
    if (typeof window === 'string') throw new Error(window);
    expect(agreementRequest('answer_length@1', 'within_limit', chosen, window)).toEqual({
      a: 'answer_length@1:within_limit',
      b: 'reviewer:grace',
      mapping: { true: 'pass', false: 'fail' },
      from: window.from,
      to: window.to,
      limit: 20,
    });
  });

  it('prefers its own field when reviewers gave it, then a queue routing it, then the most reviewed', () => {
    const queues = [
      queue('politeness', 'politeness', ['message']),
      queue('verdicts', 'review_verdict', ['message']),
      queue('lengths', 'answer_length', ['message']),
    ];
    const order = (groups: SummaryGroup[], routed: QueueSummary[] = queues) =>
      reviewedFields(lengthRow, withinLimit, routed, configs, groups).map((r) => r.side);
    expect(order([human('politeness.polite', 9), human('answer_length.within_limit', 1)])).toEqual([
      'reviewers:answer_length.within_limit',
      'reviewers:politeness.polite',
      'reviewers:review_verdict.verdict',
    ]);
    const routing = [
      {
        kind: 'verdict_equals',
        evaluator: 'answer_length@1',
        field: 'within_limit',
        equals: false,
      },
    ] as QueueSummary['routing'];
    const routed = [queues[0], { ...queues[1], routing }, queues[2]] as QueueSummary[];
    expect(order([human('politeness.polite', 9)], routed)[0]).toBe(
      'reviewers:review_verdict.verdict',
    );
    expect(order([human('politeness.polite', 9)])[0]).toBe('reviewers:politeness.polite');
  });

  it('asks nothing where no queue reviews its targets, and says what would', async () => {
    const asked: unknown[] = [];
    const api = {
      rules: async () => [rule('answer_length@1', 'live')],
      summary: async () => [group('answer_length@1', 'answer_length.within_limit', { true: 1 })],
      agreement: async (request: unknown) => {
        asked.push(request);
        throw new Error('not asked');
      },
      costs: async () => {
        throw new Error('no costs');
      },
      queues: async () => [queue('turns', 'review_verdict', ['turn'])],
      scoreConfigs: async () => configs,
    } as unknown as EvaluatorsApi;
    const window = windowOf('2026-05-01', '2026-05-02');
    if (typeof window === 'string') throw new Error(window);
    const view = await loadEvaluators(api, window, {});
    const field = view.types[0]?.versions[0]?.views[0];
    expect(asked).toEqual([]);
    expect(field?.comparison).toBeNull();
    expect(field?.agreement).toBeNull();
    expect(noQueueText(lengthRow)).toBe(
      'No review queue takes message, so no reviewer judges what answer_length@1 judges: ' +
        'add a queue for them (reviewQueues in the config, or npx evalflow queues add), ' +
        'or pick another side to compare with.',
    );
  });

  it('says, counted, why a comparison matched nothing and what routes targets to reviewers', () => {
    const agreement = {
      a: { verdicts: 1 },
      b: { side: 'reviewers:review_verdict.verdict', verdicts: 0 },
    } as never;
    expect(noMatchText(lengthRow, agreement, { queues: ['verdicts'] } as never)).toBe(
      'No target has a verdict from both sides in these days: answer_length@1 gave 1 verdict, ' +
        'reviewers:review_verdict.verdict 0 verdicts. A routing rule on queue verdicts ' +
        '(verdict_equals or confidence_below on answer_length@1, completed_runs) puts its ' +
        'targets before the reviewers.',
    );
  });

  it('finds sides whose labels never meet, and says to map them', () => {
    const label = (name: string, countA: number, countB: number) => ({
      label: name,
      countA,
      countB,
    });
    const agreement = (perLabel: ReturnType<typeof label>[]) =>
      ({
        a: { side: 'answer_length@1:within_limit' },
        b: { side: 'reviewers:review_verdict.verdict' },
        categorical: { perLabel },
      }) as never;
    const apart = agreement([
      label('fail', 0, 2),
      label('false', 1, 0),
      label('pass', 0, 4),
      label('true', 5, 0),
    ]);
    expect(labelsMeet(apart)).toBe(false);
    expect(unmappedText(apart)).toBe(
      'answer_length@1:within_limit gives false, true and reviewers:review_verdict.verdict ' +
        'fail, pass: no label in common, so no verdict can agree. Say above which of its ' +
        'labels each of these means.',
    );
    expect(labelsMeet(agreement([label('fail', 1, 2), label('pass', 5, 4)]))).toBe(true);
  });

  it('keeps the chosen comparisons as the page saved them, leaving out what is not one', () => {
    const saved = {
      'answer_length@1:within_limit': { against: 'reviewers', mapping: { true: 'pass' } },
    };
    expect(readChosen(JSON.stringify(saved))).toEqual(saved);
    expect(readChosen(null)).toEqual({});
    expect(readChosen('not json')).toEqual({});
    expect(
      readChosen(
        JSON.stringify({ a: { against: '', mapping: {} }, b: { against: 'x', mapping: { y: 3 } } }),
      ),
    ).toEqual({ b: { against: 'x', mapping: {} } });
  });
});

describe('money and counts as the page writes them', () => {
  it('counts in the singular for one, in the plural otherwise', () => {
    expect([0, 1, 2].map((n) => counted(n, 'report'))).toEqual([
      '0 reports',
      '1 report',
      '2 reports',
    ]);
    expect(counted(1, 'category', 'categories')).toBe('1 category');
    expect(counted(3, 'category', 'categories')).toBe('3 categories');
    expect(unpricedText(1)).toBe('1 report without a price');
    expect(unpricedText(2)).toBe('2 reports without a price');
  });

  it('writes what was spent to the last nano-dollar it holds, and no $0 for what had no price', () => {
    const spend = (costUsd: number, reports: number, unpricedReports: number) => ({
      costUsd,
      reports,
      unpricedReports,
    });
    expect(spentText(spend(0.000004, 2, 0))).toBe('$0.000004');
    expect(spentText(spend(0.0018, 2, 1))).toBe('$0.0018');
    expect(spentText(spend(12.5, 2, 0))).toBe('$12.50');
    expect(spentText(spend(0, 1, 1))).toBe('no price known');
    const total = (costUsd: number, reports: number, unpricedReports: number) =>
      ({
        ...spend(costUsd, reports, unpricedReports),
        evaluations: reports,
        inputTokens: 0,
        outputTokens: 0,
      }) as never;
    expect(totalText(total(0.000004, 3, 1))).toBe('$0.000004 in all, and 1 report without a price');
    expect(totalText(total(0.0108, 6, 0))).toBe('$0.0108 in all');
    expect(totalText(total(0, 1, 1))).toBe('no price known: 1 report without a price');
  });
});
