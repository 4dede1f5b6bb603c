import { z } from 'zod';
import { EVALUATOR_ID_PART, EvaluatorId, notFound } from '../../core/index.js';
import { prepareTuning, readBacktest } from '../../evidence/index.js';
import { WireBacktest, wireBacktest } from '../../wire/backtest.js';
import {
  WireJudgeVersion,
  WireRecordedJudge,
  WireTuned,
  wireJudgeVersions,
  wireRecordedVersion,
  wireTuned,
} from '../../wire/judge-versions.js';
import { actorOf } from '../../wire/principals.js';
import { OPERATORS, READERS } from '../contracts/callers.js';
import { defineRoutes } from '../contracts/contract.js';
import { refuse } from '../errors.js';
import { bindRoutes } from './bind-routes.js';
import { callerOf, execute } from './context.js';
import { answering } from './evidence-answers.js';

// LLM judges' versions: those the app declares in code and those recorded as data in the
// workspace (tuned from reviewers' verdicts: `evalflow judges tune`).

export const JudgeVersionsReply = z.object({ versions: z.array(WireJudgeVersion) });

/** The reviewers' side a judge is tuned or backtested against. */
const AgainstReviewers = {
  /** The reviewers' verdicts: `reviewers:type.field`. */
  against: z.string().min(1),
  /** The judge's field (default: the reviewers' field's name). */
  field: z.string().min(1).optional(),
};

export const TuneBody = z.strictObject({
  ...AgainstReviewers,
  /** The candidate's version (default: tuned-1, tuned-2, …, the first not recorded). */
  as: z.string().regex(EVALUATOR_ID_PART).optional(),
  /** The share held out for the backtest, strictly between 0 and 1 (default 0.3). */
  heldOutShare: z.number().gt(0).lt(1).optional(),
  /** The split's and the choice's seed (default 36). */
  seed: z
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .optional(),
  /** At most this many examples (default 8). */
  maxExamples: z.int().min(1).optional(),
});

/** The judge version a route is about: `name@version`. */
const VersionParams = z.strictObject({ version: EvaluatorId });
export const BacktestQuery = z.strictObject(AgainstReviewers);

export const judgeRoutes = defineRoutes({
  judgeVersions: {
    method: 'GET',
    path: '/v1/judge-versions',
    allow: READERS,
    tags: ['rules'],
    summary: "The LLM judges' versions: declared in code, and recorded as data in this workspace",
    description:
      'A recorded version says what it was tuned from, how many few-shot examples it carries and how many targets were held out for its backtest.',
    answers: { 200: JudgeVersionsReply },
  },
  tuneJudge: {
    method: 'POST',
    path: '/v1/judge-versions/:version/tune',
    allow: OPERATORS,
    tags: ['rules'],
    summary: 'Record a candidate version of an LLM judge tuned from its reviewers’ verdicts',
    description:
      'Reads the targets both the judge version and the reviewers gave verdicts on, splits them ' +
      '(seeded, stratified by the reviewers’ label), chooses few-shot examples from the training ' +
      'part (the disagreements first, balanced across labels) and records the candidate with ' +
      'its examples’ provenance and its held-out targets, as `evalflow judges tune` does. A ' +
      'recorded version may be tuned again: the candidate keeps its rubric, model and examples ' +
      '(first, counted in `kept`), and no target it was taught is split.',
    params: VersionParams,
    body: TuneBody,
    answers: { 201: WireTuned },
  },
  judgeVersion: {
    method: 'GET',
    path: '/v1/judge-versions/:version',
    allow: READERS,
    tags: ['rules'],
    summary: 'A judge version recorded in this workspace, with its examples and held-out targets',
    description:
      'Its rubric and model, each few-shot example with its provenance (the target, what the ' +
      'judge reads of it, the reviewers’ and the base judge’s labels, each reviewer’s label and ' +
      'note), and the held-out targets its backtest judges. A version declared in code is not ' +
      'recorded: 404.',
    params: VersionParams,
    answers: { 200: WireRecordedJudge },
  },
  judgeBacktest: {
    method: 'GET',
    path: '/v1/judge-versions/:version/backtest',
    allow: READERS,
    tags: ['rules'],
    summary: 'A recorded judge version against its base on its held-out targets',
    description:
      'From the verdicts stored on the held-out targets (a backfill with `selection.targets` judges them): ' +
      'κ of each version against the reviewers with its 95 % interval, the paired difference ' +
      '(a bootstrap over the targets), McNemar’s test, the confusion matrices and the verdicts ' +
      'that changed. A target lacking a verdict is listed as incomplete.',
    params: VersionParams,
    query: BacktestQuery,
    answers: { 200: WireBacktest },
  },
});

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
