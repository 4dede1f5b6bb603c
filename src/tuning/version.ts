// A tuned judge version as data (its schema and rules are the core's, which its recording checks
// too); `parseJudgeVersion` is the one gate tuning passes it through, with a problem per finding.

import { JudgeVersion, judgeVersionProblems } from '../core/index.js';
import { InvalidJudgeVersionError } from './errors.js';

export { JudgeExample, JudgeVersion } from '../core/index.js';

/**
 * A valid version, or every problem with it.
 * @throws InvalidJudgeVersionError listing the shape's problems, or else the rules': a version
 * string that is no id part, an empty rubric, a version tuned from itself, an example that is a
 * held-out target, an example given twice.
 */
export function parseJudgeVersion(input: unknown): JudgeVersion {
  const parsed = JudgeVersion.safeParse(input);
  if (!parsed.success) {
    throw new InvalidJudgeVersionError(
      parsed.error.issues.map((issue) => ({
        code: ['version', 'tunedFrom'].includes(String(issue.path[0])) ? 'bad_version' : 'shape',
        message: `${issue.path.join('.') || '(root)'}: ${issue.message}`,
      })),
    );
  }
  const problems = judgeVersionProblems(parsed.data);
  if (problems.length > 0) throw new InvalidJudgeVersionError(problems);
  return parsed.data;
}
