import { judgeVersionId, parseEvaluatorId, type StoredJudgeVersion } from '../core/index.js';
import type { JudgeVersions } from '../store/index.js';
import { type AgreementApp, evaluatorsNamed } from './sides.js';

// A side may name a judge version recorded as data in the workspace (tuned from reviewers'
// verdicts) as it names one deployed in code: this reads the recorded ones the sides name.

/** The store's part a comparison reads recorded judge versions from. */
export interface RecordedJudges {
  readonly judgeVersions: Pick<JudgeVersions, 'get'>;
}

/** The sides' evaluator versions the app does not deploy that the workspace records, by id. */
export async function recordedJudges(
  store: RecordedJudges,
  app: AgreementApp,
  workspaceId: string,
  sides: readonly string[],
): Promise<Map<string, StoredJudgeVersion>> {
  const undeclared = evaluatorsNamed(sides).filter(
    (id) => app.evaluators.get(parseEvaluatorId(id)) === undefined,
  );
  const versions = await Promise.all(
    undeclared.map((id) => store.judgeVersions.get(workspaceId, id)),
  );
  return new Map(
    versions.flatMap((version) =>
      version === null ? [] : [[judgeVersionId(version), version] as const],
    ),
  );
}
