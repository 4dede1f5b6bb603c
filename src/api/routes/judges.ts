import { notFound } from '../../core/index.js';
import { prepareTuning, readBacktest } from '../../evidence/index.js';
import { wireBacktest } from '../../wire/backtest.js';
import { wireJudgeVersions, wireRecordedVersion, wireTuned } from '../../wire/judge-versions.js';
import { actorOf } from '../../wire/principals.js';
import { judgeRoutes } from '../contracts/judges.js';
import { refuse } from '../errors.js';
import { bindRoutes } from './bind-routes.js';
import { callerOf, execute } from './context.js';
import { answering } from './evidence-answers.js';

export const registerJudges = bindRoutes(judgeRoutes, {
  judgeVersions: async ({ request, deps }) => ({
    versions: wireJudgeVersions(
      deps.app.evaluators.list(),
      await deps.store.judgeVersions.list(callerOf(request).workspaceId),
    ),
  }),

  tuneJudge: async ({ params, body, request, deps }) => {
    const { workspaceId, principal } = callerOf(request);
    const { against, field, as, heldOutShare, seed, maxExamples } = body;
    const prepared = await answering(() =>
      prepareTuning(deps.store, deps.app, {
        workspaceId,
        base: params.version,
        against,
        by: actorOf(principal),
        now: deps.now(),
        ...(field ? { field } : {}),
        ...(as ? { as } : {}),
        ...(heldOutShare === undefined ? {} : { heldOutShare }),
        ...(seed === undefined ? {} : { seed }),
        ...(maxExamples === undefined ? {} : { maxExamples }),
      }),
    );
    const outcome = await execute(deps, request, actorOf(principal), prepared.command);
    const seq = outcome.events[0]?.seq ?? 0;
    return wireTuned(workspaceId, seq, prepared.command.judge_version, prepared);
  },

  judgeVersion: async ({ params, request, deps }) => {
    const version = await deps.store.judgeVersions.get(
      callerOf(request).workspaceId,
      params.version,
    );
    if (version === null) throw refuse(notFound('judge version', params.version));
    return wireRecordedVersion(version);
  },

  judgeBacktest: async ({ params, query, request, deps }) => {
    const { workspaceId } = callerOf(request);
    const version = await deps.store.judgeVersions.get(workspaceId, params.version);
    if (version === null) throw refuse(notFound('judge version', params.version));
    const statistics = await answering(() =>
      readBacktest(deps.store, deps.app, {
        workspaceId,
        version,
        against: query.against,
        ...(query.field ? { field: query.field } : {}),
      }),
    );
    return wireBacktest(workspaceId, version, statistics);
  },
});
