import type { z } from 'zod';
import type { AnswerOutput, RouteInput, RouteInputPart } from '../api/contracts/contract.js';
import type { HttpOnlyType, RejectionBody } from '../api/errors.js';
import type * as agreement from '../api/routes/agreement.js';
import type * as costs from '../api/routes/costs.js';
import type * as lists from '../api/routes/lists.js';
import type * as reading from '../api/routes/reading.js';
import type * as reviewQueues from '../api/routes/review-queues.js';
import type { RouteContracts, RouteName } from '../api/routes/table.js';
import type { RejectionType as CoreRejectionType } from '../core/index.js';
import type * as wire from '../wire/entities.js';
import type { WireConfig } from '../wire/score-configs.js';

// What the HTTP client sends and reads, derived from the API's own route schemas: a request is
// a body's input (defaults may be left out), an answer a response's output. Types only, so the
// client never loads the server.

/** What a route of the table takes (its params, query and body, those it has), by name. */
export type RouteRequest<Name extends RouteName> = RouteInput<RouteContracts[Name]>;
/** What a route of the table answers with, by name. */
export type RouteResult<Name extends RouteName> = AnswerOutput<RouteContracts[Name]>;
/** A route's body, as sent. */
type BodyOf<Name extends RouteName> = RouteInputPart<RouteContracts[Name], 'body'>;
/** A route's query, as sent. */
type QueryOf<Name extends RouteName> = RouteInputPart<RouteContracts[Name], 'query'>;

/** Every refusal the API answers with: the core's rejections and the HTTP-only ones. */
export type ApiRejectionType = CoreRejectionType | HttpOnlyType;
export type ApiRejection = RejectionBody;

/** What a write recorded: the seq of its last event (null when none) and the events' ids. */
export type WriteResult = z.output<typeof wire.Written>;
export type Health = RouteResult<'health'>;

export type CreateThreadRequest = BodyOf<'createThread'>;
export type CreateThreadResult = RouteResult<'createThread'>;
export type StartRunRequest = BodyOf<'startRun'>;
export type StartRunResult = RouteResult<'startRun'>;
export type PauseRunRequest = NonNullable<BodyOf<'pauseRun'>>;
export type EndRunRequest = BodyOf<'endRun'>;
/** `feedback` is left out: the API ignores it, as sending is not a feedback path. */
export type PostMessageRequest = Omit<BodyOf<'postMessage'>, 'feedback'>;
export type PostMessageResult = RouteResult<'postMessage'>;
export type PutArtifactRequest = BodyOf<'putArtifact'>;
export type PutArtifactResult = RouteResult<'putArtifact'>;

export type GiveFeedbackRequest = BodyOf<'giveFeedback'>;
export type RateMessageRequest = BodyOf<'rateMessage'>;
export type RateMessageResult = RouteResult<'rateMessage'>;
export type DeleteRatingResult = RouteResult<'deleteRating'>;
export type Conversation = RouteResult<'conversation'>;

/** A reviewer's action; the action is the method (`submit`, `revise`, `withdraw`). */
export type ReviewActionRequest = Omit<BodyOf<'review'>, 'action'>;
export type WithdrawReviewRequest = Omit<ReviewActionRequest, 'value' | 'configId'>;
export type ReviewActionResult = RouteResult<'review'>;

export type RecordScoreRequest = BodyOf<'recordScore'>;
export type RecordScoreResult = RouteResult<'recordScore'>;
export type ApiScoreConfig = z.output<typeof WireConfig>;
export type CreateScoreConfigRequest = BodyOf<'createScoreConfig'>;
export type ScoreConfigs = RouteResult<'scoreConfigs'>;
export type ScoresSummaryQuery = z.input<typeof reading.ScoresSummaryQuery>;
export type ScoresSummary = RouteResult<'scoresSummary'>;

export type RunWithEvaluations = RouteResult<'run'>;
export type RunVerdict = RunWithEvaluations['verdicts'][number];
export type ThreadWithEvaluations = RouteResult<'thread'>;
export type LedgerEntry = z.output<typeof reading.LedgerEntry>;
/** A page's filters; `limit` (1 to 1000, default 100) and `cursor` page through them. */
export type LedgerQuery = Partial<z.output<typeof reading.LedgerQuery>>;
export type LedgerPage = RouteResult<'ledger'>;
/** `limit` (1 to 1000, default 100) and `cursor` page through them. */
export type ThreadsQuery = Partial<z.output<typeof lists.ThreadsQuery>>;
export type ThreadsPage = RouteResult<'threads'>;
export type WireThread = z.output<typeof wire.WireThread>;
/** A page's filters (they combine); `limit` and `cursor` page through them. */
export type RunsQuery = Partial<z.output<typeof lists.RunsQuery>>;
export type RunsPage = RouteResult<'runs'>;
export type EvaluationSummary = z.output<typeof lists.EvaluationSummary>;

export type StartReevaluationRequest = BodyOf<'startReevaluation'>;
export type StartReevaluationResult = RouteResult<'startReevaluation'>;
export type ReevaluationProgress = RouteResult<'reevaluation'>;
export type PreviewReevaluationRequest = BodyOf<'previewReevaluation'>;
export type ReevaluationPreview = RouteResult<'previewReevaluation'>;

export type EvaluationRules = RouteResult<'rules'>;
export type JudgeVersions = RouteResult<'judgeVersions'>;
export type TuneJudgeRequest = BodyOf<'tuneJudge'>;
export type TunedJudge = RouteResult<'tuneJudge'>;
export type RecordedJudgeVersion = RouteResult<'judgeVersion'>;
export type JudgeBacktestQuery = QueryOf<'judgeBacktest'>;
export type JudgeBacktest = RouteResult<'judgeBacktest'>;
export type SetRuleRequest = BodyOf<'setRule'>;
export type Budgets = RouteResult<'budgets'>;
export type Budget = Budgets['budgets'][number];
export type SetBudgetRequest = BodyOf<'setBudget'>;
export type BudgetChanges = RouteResult<'budgetChanges'>;

/**
 * What to compare: two sides as written (`politeness@2:polite`, `reviewers`), the label
 * `mapping` (`{pass: 'true'}`, sent as `map=pass=true`) and the slices; `limit` caps the
 * disagreements listed.
 */
export type AgreementRequest = Omit<z.input<typeof agreement.AgreementQuery>, 'map' | 'limit'> & {
  mapping?: Readonly<Record<string, string>>;
  limit?: number;
};
export type Agreement = RouteResult<'agreement'>;
export type PromoteRequest = BodyOf<'promote'>;
export type QueueDisagreementsRequest = BodyOf<'queueDisagreements'>;
export type QueuedDisagreements = RouteResult<'queueDisagreements'>;
export type PromoteResult = RouteResult<'promote'>;

/** What spend is grouped by: `version`, `evaluator`, `workspace`, `day`, `model`. */
export type CostDimension = costs.CostDimension;
/** Which spend to read: `by` (default version and day), UTC days, an evaluator or version. */
export type CostsRequest = Omit<QueryOf<'costs'>, 'by'> & {
  by?: readonly CostDimension[];
};
export type Costs = RouteResult<'costs'>;

export type CreateUserTokenRequest = BodyOf<'createUserToken'>;
export type UserToken = RouteResult<'createUserToken'>;

export type ReviewQueues = RouteResult<'reviewQueues'>;
export type ReviewQueueWithProgress = z.output<typeof reviewQueues.QueueWithProgress>;
export type ReviewQueueDetail = RouteResult<'reviewQueue'>;
export type SetReviewQueueRequest = BodyOf<'setReviewQueue'>;
export type ReviewQueueWritten = RouteResult<'setReviewQueue'>;
/** Targets by hand (`{targets}`), or every target a filter selects (`{filter, limit?}`). */
export type EnqueueRequest = BodyOf<'enqueue'>;
export type EnqueueResult = RouteResult<'enqueue'>;
export type ClaimResult = RouteResult<'claim'>;
export type ReviewItemView = RouteResult<'reviewItem'>;
export type LeaseResult = RouteResult<'heartbeat'>;
export type ReleaseResult = RouteResult<'release'>;
export type SkipResult = RouteResult<'skip'>;
export type SubmitReviewItemRequest = BodyOf<'submitItem'>;
export type SubmitReviewItemResult = RouteResult<'submitItem'>;
export type MyReviews = RouteResult<'myReviews'>;
export type ReviewerSignInRequest = NonNullable<BodyOf<'reviewerSignIn'>>;
export type ReviewerSignIn = RouteResult<'reviewerSignIn'>;
