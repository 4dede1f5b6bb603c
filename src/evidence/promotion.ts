import {
  type CommandOf,
  type EvaluationRule,
  type PromotionEvidence,
  parseEvaluatorId,
  rulesInForce,
  type TargetKind,
  type VersionAgreement,
} from '../core/index.js';
import type { EntityReads, EventLog, RuleReads } from '../store/index.js';
import { type AgreementReport, compareSides } from './compare.js';
import { invalidQuery } from './errors.js';
import { type RecordedJudges, recordedJudges } from './recorded-judges.js';
import { type AgreementApp, notDeployed } from './sides.js';

// A promotion's evidence, measured when it is asked for: the promoted version's agreement with
// what it is checked against (reviewers, say), and the replaced version's on the same side for
// comparison; and the command that switches the rules in one event carrying it. The core
// decides whether the evidence meets the thresholds (docs/specification.md#evaluator-verdicts).

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
}

export interface PreparedPromotion {
  readonly command: CommandOf<'promote_evaluator'>;
  /** The comparison the evidence is taken from. */
  readonly report: AgreementReport;
}

const agreementOf = (report: AgreementReport): VersionAgreement => {
  const figures = report.categorical;
  if (figures === null) throw new Error('a promotion compares categories');
  const interval = figures.kappaInterval;
  return {
    compared: report.a.side,
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
 * the field is numeric (a promotion is decided on κ).
 */
export async function preparePromotion(
  store: EntityReads & EventLog & RuleReads & RecordedJudges,
  app: PromotionApp,
  request: PromotionRequest,
): Promise<PreparedPromotion> {
  const { evaluator, workspaceId } = request;
  const replacing = request.replacing ?? null;
  const versions = replacing === null ? [evaluator] : [evaluator, replacing];
  // A version tuned as data (recorded in the workspace) is promoted like one declared in code.
  const recorded = await recordedJudges(store, app, workspaceId, versions);
  for (const id of versions) {
    if (app.evaluators.get(parseEvaluatorId(id)) === undefined && !recorded.has(id)) {
      throw notDeployed(id);
    }
  }
  const field = request.field === undefined ? '' : `:${request.field}`;
  const compare = (version: string, against: string) =>
    compareSides(store, app, {
      workspaceId,
      a: `${version}${field}`,
      b: against,
      limit: 0,
      ...(request.mapping ? { mapping: request.mapping } : {}),
      ...(request.from ? { from: request.from } : {}),
      ...(request.to ? { to: request.to } : {}),
      ...(request.targetKind ? { targetKind: request.targetKind } : {}),
    });
  const report = await compare(evaluator, request.against);
  if (report.kind !== 'categorical') {
    throw invalidQuery(
      `${report.a.side} is numeric: a promotion is decided on Cohen's κ, so compare a boolean or categorical field`,
    );
  }
  // The replaced version against the very side the promoted one was read against.
  const replaced = replacing === null ? null : agreementOf(await compare(replacing, report.b.side));
  const evidence: PromotionEvidence = {
    ...agreementOf(report),
    against: report.b.side,
    mapping: { ...(request.mapping ?? {}) },
    as_of_seq: report.asOfSeq,
    replaced,
  };
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
    report,
    command: {
      type: 'promote_evaluator',
      evaluator,
      replacing,
      // The promoted version takes over what the replaced one judged; alone, it keeps its own.
      rule: settingsOf(replacing ?? evaluator),
      replaced_rule: replacing === null ? null : settingsOf(replacing),
      min_kappa: request.minKappa,
      min_matched: request.minMatched,
      evidence,
      force: request.force ?? false,
    },
  };
}
