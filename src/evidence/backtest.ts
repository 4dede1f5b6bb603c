import { type BacktestStatistics, backtestStatistics } from '../agreement/index.js';
import { evaluatorParticipant, type StoredJudgeVersion, targetKey } from '../core/index.js';
import type { EntityReads } from '../store/index.js';
import { type RecordedJudges, recordedJudges } from './recorded-judges.js';
import { type AgreementApp, type ResolvedSide, resolveSides } from './sides.js';
import { readSide } from './verdicts.js';

// A recorded judge version's backtest, from the verdicts stored on its held-out targets: its
// base version's and its own against the reviewers', on the same targets (src/agreement's
// `backtestStatistics`). The held-out targets are the version's own, so none was an example.

export type { BacktestStatistics };

export interface BacktestQuery {
  readonly workspaceId: string;
  readonly version: StoredJudgeVersion;
  /** The judge's field compared (default: the reviewers' field's name). */
  readonly field?: string;
  /** The reviewers' side, `reviewers:type.field`. */
  readonly against: string;
  /** Renames labels on all three sides before comparing (`{"pass": "true"}`). */
  readonly mapping?: Readonly<Record<string, string>>;
}

/** `reviewers:type.field`'s field, which the judge's field is named as unless said. */
export const judgeFieldOf = (against: string): string =>
  against.slice(against.lastIndexOf('.') + 1);

/**
 * The statistics over the version's held-out targets; a target lacking a verdict of either
 * version or of the reviewers is listed as incomplete, never guessed.
 * @throws AgreementQueryError for sides that cannot be read as asked (the base not deployed).
 */
export async function readBacktest(
  store: EntityReads & RecordedJudges,
  app: AgreementApp,
  { workspaceId, version, against, field = judgeFieldOf(against), mapping }: BacktestQuery,
): Promise<BacktestStatistics> {
  // The base may itself be a version recorded in the workspace (tuned again).
  const base = `${version.judge}@${version.tunedFrom}`;
  const [oldSide, reviewersSide] = resolveSides(
    app,
    `${base}:${field}`,
    against,
    await recordedJudges(store, app, workspaceId, [base]),
  );
  const participant = evaluatorParticipant({ name: version.judge, version: version.version });
  const newSide: ResolvedSide = {
    ...oldSide,
    text: `${version.judge}@${version.version}:${field}`,
    participant,
    filter: { ...oldSide.filter, participant },
  };
  const slices = { workspaceId };
  const [reviewers, old, candidate] = await Promise.all(
    [reviewersSide, oldSide, newSide].map((side) => readSide(store, side, slices)),
  );
  const valueOn = (verdicts: typeof old, key: string) => verdicts?.byTarget.get(key)?.value ?? null;
  return backtestStatistics(
    version.heldOut.map((target) => {
      const key = targetKey(target);
      return {
        target: key,
        reviewers: valueOn(reviewers, key),
        old: valueOn(old, key),
        new: valueOn(candidate, key),
      };
    }),
    mapping === undefined ? {} : { mapping },
  );
}
