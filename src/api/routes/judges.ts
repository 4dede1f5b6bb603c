import { wireJudgeVersions } from '../../wire/judge-versions.js';
import { judgeRoutes } from '../contracts/judges.js';
import { bindRoutes } from './bind-routes.js';
import { callerOf } from './context.js';

// LLM judges' versions (contracts/judges.ts).

export const registerJudges = bindRoutes(judgeRoutes, {
  judgeVersions: async ({ request, deps }) => ({
    versions: wireJudgeVersions(
      deps.app.evaluators.list(),
      await deps.store.judgeVersions.list(callerOf(request).workspaceId),
    ),
  }),
});
