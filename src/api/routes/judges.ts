import { notFound } from '../../core/index.js';
import { AgreementQueryError, readBacktest } from '../../evidence/index.js';
import { wireBacktest } from '../../wire/backtest.js';
import { wireJudgeVersions } from '../../wire/judge-versions.js';
import { judgeRoutes } from '../contracts/judges.js';
import { refuse } from '../errors.js';
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

  judgeBacktest: async ({ params, query, request, deps }) => {
    const { workspaceId } = callerOf(request);
    const version = await deps.store.judgeVersions.get(workspaceId, params.version);
    if (version === null) throw refuse(notFound('judge version', params.version));
    try {
      const statistics = await readBacktest(deps.store, deps.app, {
        workspaceId,
        version,
        against: query.against,
        ...(query.field ? { field: query.field } : {}),
      });
      return wireBacktest(workspaceId, version, statistics);
    } catch (error) {
      if (error instanceof AgreementQueryError) throw refuse(error.rejection);
      throw error;
    }
  },
});
