import type { CategoricalAgreement } from '../agreement/index.js';
import {
  type CommandOf,
  type EvaluationRule,
  judgeVersionId,
  type PromotionEvidence,
  parseEvaluatorId,
  rulesInForce,
  type StoredJudgeVersion,
  type TargetKind,
  type VersionAgreement,
} from '../core/index.js';
import type { EntityReads, EventLog, RuleReads } from '../store/index.js';
import { judgeFieldOf, readBacktest } from './backtest.js';
import { type AgreementReport, compareSides } from './compare.js';
import { invalidQuery } from './errors.js';
import { type RecordedJudges, recordedJudges } from './recorded-judges.js';
import { type AgreementApp, notDeployed } from './sides.js';

// A promotion's evidence, measured when it is asked for: the promoted version's agreement with
// what it is checked against (reviewers, say), and the replaced version's on the same side for
// comparison; or, for a tuned version, its backtest: both versions on its held-out targets
// alone. And the command that switches the rules in one event carrying it. The core decides
// whether the evidence meets the thresholds (docs/specification.md#evaluator-verdicts).

/** What the app knows that a promotion needs besides the sides: its default rules. */
export interface PromotionApp extends AgreementApp {
  readonly rules: readonly EvaluationRule[];
}

export interface PromotionRequest {
  readonly workspaceId: string;
  /** The version to promote, `name@version`. */
  readonly evaluator: string;
  /** The version it replaces, of the same feedback type; none: it goes live beside the others. */
  readonly replacing?: string | null;
  /** What its verdicts are checked against, as a side is written: `reviewers`, `users:type.field`. */
  readonly against: string;
  /** The promoted version's field compared (default: its type's only comparable field). */
  readonly field?: string;
  readonly mapping?: Readonly<Record<string, string>>;
  readonly from?: string;
  readonly to?: string;
  readonly targetKind?: TargetKind;
  readonly minKappa: number;
  readonly minMatched: number;
  readonly force?: boolean;
  /**
   * Take the evidence from the tuned version's backtest: its held-out targets alone, the version
   * it was tuned from (which it then replaces) judged on the same ones. No slice applies.
   */
  readonly backtest?: boolean;
}

export interface PreparedPromotion {
  readonly command: CommandOf<'promote_evaluator'>;
}

type Request = PromotionRequest & { readonly replacing: string | null };
type Store = EntityReads & EventLog & RuleReads & RecordedJudges;

const agreementOf = (compared: string, figures: CategoricalAgreement): VersionAgreement => {
  const interval = figures.kappaInterval;
  return {
    compared,
    matched: figures.matched,
    kappa: figures.kappa.value,
    interval:
      interval.low === null
        ? null
        : { low: interval.low, high: interval.high, level: interval.level },
    raw_agreement: figures.rawAgreement.value,
  };
};

/**
 * Measures the evidence now and writes the command that promotes on it.
 *
 * @throws AgreementQueryError when a version is not deployed, the sides cannot be compared, or
 * the field is numeric (a promotion is decided on κ); for a backtest, when the version is not a
 * recorded one, replaces another than its base, or a slice is given.
 */
export async function preparePromotion(
  store: Store,
  app: PromotionApp,
  promotion: PromotionRequest,
): Promise<PreparedPromotion> {
  const { evaluator, workspaceId } = promotion;
  const replacing =
    promotion.backtest === true
      ? await backtestReplacing(store, app, promotion)
      : (promotion.replacing ?? null);
  const request = { ...promotion, replacing };
  const versions = replacing === null ? [evaluator] : [evaluator, replacing];
  // A version tuned as data (recorded in the workspace) is promoted like one declared in code.
  const recorded = await recordedJudges(store, app, workspaceId, versions);
  for (const id of versions) {
    if (app.evaluators.get(parseEvaluatorId(id)) === undefined && !recorded.has(id)) {
      throw notDeployed(id);
    }
  }
  const tuned = recorded.get(evaluator);
  const evidence =
    promotion.backtest === true && tuned !== undefined
      ? await backtestEvidence(store, app, request, tuned)
      : await agreementEvidence(store, app, request);
  const inForce = rulesInForce(app.rules, await store.rules(workspaceId));
  const settingsOf = (id: string) => {
    const rule = inForce.find((candidate) => candidate.evaluator === id);
    if (rule !== undefined) {
      return { targets: rule.targets, sample_rate: rule.sample_rate, filter: rule.filter };
    }
    const judges = app.evaluators.targetsOf(id) ?? recorded.get(id)?.targets ?? [];
    return { targets: [...judges], sample_rate: 1, filter: {} };
  };
  return {
    command: {
      type: 'promote_evaluator',
      evaluator,
      replacing,
      // The promoted version takes over what the replaced one judged; alone, it keeps its own.
      rule: settingsOf(replacing ?? evaluator),
      replaced_rule: replacing === null ? null : settingsOf(replacing),
      min_kappa: promotion.minKappa,
      min_matched: promotion.minMatched,
      evidence,
      force: promotion.force ?? false,
    },
  };
}

/** The version's agreement over every target both sides judged, the replaced one's beside it. */
async function agreementEvidence(
  store: Store,
  app: PromotionApp,
  request: Request,
): Promise<PromotionEvidence> {
  const field = request.field === undefined ? '' : `:${request.field}`;
  const compare = (version: string, against: string) =>
    compareSides(store, app, {
      workspaceId: request.workspaceId,
      a: `${version}${field}`,
      b: against,
      limit: 0,
      ...(request.mapping ? { mapping: request.mapping } : {}),
      ...(request.from ? { from: request.from } : {}),
      ...(request.to ? { to: request.to } : {}),
      ...(request.targetKind ? { targetKind: request.targetKind } : {}),
    });
  const report = await compare(request.evaluator, request.against);
  // The replaced version against the very side the promoted one was read against.
  const replaced =
    request.replacing === null ? null : await compare(request.replacing, report.b.side);
  return {
    ...categoricalAgreementOf(report),
    against: report.b.side,
    mapping: { ...(request.mapping ?? {}) },
    as_of_seq: report.asOfSeq,
    replaced: replaced === null ? null : categoricalAgreementOf(replaced),
  };
}

function categoricalAgreementOf(report: AgreementReport): VersionAgreement {
  if (report.categorical === null) {
    throw invalidQuery(
      `${report.a.side} is numeric: a promotion is decided on Cohen's κ, so compare a boolean or categorical field`,
    );
  }
  return agreementOf(report.a.side, report.categorical);
}

/** Both versions on the tuned one's held-out targets, paired: its backtest. */
async function backtestEvidence(
  store: Store,
  app: PromotionApp,
  request: Request,
  version: StoredJudgeVersion,
): Promise<PromotionEvidence> {
  const base = judgeVersionId({ judge: version.judge, version: version.tunedFrom });
  if (request.replacing !== base) {
    throw invalidQuery(
      `a backtest compares ${request.evaluator} with ${base}, the version it was tuned from: it replaces that one, not ${request.replacing ?? 'none'}`,
    );
  }
  const sliced = (['from', 'to', 'targetKind'] as const).filter((key) => request[key]);
  if (sliced.length > 0) {
    throw invalidQuery(
      `a backtest reads the version's held-out targets, so ${sliced.join(', ')} cannot slice it`,
    );
  }
  const field = request.field ?? judgeFieldOf(request.against);
  const asOfSeq = await store.head(request.workspaceId);
  const statistics = await readBacktest(store, app, {
    workspaceId: request.workspaceId,
    version,
    against: request.against,
    field,
    ...(request.mapping ? { mapping: request.mapping } : {}),
  });
  const { difference, interval } = statistics.kappaDifference;
  return {
    ...agreementOf(`${request.evaluator}:${field}`, statistics.new),
    against: request.against,
    mapping: { ...(request.mapping ?? {}) },
    as_of_seq: asOfSeq,
    replaced: agreementOf(`${base}:${field}`, statistics.old),
    backtest: {
      held_out: statistics.targets,
      kappa_difference: difference.value,
      difference_interval:
        interval.low === null
          ? null
          : { low: interval.low, high: interval.high, level: interval.level },
      mcnemar_p: statistics.mcnemar.pValue,
    },
  };
}

/** The version a backtest's promotion replaces: the one given, else the tuned version's base. */
async function backtestReplacing(
  store: RecordedJudges,
  app: PromotionApp,
  { workspaceId, evaluator, replacing }: PromotionRequest,
): Promise<string> {
  const tuned = (await recordedJudges(store, app, workspaceId, [evaluator])).get(evaluator);
  if (tuned === undefined) throw notBacktested(app, evaluator);
  return replacing ?? judgeVersionId({ judge: tuned.judge, version: tuned.tunedFrom });
}

const notBacktested = (app: PromotionApp, evaluator: string) =>
  app.evaluators.get(parseEvaluatorId(evaluator)) === undefined
    ? notDeployed(evaluator)
    : invalidQuery(
        `${evaluator} is declared in code, so it has no held-out targets to backtest on: promote it on its agreement`,
      );
