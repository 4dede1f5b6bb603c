import type {
  Agreement,
  AgreementRequest,
  Conversation,
  Costs,
  CostsRequest,
  EvaluationRules,
  RunWithEvaluations,
  ScoresSummary,
  ScoresSummaryQuery,
} from '../client/index.js';

// What the evaluators page reads and how it arranges it: the rules in force, the score summary
// over the window split per day (which versions gave which labelled fields, and how many of each
// label each day), each version's agreement with the reviewers over the same window, and what
// judging cost per version and day (GET /v1/costs). Pure but for `loadEvaluators`, which asks the
// API through `EvaluatorsApi`; every
// number the page shows is one of these answers', unchanged.

export type Rule = EvaluationRules['rules'][number];
export type SummaryGroup = ScoresSummary['groups'][number];

export interface EvaluatorsApi {
  rules(): Promise<Rule[]>;
  summary(query: ScoresSummaryQuery): Promise<SummaryGroup[]>;
  agreement(request: AgreementRequest): Promise<Agreement>;
  costs(request: CostsRequest): Promise<Costs>;
  conversation(threadId: string): Promise<Conversation>;
  run(runId: string): Promise<RunWithEvaluations>;
}

export const DAY_MS = 86_400_000;
/** The most days one view draws (a bar each). */
export const MAX_DAYS = 92;
/** Disagreements listed per version (all are counted). */
export const DISAGREEMENTS_LISTED = 20;

export interface Window {
  /** ISO instants: from the first day's midnight (UTC) to the midnight after the last day. */
  from: string;
  to: string;
  /** One per day, in order. */
  days: { from: string; to: string }[];
}

/** The days from `first` to `last` (`YYYY-MM-DD`, both included, UTC), or why not. */
export function windowOf(first: string, last: string): Window | string {
  const start = Date.parse(`${first}T00:00:00Z`);
  const end = Date.parse(`${last}T00:00:00Z`);
  if (Number.isNaN(start) || Number.isNaN(end)) return 'Give both days as dates.';
  if (end < start) return 'The last day comes before the first.';
  const count = (end - start) / DAY_MS + 1;
  if (count > MAX_DAYS) return `At most ${MAX_DAYS} days at once (${count} asked for).`;
  const iso = (ms: number) => new Date(ms).toISOString();
  const days = Array.from({ length: count }, (_, i) => ({
    from: iso(start + i * DAY_MS),
    to: iso(start + (i + 1) * DAY_MS),
  }));
  return { from: iso(start), to: iso(start + count * DAY_MS), days };
}

/** `YYYY-MM-DD` of an instant, in UTC. */
export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A version's labelled field as the summary names it (`politeness.polite`) and as a side does. */
export interface VersionField {
  scoreName: string;
  /** The feedback type's field: the score name after its config's name. */
  field: string;
  /** Every label the window's verdicts gave it, in order. */
  labels: string[];
}

export interface VersionRow {
  /** `politeness@2`. */
  version: string;
  rule: Rule | null;
  shadow: boolean;
  fields: VersionField[];
}

const isAutomated = (group: SummaryGroup) =>
  (group.source === 'SCORE_SOURCE_JUDGE' || group.source === 'SCORE_SOURCE_HARNESS') &&
  group.producer !== null &&
  group.sourceLabel === null;

/**
 * Each version a rule names or the window's verdicts came from, with the labelled fields it gave
 * (booleans and categories: the summary's groups with a distribution), in name order.
 */
export function versionsOf(rules: readonly Rule[], groups: readonly SummaryGroup[]): VersionRow[] {
  const rows = new Map<string, VersionRow>();
  const row = (version: string) => {
    let found = rows.get(version);
    if (found === undefined) {
      const rule = rules.find((r) => r.evaluator === version) ?? null;
      found = { version, rule, shadow: rule?.mode === 'shadow', fields: [] };
      rows.set(version, found);
    }
    return found;
  };
  for (const rule of rules) row(rule.evaluator);
  for (const group of groups) {
    if (!isAutomated(group) || group.distribution === null) continue;
    const found = row(group.producer as string);
    if (group.shadow) found.shadow = true;
    let field = found.fields.find((f) => f.scoreName === group.name);
    if (field === undefined) {
      const dot = group.name.indexOf('.');
      field = { scoreName: group.name, field: group.name.slice(dot + 1), labels: [] };
      found.fields.push(field);
    }
    for (const label of Object.keys(group.distribution)) {
      if (!field.labels.includes(label)) field.labels.push(label);
    }
  }
  for (const found of rows.values()) {
    found.fields.sort((x, y) => x.scoreName.localeCompare(y.scoreName));
    for (const field of found.fields) field.labels.sort();
  }
  return [...rows.values()].sort((x, y) => x.version.localeCompare(y.version));
}

/** One day's verdicts of a version's field: how many, and of each label. */
export interface DayCount {
  from: string;
  count: number;
  byLabel: Record<string, number>;
}

/** A version's field day by day, from the summary `per=day` (a day without verdicts counts 0). */
export function seriesOf(
  version: string,
  scoreName: string,
  window: Window,
  daily: readonly SummaryGroup[],
): DayCount[] {
  return window.days.map((day) => {
    const groups = daily.filter(
      (g) =>
        isAutomated(g) &&
        g.producer === version &&
        g.name === scoreName &&
        g.day === day.from.slice(0, 10),
    );
    const byLabel: Record<string, number> = {};
    let count = 0;
    for (const group of groups) {
      count += group.count;
      for (const [label, n] of Object.entries(group.distribution ?? {})) {
        byLabel[label] = (byLabel[label] ?? 0) + n;
      }
    }
    return { from: day.from, count, byLabel };
  });
}

/** Each day's share of `label` among that day's verdicts; null on a day without any. */
export const trendOf = (series: readonly DayCount[], label: string): (number | null)[] =>
  series.map((day) => (day.count === 0 ? null : (day.byLabel[label] ?? 0) / day.count));

/** The label a trend line follows: `true` for booleans, else the window's most given. */
export function trendLabel(series: readonly DayCount[], labels: readonly string[]): string | null {
  if (labels.includes('true')) return 'true';
  let best: string | null = null;
  let most = -1;
  for (const label of labels) {
    const total = series.reduce((sum, day) => sum + (day.byLabel[label] ?? 0), 0);
    if (total > most) {
      best = label;
      most = total;
    }
  }
  return best;
}

/** The summary the page reads: every population's scores over the window, split per day. */
export const summaryRequest = (window: Window): ScoresSummaryQuery => ({
  from: window.from,
  to: window.to,
  includeShadow: 'true',
  per: 'day',
});

/** The agreement request of one version's field against `against`, over the window. */
export const agreementRequest = (
  version: string,
  field: string,
  against: string,
  window: Window,
): AgreementRequest => ({
  a: `${version}:${field}`,
  b: against,
  from: window.from,
  to: window.to,
  limit: DISAGREEMENTS_LISTED,
});

/** A figure as the page writes it: three decimals, or a dash when the data leave it undefined. */
export const figure = (value: number | null | undefined, digits = 3) =>
  value === null || value === undefined ? '–' : value.toFixed(digits);

/** An interval as the page writes it: `0.412 – 0.903`, or a dash when there is none. */
export const intervalText = (interval: { low: number | null; high: number | null }) =>
  interval.low === null || interval.high === null
    ? '–'
    : `${figure(interval.low)} – ${figure(interval.high)}`;

/** A rate as a percentage with one decimal. */
export const percent = (value: number | null | undefined) =>
  value === null || value === undefined ? '–' : `${(value * 100).toFixed(1)} %`;

/** The spend the page reads: per version and UTC day, over the window's days. */
export const costsRequest = (window: Window): CostsRequest => ({
  by: ['version', 'day'],
  from: window.from.slice(0, 10),
  to: (window.days.at(-1)?.from ?? window.from).slice(0, 10),
});

/** One day of a version's spend. */
export interface DaySpend {
  /** `YYYY-MM-DD`. */
  day: string;
  costUsd: number;
  unpricedReports: number;
}

/** A version's spend day by day over the window (a day without usage costs 0). */
export interface VersionSpend {
  version: string;
  days: DaySpend[];
  costUsd: number;
  evaluations: number;
  unpricedReports: number;
}

export interface SpendView {
  versions: VersionSpend[];
  total: Costs['total'];
}

/**
 * Two amounts of USD added in whole nano-dollars, the unit the API's amounts were converted from:
 * added as floats they drift (0.0018 six times is 0.010799999999999999).
 */
export const addUsd = (a: number, b: number): number =>
  (Math.round(a * 1e9) + Math.round(b * 1e9)) / 1e9;

/** The costs route's rows arranged per version, a slot for each of the window's days. */
export function spendOf(costs: Costs, window: Window): SpendView {
  const versions = new Map<string, VersionSpend>();
  for (const row of costs.rows) {
    if (row.evaluator === null || row.day === null) continue;
    let found = versions.get(row.evaluator);
    if (found === undefined) {
      found = {
        version: row.evaluator,
        days: window.days.map((d) => ({
          day: d.from.slice(0, 10),
          costUsd: 0,
          unpricedReports: 0,
        })),
        costUsd: 0,
        evaluations: 0,
        unpricedReports: 0,
      };
      versions.set(row.evaluator, found);
    }
    const day = found.days.find((d) => d.day === row.day);
    if (day) {
      day.costUsd = addUsd(day.costUsd, row.costUsd);
      day.unpricedReports += row.unpricedReports;
    }
    found.costUsd = addUsd(found.costUsd, row.costUsd);
    found.evaluations += row.evaluations;
    found.unpricedReports += row.unpricedReports;
  }
  return {
    versions: [...versions.values()].sort((x, y) => x.version.localeCompare(y.version)),
    total: costs.total,
  };
}

/** Dollars as the page writes them: to the micro-dollar, judging costs fractions of a cent. */
export const dollars = (usd: number) => `$${usd.toFixed(6)}`;

export interface FieldView {
  field: VersionField;
  series: DayCount[];
  /** The comparison with `against`, or the API's refusal's words. */
  agreement: Agreement | { refused: string };
}

export interface VersionView extends VersionRow {
  /** The feedback type, as the agreement names it (else the score config's name). */
  feedbackType: string;
  views: FieldView[];
}

export interface EvaluatorsView {
  window: Window;
  against: string;
  /** What judging cost over the window, or the API's refusal's words. */
  spend: SpendView | { refused: string };
  /** By feedback type, in name order. */
  types: { feedbackType: string; versions: VersionView[] }[];
}

/** Reads and arranges everything the page shows for one window and one `against`. */
export async function loadEvaluators(
  api: EvaluatorsApi,
  window: Window,
  against: string,
): Promise<EvaluatorsView> {
  const refusedBy = (error: unknown) => ({
    refused: error instanceof Error ? error.message : String(error),
  });
  const [rules, daily, spend] = await Promise.all([
    api.rules(),
    api.summary(summaryRequest(window)),
    api.costs(costsRequest(window)).then((costs) => spendOf(costs, window), refusedBy),
  ]);
  const versions = await Promise.all(
    versionsOf(rules, daily).map(async (row): Promise<VersionView> => {
      const views = await Promise.all(
        row.fields.map(async (field): Promise<FieldView> => {
          const agreement = await api
            .agreement(agreementRequest(row.version, field.field, against, window))
            .catch(refusedBy);
          return {
            field,
            series: seriesOf(row.version, field.scoreName, window, daily),
            agreement,
          };
        }),
      );
      const named = views.find((view) => !('refused' in view.agreement))?.agreement as
        | Agreement
        | undefined;
      const feedbackType =
        named?.a.feedbackType ??
        row.fields[0]?.scoreName.split('.')[0] ??
        row.version.split('@')[0];
      return { ...row, feedbackType: feedbackType ?? row.version, views };
    }),
  );
  const types = new Map<string, VersionView[]>();
  for (const version of versions) {
    types.set(version.feedbackType, [...(types.get(version.feedbackType) ?? []), version]);
  }
  return {
    window,
    against,
    spend,
    types: [...types.entries()]
      .sort(([x], [y]) => x.localeCompare(y))
      .map(([feedbackType, list]) => ({ feedbackType, versions: list })),
  };
}
