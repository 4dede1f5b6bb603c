import type { Actor } from './actors.js';
import type { CommandOf } from './commands.js';
import { type DecideContext, type Decision, recorded } from './decision.js';
import { judgeVersionId, judgeVersionProblems } from './judge-versions.js';
import { conflict, forbidden, notFound, validationFailed } from './rejections.js';
import type { WorkspaceState } from './state.js';

/**
 * Only the system records judge versions, as only it sets rules. A version is new: not declared
 * in code (the deployed catalog) and not recorded before, so a recorded one never changes. Its
 * base version is declared or recorded, and the version answers with the base's feedback type
 * and judges the base's kinds (recorded with it, so a rule may name it for them).
 */
export function recordJudgeVersion(
  state: WorkspaceState,
  actor: Actor,
  command: CommandOf<'record_judge_version'>,
  context: DecideContext,
): Decision {
  if (actor.kind !== 'system') return forbidden('only the system records judge versions');
  const version = command.judge_version;
  const problems = judgeVersionProblems(version);
  if (problems.length > 0) {
    return validationFailed(`invalid judge version: ${problems.map((p) => p.message).join('; ')}`, [
      ...problems,
    ]);
  }
  const id = judgeVersionId(version);
  if (context.evaluators?.targetsOf(id) !== undefined) {
    return conflict(`${id} is declared in code: a recorded version takes a version of its own`);
  }
  if (state.judgeVersions.has(id)) {
    return conflict(`${id} is recorded already, and a recorded version never changes`);
  }
  const baseId = `${version.judge}@${version.tunedFrom}`;
  const baseType =
    context.evaluators?.feedbackTypeOf?.(baseId) ?? state.judgeVersions.get(baseId)?.feedbackType;
  if (baseType === undefined) return notFound('evaluator', baseId);
  const targets = context.evaluators?.targetsOf(baseId) ?? state.judgeVersions.get(baseId)?.targets;
  if (targets === undefined) {
    return validationFailed(
      `${baseId} was recorded before versions kept the kinds they judge: tune from a version declared in code`,
    );
  }
  if (baseType !== version.feedbackType) {
    return validationFailed(
      `${id} answers with ${version.feedbackType} feedback, but ${baseId} with ${baseType}: a tuned version answers with its base's feedback type`,
    );
  }
  return recorded([
    { type: 'judge_version_recorded', judge_version: version, targets: [...targets] },
  ]);
}
