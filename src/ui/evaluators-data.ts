import type {
  Agreement,
  AgreementRequest,
  ApiScoreConfig,
  Conversation,
  Costs,
  CostsRequest,
  EvaluationRules,
  RunWithEvaluations,
  ScoresSummary,
  ScoresSummaryQuery,
} from '../client/index.js';
import { nanosOf, usdExactText, usdOf } from '../core/money.js';
import { counted } from '../core/plurals.js';
import type { QueueSummary } from './queue-types.js';
import { refusedBy } from './refused.js';

// What the evaluators page reads and how it arranges it: the rules in force, the score summary
// over the window split per day (which versions gave which labelled fields, and how many of each
// label each day), each version's agreement over the same window with the reviewers' field of
// the queues that review its targets (or the side the author chose), and what judging cost per
// version and day (GET /v1/costs). Pure but for `loadEvaluators`, which asks the API through
// `EvaluatorsApi`; every number the page shows is one of these answers', unchanged.

export type Rule = EvaluationRules['rules'][number];
export type SummaryGroup = ScoresSummary['groups'][number];

export interface EvaluatorsApi {
  rules(): Promise<Rule[]>;
  summary(query: ScoresSummaryQuery): Promise<SummaryGroup[]>;
  agreement(request: AgreementRequest): Promise<Agreement>;
  costs(request: CostsRequest): Promise<Costs>;
  conversation(threadId: string): Promise<Conversation>;
  run(runId: string): Promise<RunWithEvaluations>;
  queues(): Promise<QueueSummary[]>;
  scoreConfigs(): Promise<ApiScoreConfig[]>;
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
 * (booleans and categories: the summary's comparable groups with a distribution; a free text is
 * neither charted nor compared), in name order.
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
    if (!isAutomated(group) || !group.comparable || group.distribution === null) continue;
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

/** What a version's field is compared with: a side as the agreement writes it, and a mapping. */
export interface Comparison {
  /** `reviewers:review_verdict.verdict`, `reviewer:grace`, `politeness@1:polite`. */
  against: string;
  /** Renames labels on both sides before comparing: `{ true: 'pass', false: 'fail' }`. */
  mapping: Record<string, string>;
}

/** A reviewers' field a version can be compared with: of the queues that review its targets. */
export interface ReviewedField {
  /** `reviewers:review_verdict.verdict`. */
  side: string;
  /** The score name: `review_verdict.verdict`. */
  scoreName: string;
  /** The queues reviewing the version's targets on this field. */
  queues: string[];
  /** Its labels: a category's choices, or `false` and `true`. */
  labels: string[];
  /** Reviewers' verdicts on it over the window. */
  verdicts: number;
  /** Whether one of its queues routes this version's evaluator's verdicts to reviewers. */
  routesThis: boolean;
}

/** A field the page draws and compares as labels: a boolean or a category. */
const labelsOf = (config: ApiScoreConfig): string[] | null =>
  config.dataType === 'BOOLEAN'
    ? ['false', 'true']
    : config.dataType === 'CATEGORICAL'
      ? [...config.categories]
      : null;

/** What a queue's routing names: an evaluator version (`name@version`), when a rule does. */
const routedEvaluators = (queue: QueueSummary): string[] =>
  queue.routing.flatMap((rule) => ('evaluator' in rule ? [rule.evaluator] : []));

/**
 * The reviewers' labelled fields `row` can be compared with: the fields of each live queue that
 * takes a kind of target its rule judges (any kind, without a rule), with what the window holds
 * of them, best first: the version's own field when reviewers gave it, then a queue routing this
 * evaluator's verdicts, then the most reviewed, then by name.
 */
export function reviewedFields(
  row: VersionRow,
  field: VersionField,
  queues: readonly QueueSummary[],
  configs: readonly ApiScoreConfig[],
  groups: readonly SummaryGroup[],
): ReviewedField[] {
  const found = new Map<string, ReviewedField>();
  const evaluatorName = row.version.split('@')[0];
  for (const queue of queues) {
    if (queue.archived) continue;
    const kinds = row.rule?.targets;
    if (kinds && !queue.targetKinds.some((kind) => kinds.includes(kind))) continue;
    const routes = routedEvaluators(queue).some((e) => e.split('@')[0] === evaluatorName);
    for (const config of configs) {
      const labels = labelsOf(config);
      if (labels === null || !config.name.startsWith(`${queue.feedbackType}.`)) continue;
      const side = `reviewers:${config.name}`;
      const known = found.get(side);
      if (known) {
        known.queues.push(queue.queueId);
        known.routesThis ||= routes;
        continue;
      }
      const verdicts = groups
        .filter((g) => g.source === 'SCORE_SOURCE_HUMAN' && g.name === config.name)
        .reduce((sum, g) => sum + g.count, 0);
      found.set(side, {
        side,
        scoreName: config.name,
        queues: [queue.queueId],
        labels,
        verdicts,
        routesThis: routes,
      });
    }
  }
  const rank = (r: ReviewedField) => [
    r.scoreName === field.scoreName && r.verdicts > 0 ? 0 : 1,
    r.routesThis ? 0 : 1,
    -r.verdicts,
  ];
  return [...found.values()].sort((x, y) => {
    const [a, b] = [rank(x), rank(y)];
    for (let i = 0; i < a.length; i += 1) {
      if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
    }
    return x.side.localeCompare(y.side);
  });
}

/** The key a version's field's chosen comparison is saved under. */
export const comparisonKey = (version: string, field: string) => `${version}:${field}`;

/** The comparisons an author chose, by `comparisonKey`. */
export type ChosenComparisons = Readonly<Record<string, Comparison>>;

/** Where the page keeps the comparisons an author chose (the browser's local storage). */
export const CHOSEN_KEY = 'evalflow.evaluators.comparisons';

/** The comparisons kept as `text`; anything not a comparison is left out, nothing throws. */
export function readChosen(text: string | null): Record<string, Comparison> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text ?? '{}');
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null) return {};
  const chosen: Record<string, Comparison> = {};
  for (const [key, value] of Object.entries(parsed)) {
    const { against, mapping } = (value ?? {}) as Partial<Comparison>;
    if (typeof against !== 'string' || against === '') continue;
    if (typeof mapping !== 'object' || mapping === null) continue;
    const labels = Object.entries(mapping).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '',
    );
    chosen[key] = { against, mapping: Object.fromEntries(labels) };
  }
  return chosen;
}

/** What a field is compared with: the author's choice, else the best reviewed field, else none. */
export const comparisonOf = (
  chosen: Comparison | undefined,
  reviewed: readonly ReviewedField[],
): Comparison | null => chosen ?? (reviewed[0] ? { against: reviewed[0].side, mapping: {} } : null);

/** The agreement request of one version's field against a comparison, over the window. */
export const agreementRequest = (
  version: string,
  field: string,
  comparison: Comparison,
  window: Window,
): AgreementRequest => ({
  a: `${version}:${field}`,
  b: comparison.against,
  ...(Object.keys(comparison.mapping).length > 0 ? { mapping: comparison.mapping } : {}),
  from: window.from,
  to: window.to,
  limit: DISAGREEMENTS_LISTED,
});

/** Whether the two sides' labels have one in common: if not, no verdict can agree (map them). */
export const labelsMeet = (agreement: Agreement): boolean =>
  agreement.categorical?.perLabel.some((label) => label.countA > 0 && label.countB > 0) ?? true;

/** Why two sides whose labels never meet are not drawn, and what makes them comparable. */
export function unmappedText(agreement: Agreement): string {
  const given = (side: 'A' | 'B') =>
    (agreement.categorical?.perLabel ?? [])
      .filter((label) => (side === 'A' ? label.countA : label.countB) > 0)
      .map((label) => label.label)
      .sort()
      .join(', ');
  return (
    `${agreement.a.side} gives ${given('A')} and ${agreement.b.side} ${given('B')}: no label in ` +
    'common, so no verdict can agree. Say above which of its labels each of these means.'
  );
}

/** Why a version has nothing to compare with, and what would give it something. */
export function noQueueText(row: VersionRow): string {
  const kinds = row.rule?.targets.join(' or ') ?? 'its targets';
  return (
    `No review queue takes ${kinds}, so no reviewer judges what ${row.version} judges: ` +
    'add a queue for them (reviewQueues in the config, or npx evalflow queues add), ' +
    'or pick another side to compare with.'
  );
}

/**
 * Why a comparison matched no target, and what would: reviewers' verdicts on the targets the
 * version judged, which a queue's routing rule (or disagreements sent to it) puts before them.
 */
export function noMatchText(
  row: VersionRow,
  agreement: Agreement,
  reviewed?: ReviewedField,
): string {
  const both =
    `No target has a verdict from both sides in these days: ${row.version} gave ` +
    `${counted(agreement.a.verdicts, 'verdict')}, ${agreement.b.side} ` +
    `${counted(agreement.b.verdicts, 'verdict')}.`;
  const queue = reviewed?.queues[0];
  return queue === undefined
    ? `${both} Reviewers' verdicts on the targets ${row.version} judged would give one.`
    : `${both} A routing rule on queue ${queue} (verdict_equals or confidence_below on ` +
        `${row.version}, completed_runs) puts its targets before the reviewers.`;
}

/** A version's rule as the page says it: `live`, `shadow`, `no rule`, `live, disabled`. */
export const modeText = (rule: Rule | null, shadow: boolean): string =>
  rule === null
    ? 'no rule'
    : !rule.enabled
      ? `${rule.mode}, disabled`
      : shadow
        ? 'shadow'
        : rule.mode;

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
  reports: number;
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
export const addUsd = (a: number, b: number): number => usdOf(nanosOf(a) + nanosOf(b));

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
        reports: 0,
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
    found.reports += row.reports;
    found.unpricedReports += row.unpricedReports;
  }
  return {
    versions: [...versions.values()].sort((x, y) => x.version.localeCompare(y.version)),
    total: costs.total,
  };
}

/** What some usage cost: to the last nano-dollar it holds, or "no price known" when none had one. */
export const spentText = (spend: { costUsd: number; reports: number; unpricedReports: number }) =>
  spend.reports > 0 && spend.unpricedReports === spend.reports
    ? 'no price known'
    : usdExactText(spend.costUsd);

/** Reports no price was known for, counted: `1 report without a price`. */
export const unpricedText = (reports: number) => `${counted(reports, 'report')} without a price`;

/** The spend's total as its heading says it: `$0.0018 in all, and 1 report without a price`. */
export function totalText(total: Costs['total']): string {
  const unpriced = total.unpricedReports;
  if (total.reports > 0 && unpriced === total.reports) {
    return `no price known: ${unpricedText(unpriced)}`;
  }
  const spent = `${usdExactText(total.costUsd)} in all`;
  return unpriced === 0 ? spent : `${spent}, and ${unpricedText(unpriced)}`;
}

export interface FieldView {
  field: VersionField;
  series: DayCount[];
  /** The reviewers' fields it can be compared with, best first. */
  reviewed: ReviewedField[];
  /** What it is compared with: the author's choice, else the best reviewed field; null: none. */
  comparison: Comparison | null;
  /** The comparison, or the API's refusal's words; null when there is nothing to compare with. */
  agreement: Agreement | { refused: string } | null;
}

export interface VersionView extends VersionRow {
  /** The feedback type, as the agreement names it (else the score config's name). */
  feedbackType: string;
  views: FieldView[];
}

export interface EvaluatorsView {
  window: Window;
  /** What judging cost over the window, or the API's refusal's words. */
  spend: SpendView | { refused: string };
  /** By feedback type, in name order. */
  types: { feedbackType: string; versions: VersionView[] }[];
}

/** Reads and arranges everything the page shows for one window and the comparisons chosen. */
export async function loadEvaluators(
  api: EvaluatorsApi,
  window: Window,
  chosen: ChosenComparisons,
): Promise<EvaluatorsView> {
  const [rules, daily, spend, queues, configs] = await Promise.all([
    api.rules(),
    api.summary(summaryRequest(window)),
    api.costs(costsRequest(window)).then((costs) => spendOf(costs, window), refusedBy),
    api.queues(),
    api.scoreConfigs(),
  ]);
  const versions = await Promise.all(
    versionsOf(rules, daily).map(async (row): Promise<VersionView> => {
      const views = await Promise.all(
        row.fields.map(async (field): Promise<FieldView> => {
          const reviewed = reviewedFields(row, field, queues, configs, daily);
          const comparison = comparisonOf(
            chosen[comparisonKey(row.version, field.field)],
            reviewed,
          );
          const agreement =
            comparison === null
              ? null
              : await api
                  .agreement(agreementRequest(row.version, field.field, comparison, window))
                  .catch(refusedBy);
          return {
            field,
            series: seriesOf(row.version, field.scoreName, window, daily),
            reviewed,
            comparison,
            agreement,
          };
        }),
      );
      const named = views.find((view) => view.agreement && !('refused' in view.agreement))
        ?.agreement as Agreement | undefined;
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
    spend,
    types: [...types.entries()]
      .sort(([x], [y]) => x.localeCompare(y))
      .map(([feedbackType, list]) => ({ feedbackType, versions: list })),
  };
}
