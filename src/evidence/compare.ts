import {
  type CategoricalAgreement,
  categoricalAgreement,
  type Figure,
  type IntervalOptions,
  type LabelMapping,
  labelText,
  type NumericAgreement,
  numericAgreement,
  raterAgreement,
} from '../agreement/index.js';
import type { Target, TargetKind } from '../core/index.js';
import type { ScoreConfig } from '../scores/index.js';
import type { EntityReads, EventLog } from '../store/index.js';
import { invalidQuery } from './errors.js';
import { type RecordedJudges, recordedJudges } from './recorded-judges.js';
import {
  type AgreementApp,
  isNumeric,
  type Population,
  type ResolvedSide,
  resolveSides,
} from './sides.js';
import { readSide, type SideVerdicts, type TargetVerdict, type Vote } from './verdicts.js';

// The agreement of two populations of stored verdicts on the same targets (an evaluator version
// against the reviewers, the users, or another version), in one call: each side read once
// (`readSide`), matched by target key, then the figures of src/agreement, the disagreeing
// targets, and how a population's own raters agree among themselves.

/** What to compare, and where. */
export interface AgreementQuery {
  readonly workspaceId: string;
  /** The sides as written (see `sides.ts`): `politeness@2:polite`, `reviewers`. */
  readonly a: string;
  readonly b: string;
  /** Renames labels on both sides before comparing: `{pass: 'true', fail: 'false'}`. */
  readonly mapping?: LabelMapping;
  /** Verdicts last given at or after `from` and before `to` (ISO-8601), on both sides. */
  readonly from?: string;
  readonly to?: string;
  readonly targetKind?: TargetKind;
  /** How many disagreeing targets to list (all are counted); default 100. */
  readonly limit?: number;
  /** How κ's interval is drawn (seed, resamples); the defaults give the same interval every time. */
  readonly interval?: IntervalOptions;
}

/** How a population's own raters agree with each other, on targets two or more of them judged. */
export interface RatersAgreement {
  /** Distinct raters seen on this side. */
  readonly raters: number;
  /** Targets with two or more raters' verdicts. */
  readonly pairableTargets: number;
  /** Cohen's κ between the two raters, when there are exactly two; else null. */
  readonly cohenKappa: Figure | null;
  readonly fleissKappa: Figure;
  readonly krippendorffAlpha: Figure;
}

/** One side, as compared. */
export interface SideReport {
  readonly side: string;
  readonly population: Population;
  readonly participant: string | null;
  readonly feedbackType: string;
  readonly field: string;
  readonly dataType: ScoreConfig['dataType'];
  /** Targets this side gave a verdict on, within the slices. */
  readonly verdicts: number;
  /** Targets whose raters tied: no verdict on this side. */
  readonly ties: number;
  /** For a population of categorical verdicts: how its raters agree; null otherwise. */
  readonly raters: RatersAgreement | null;
}

/** A matched target where the two sides differ. */
export interface Disagreement {
  readonly target: Target;
  readonly targetKey: string;
  readonly a: string | number;
  readonly b: string | number;
  /** The raters' own verdicts, for a population; empty for one rater. */
  readonly votesA: readonly Vote[];
  readonly votesB: readonly Vote[];
}

export interface AgreementReport {
  readonly a: SideReport;
  readonly b: SideReport;
  /** How the fields compare: labels (categorical and boolean), or numbers. */
  readonly kind: 'categorical' | 'numeric';
  readonly mapping: LabelMapping;
  readonly workspaceId: string;
  readonly from: string | null;
  readonly to: string | null;
  readonly targetKind: TargetKind | null;
  /** The workspace's last seq when reading began: every verdict up to it was read. */
  readonly asOfSeq: number;
  readonly categorical: CategoricalAgreement | null;
  readonly numeric: NumericAgreement | null;
  /**
   * Every matched target where the sides differ is counted, and `limit` are listed: the newest
   * first, or for numbers the largest differences first.
   */
  readonly disagreements: { readonly total: number; readonly listed: readonly Disagreement[] };
}

export const DEFAULT_DISAGREEMENTS_LISTED = 100;

/**
 * Compares two sides' stored verdicts: each side read once, matched by target.
 *
 * @throws AgreementQueryError when a side cannot be read as asked; nothing is read then.
 */
export async function compareSides(
  store: EntityReads & EventLog & RecordedJudges,
  app: AgreementApp,
  query: AgreementQuery,
): Promise<AgreementReport> {
  const sides = [query.a, query.b];
  const recorded = await recordedJudges(store, app, query.workspaceId, sides);
  const [sideA, sideB] = resolveSides(app, query.a, query.b, recorded);
  const limit = query.limit ?? DEFAULT_DISAGREEMENTS_LISTED;
  if (!Number.isInteger(limit) || limit < 0) {
    throw invalidQuery(`limit is a whole number from 0, not ${limit}`);
  }
  const slices = {
    workspaceId: query.workspaceId,
    ...(query.from !== undefined ? { from: query.from } : {}),
    ...(query.to !== undefined ? { to: query.to } : {}),
    ...(query.targetKind !== undefined ? { targetKind: query.targetKind } : {}),
    ...(query.mapping !== undefined ? { mapping: query.mapping } : {}),
  };
  const asOfSeq = await store.head(query.workspaceId);
  const [verdictsA, verdictsB] = await Promise.all([
    readSide(store, sideA, slices),
    readSide(store, sideB, slices),
  ]);
  // Aligned by target: every key either side has, A's first, each once.
  const keys = [...verdictsA.byTarget.keys()];
  for (const key of verdictsB.byTarget.keys()) if (!verdictsA.byTarget.has(key)) keys.push(key);
  const valuesA = keys.map((key) => verdictsA.byTarget.get(key)?.value ?? null);
  const valuesB = keys.map((key) => verdictsB.byTarget.get(key)?.value ?? null);
  const numeric = isNumeric(sideA);
  const mapping = query.mapping ?? {};
  return {
    a: sideReport(sideA, verdictsA),
    b: sideReport(sideB, verdictsB),
    kind: numeric ? 'numeric' : 'categorical',
    mapping,
    workspaceId: query.workspaceId,
    from: query.from ?? null,
    to: query.to ?? null,
    targetKind: query.targetKind ?? null,
    asOfSeq,
    categorical: numeric
      ? null
      : categoricalAgreement(valuesA as (string | null)[], valuesB as (string | null)[], {
          labels: declaredLabels([sideA.config, sideB.config], mapping),
          ...(query.interval ? { interval: query.interval } : {}),
        }),
    numeric: numeric
      ? numericAgreement(valuesA as (number | null)[], valuesB as (number | null)[])
      : null,
    disagreements: disagreementsOf(verdictsA, verdictsB, numeric, limit),
  };
}

/**
 * The labels every matrix lists, in order, even when nobody gave one: A's field's, then B's
 * (after the mapping), each once; booleans as false, true (scikit-learn's sorted order).
 */
function declaredLabels(configs: readonly ScoreConfig[], mapping: LabelMapping): string[] {
  const labels: string[] = [];
  for (const config of configs) {
    const own = config.dataType === 'BOOLEAN' ? ['false', 'true'] : config.categories;
    for (const label of own) {
      const mapped = labelText(label, mapping);
      if (!labels.includes(mapped)) labels.push(mapped);
    }
  }
  return labels;
}

function sideReport(side: ResolvedSide, verdicts: SideVerdicts): SideReport {
  let given = 0;
  for (const verdict of verdicts.byTarget.values()) if (verdict.value !== null) given += 1;
  return {
    side: side.text,
    population: side.population,
    participant: side.participant,
    feedbackType: side.type.name,
    field: side.config.field,
    dataType: side.config.dataType,
    verdicts: given,
    ties: verdicts.ties,
    raters: side.several && side.config.dataType !== 'NUMERIC' ? ratersOf(verdicts) : null,
  };
}

/** How a population's raters agree: Fleiss' κ and Krippendorff's α, and Cohen's κ for two. */
function ratersOf(verdicts: SideVerdicts): RatersAgreement {
  const targets = [...verdicts.byTarget.values()].map((verdict) =>
    verdict.votes.map((vote) => vote.value as string),
  );
  const figures = raterAgreement(targets);
  let cohenKappa: Figure | null = null;
  const who = new Set<string>();
  for (const verdict of verdicts.byTarget.values()) {
    for (const vote of verdict.votes) who.add(vote.participant);
  }
  if (who.size === 2) {
    const [first, second] = [...who];
    const labelOf = (verdict: TargetVerdict, participant: string | undefined) =>
      (verdict.votes.find((vote) => vote.participant === participant)?.value as string) ?? null;
    const all = [...verdicts.byTarget.values()];
    cohenKappa = categoricalAgreement(
      all.map((verdict) => labelOf(verdict, first)),
      all.map((verdict) => labelOf(verdict, second)),
    ).kappa;
  }
  return {
    raters: who.size,
    pairableTargets: figures.pairableTargets,
    cohenKappa,
    fleissKappa: figures.fleissKappa,
    krippendorffAlpha: figures.krippendorffAlpha,
  };
}

/** The matched targets where the sides differ: all counted, `limit` of them listed. */
function disagreementsOf(
  a: SideVerdicts,
  b: SideVerdicts,
  numeric: boolean,
  limit: number,
): AgreementReport['disagreements'] {
  const found: { seq: number; disagreement: Disagreement }[] = [];
  for (const [targetKey, x] of a.byTarget) {
    const y = b.byTarget.get(targetKey);
    if (y === undefined || x.value === null || y.value === null || x.value === y.value) continue;
    found.push({
      seq: Math.max(x.seq, y.seq),
      disagreement: {
        target: x.target,
        targetKey,
        a: x.value,
        b: y.value,
        votesA: x.votes,
        votesB: y.votes,
      },
    });
  }
  // Numbers by the size of the difference, largest first; then the newest first.
  const gap = (d: Disagreement) => (numeric ? Math.abs((d.a as number) - (d.b as number)) : 0);
  found.sort(
    (p, q) =>
      gap(q.disagreement) - gap(p.disagreement) ||
      q.seq - p.seq ||
      (p.disagreement.targetKey < q.disagreement.targetKey ? -1 : 1),
  );
  return { total: found.length, listed: found.slice(0, limit).map((f) => f.disagreement) };
}
