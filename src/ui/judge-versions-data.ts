import type {
  Agreement,
  AgreementRequest,
  JudgeBacktest,
  JudgeBacktestQuery,
  JudgeVersions,
  RecordedJudgeVersion,
} from '../client/index.js';
import { shortfallsOf } from '../core/promotion-gate.js';
import { type EvaluatorsView, modeText, type Rule, type Window } from './evaluators-data.js';
import { type Refused, refusedBy } from './refused.js';

// What the evaluators page shows of LLM judges' versions (GET /v1/judge-versions): those declared
// in code and those tuned from the reviewers' verdicts, each with its κ against the reviewers as
// of the end of each day of the window (every verdict given until then, so a review given days
// after the judge's verdict still meets it), and, for a tuned one, its examples with their
// provenance and its backtest against the version it was tuned from. What an admin runs to put
// a candidate in shadow or promote it on its backtest is written out: the page signs reviewers
// in, and only an admin sets rules. Pure but for `loadJudgeVersions`.

export type JudgeVersion = JudgeVersions['versions'][number];

export interface JudgeVersionsApi {
  judgeVersions(): Promise<JudgeVersion[]>;
  judgeVersion(id: string): Promise<RecordedJudgeVersion>;
  backtest(id: string, query: JudgeBacktestQuery): Promise<JudgeBacktest>;
  agreement(request: AgreementRequest): Promise<Agreement>;
}

/** What a judge version's verdicts are checked against: the reviewers' field, as the page compares. */
export interface JudgeComparison {
  /** The judge's field: `passed`. */
  field: string;
  /** `reviewers:review.passed`. */
  against: string;
  mapping: Record<string, string>;
}

/** κ against the reviewers over every verdict given until the end of `day`. */
export interface KappaDay {
  /** `YYYY-MM-DD`. */
  day: string;
  kappa: number | null;
  matched: number;
}

export interface RecordedView {
  detail: RecordedJudgeVersion;
  /** Null when there is no reviewers' field to backtest against. */
  backtest: JudgeBacktest | Refused | null;
}

export interface JudgeVersionView {
  version: JudgeVersion;
  /** Its rule as the rules table says it: `live`, `shadow`, `no rule`, `live, disabled`. */
  mode: string;
  comparison: JudgeComparison | null;
  /** What a shadow rule of it judges: its base's rule's kinds (the traffic beside it); else null. */
  shadowTargets: Rule['targets'] | null;
  kappaByDay: KappaDay[];
  /** A tuned version's examples and backtest; null for one declared in code. */
  recorded: RecordedView | Refused | null;
}

/** The page's row of a version, by its id, among every feedback type's. */
const rowOf = (view: EvaluatorsView, id: string | null) =>
  view.types.flatMap((type) => type.versions).find((row) => row.version === id);

/**
 * What `version` is compared with: its own row's first reviewers' comparison, else the version
 * it was tuned from's (a candidate that has judged nothing yet answers with the same fields).
 */
export function judgeComparison(
  view: EvaluatorsView,
  version: JudgeVersion,
): JudgeComparison | null {
  for (const id of [version.id, version.tunedFrom]) {
    const compared = rowOf(view, id)?.views.find((field) =>
      field.comparison?.against.startsWith('reviewers:'),
    );
    if (compared?.comparison) {
      const { against, mapping } = compared.comparison;
      return { field: compared.field.field, against, mapping };
    }
  }
  return null;
}

/** The agreement request of κ as of the end of `day`: every verdict given before then. */
export const asOfRequest = (
  id: string,
  comparison: JudgeComparison,
  dayEnd: string,
): AgreementRequest => ({
  a: `${id}:${comparison.field}`,
  b: comparison.against,
  ...(Object.keys(comparison.mapping).length > 0 ? { mapping: comparison.mapping } : {}),
  to: dayEnd,
  limit: 0,
});

async function kappaByDay(
  api: JudgeVersionsApi,
  id: string,
  comparison: JudgeComparison,
  window: Window,
): Promise<KappaDay[]> {
  return Promise.all(
    window.days.map(async (day): Promise<KappaDay> => {
      const figures = await api.agreement(asOfRequest(id, comparison, day.to)).then(
        (agreement) => agreement.categorical,
        () => null,
      );
      return {
        day: day.from.slice(0, 10),
        kappa: figures?.kappa.value ?? null,
        matched: figures?.matched ?? 0,
      };
    }),
  );
}

async function recordedView(
  api: JudgeVersionsApi,
  id: string,
  comparison: JudgeComparison | null,
): Promise<RecordedView | Refused> {
  const query = comparison && { against: comparison.against, field: comparison.field };
  const [detail, backtest] = await Promise.all([
    api.judgeVersion(id),
    query === null ? null : api.backtest(id, query).catch(refusedBy),
  ]);
  return { detail, backtest };
}

/** Every judge version the API lists, with what the page shows of it over `view`'s window. */
export async function loadJudgeVersions(
  api: JudgeVersionsApi,
  view: EvaluatorsView,
): Promise<JudgeVersionView[]> {
  const versions = await api.judgeVersions();
  return Promise.all(
    versions.map(async (version): Promise<JudgeVersionView> => {
      const comparison = judgeComparison(view, version);
      const row = rowOf(view, version.id);
      const [days, recorded] = await Promise.all([
        comparison === null ? [] : kappaByDay(api, version.id, comparison, view.window),
        version.source === 'recorded'
          ? recordedView(api, version.id, comparison).catch(refusedBy)
          : null,
      ]);
      return {
        version,
        mode: row ? modeText(row.rule, row.shadow) : 'no rule',
        comparison,
        shadowTargets: rowOf(view, version.tunedFrom)?.rule?.targets ?? null,
        kappaByDay: days,
        recorded,
      };
    }),
  );
}

/**
 * The backtest's verdict on the gate, as the core decides it with the thresholds the page
 * proposes: its held-out targets enough for an interval, κ gained, κ and the targets compared
 * at least the gate's.
 */
export function backtestReading(backtest: JudgeBacktest, gate = PROPOSED_GATE): string {
  const { compared, targets, new: candidate, kappaDifference } = backtest.statistics;
  if (compared === 0) {
    return `None of its ${targets} held-out targets has all three verdicts yet: judge them with a backfill first.`;
  }
  const { low, high } = candidate.kappaInterval;
  const short = shortfallsOf(
    {
      kappa: candidate.kappa.value,
      matched: compared,
      interval: low === null || high === null ? null : { low, high },
      replaced: { compared: backtest.base },
      backtest: { kappa_difference: kappaDifference.difference.value },
    },
    { min_kappa: gate.minKappa, min_matched: gate.minMatched },
  );
  return short.length === 0
    ? `It gains over ${backtest.base} on ${compared} held-out targets: it can be promoted on its backtest.`
    : `A promotion on it (κ at least ${gate.minKappa}, ${gate.minMatched} compared targets) would be refused: ${short.join('; ')}.`;
}

/** The promotion gate's thresholds the page offers: κ, and the held-out targets that give an interval. */
export interface PromotionGate {
  minKappa: number;
  minMatched: number;
}

/** What the page proposes: κ of 0.6, and the 10 compared targets an interval needs (the gate's own floor). */
export const PROPOSED_GATE: PromotionGate = { minKappa: 0.6, minMatched: 10 };

/** What an admin's page does with a candidate: the requests the commands it shows others make. */
export interface JudgeActionsApi {
  /** `rules set <id> --mode shadow`, on the kinds given. */
  shadow(id: string, targets: Rule['targets']): Promise<unknown>;
  /** `rules promote <id> --backtest …`: the promotion's event, or a refusal with its figures. */
  promoteOnBacktest(id: string, comparison: JudgeComparison, gate: PromotionGate): Promise<unknown>;
}

const inWorkspace = (workspace: string | null) =>
  workspace === null ? '' : ` --workspace ${workspace}`;

/** What an admin runs to judge live traffic with a candidate beside its base. */
export const shadowCommand = (id: string, workspace: string | null) =>
  `npx evalflow rules set ${id} --mode shadow${inWorkspace(workspace)}`;

/** What an admin runs to promote a candidate on its backtest, over its base. */
export const promoteCommand = (
  id: string,
  comparison: JudgeComparison,
  workspace: string | null,
  gate: PromotionGate = PROPOSED_GATE,
) =>
  `npx evalflow rules promote ${id} --backtest --against ${comparison.against} --field ${comparison.field}` +
  Object.entries(comparison.mapping)
    .map(([from, to]) => ` --map ${from}=${to}`)
    .join('') +
  ` --min-kappa ${gate.minKappa} --min-matched ${gate.minMatched}${inWorkspace(workspace)}`;
