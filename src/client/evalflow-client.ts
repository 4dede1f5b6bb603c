import type { RouteName } from '../api/routes/table.js';
import { EventStream, type EventStreamOptions } from './event-stream.js';
import { DEFAULT_RETRY, type RetryPolicy, sleep } from './retry.js';
import { ROUTE_TABLE } from './route-table.js';
import { type Call, type CallOptions, type Query, Transport } from './transport.js';
import type {
  Agreement,
  AgreementRequest,
  ApiScoreConfig,
  BudgetChanges,
  Budgets,
  ClaimResult,
  Conversation,
  Costs,
  CostsRequest,
  CreateScoreConfigRequest,
  CreateThreadRequest,
  CreateThreadResult,
  CreateUserTokenRequest,
  DeleteRatingResult,
  EndRunRequest,
  EnqueueRequest,
  EnqueueResult,
  EvaluationRules,
  GiveFeedbackRequest,
  Health,
  JudgeBacktest,
  JudgeBacktestQuery,
  JudgeVersions,
  LeaseResult,
  LedgerEntry,
  LedgerPage,
  LedgerQuery,
  MyReviews,
  PauseRunRequest,
  PostMessageRequest,
  PostMessageResult,
  PreviewReevaluationRequest,
  PromoteRequest,
  PromoteResult,
  PutArtifactRequest,
  PutArtifactResult,
  QueueDisagreementsRequest,
  QueuedDisagreements,
  RateMessageRequest,
  RateMessageResult,
  RecordedJudgeVersion,
  RecordScoreRequest,
  RecordScoreResult,
  ReevaluationPreview,
  ReevaluationProgress,
  ReleaseResult,
  ReviewActionRequest,
  ReviewActionResult,
  ReviewerSignIn,
  ReviewerSignInRequest,
  ReviewItemView,
  ReviewQueueDetail,
  ReviewQueues,
  ReviewQueueWritten,
  RouteRequest,
  RouteResult,
  RunsPage,
  RunsQuery,
  RunWithEvaluations,
  ScoreConfigs,
  ScoresSummary,
  ScoresSummaryQuery,
  SetBudgetRequest,
  SetReviewQueueRequest,
  SetRuleRequest,
  SkipResult,
  StartReevaluationRequest,
  StartReevaluationResult,
  StartRunRequest,
  StartRunResult,
  SubmitReviewItemRequest,
  SubmitReviewItemResult,
  ThreadsPage,
  ThreadsQuery,
  ThreadWithEvaluations,
  TunedJudge,
  TuneJudgeRequest,
  UserToken,
  WithdrawReviewRequest,
  WriteResult,
} from './types.js';

export interface EvalflowClientOptions {
  /** Where the API listens, e.g. `http://127.0.0.1:8080`; a path prefix is kept. */
  baseUrl: string | URL;
  /** A workspace key (`efk_...`, from `evalflow keys create`) or a user token (`eut_...`). */
  apiKey: string;
  /** When to try again (default: 4 attempts, 250 ms doubling to at most 8 s, jittered). */
  retry?: Partial<RetryPolicy>;
  /** Each attempt's limit, in milliseconds (default 30 s); event streams have none. */
  timeoutMs?: number;
  /** The fetch to use (default: the global one of Node 20+). */
  fetch?: typeof fetch;
  /** Headers sent with every request, besides the key. */
  headers?: Record<string, string>;
}

export interface WatchOptions {
  /** Between polls, in milliseconds (default 1000). */
  intervalMs?: number;
  signal?: AbortSignal;
}

const at = encodeURIComponent;

/**
 * The HTTP API, one typed method per route: what a host reports (threads, runs, messages,
 * artifact versions), feedback, ratings and reviews, scores, reading back, re-evaluation, rules,
 * user tokens and the event streams. Retries a 5xx, a 429 (after its Retry-After) and no answer;
 * every write carries an Idempotency-Key, the same on each retry, so it records once. A refusal
 * is an `EvalflowApiError`; no answer after the last attempt an `EvalflowNetworkError`.
 */
export class EvalflowClient {
  private readonly transport: Transport;

  constructor(private readonly options: EvalflowClientOptions) {
    this.transport = new Transport({
      baseUrl: String(options.baseUrl),
      apiKey: options.apiKey,
      retry: { ...DEFAULT_RETRY, ...options.retry },
      timeoutMs: options.timeoutMs ?? 30_000,
      fetch: options.fetch ?? globalThis.fetch,
      headers: options.headers ?? {},
    });
  }

  /** The same client with another key: a user token minted by `userTokens.create`, say. */
  withKey(apiKey: string): EvalflowClient {
    return new EvalflowClient({ ...this.options, apiKey });
  }

  /**
   * Any route of the route table by its name (`createThread`, `startRun`), with the params,
   * query and body its contract declares, typed from it; the methods below are named calls of it.
   */
  call<Name extends RouteName>(
    name: Name,
    input: RouteRequest<Name>,
    options?: CallOptions,
  ): Promise<RouteResult<Name>> {
    const route: { method: Call['method']; answers?: readonly number[] } = ROUTE_TABLE[name];
    const { params, query, body } = input as {
      params?: Record<string, string>;
      query?: Query;
      body?: unknown;
    };
    return this.transport.send({
      method: route.method,
      path: this.pathOf(name, params),
      query,
      body,
      options,
      ...(route.answers ? { answers: route.answers } : {}),
    });
  }

  // Health: public routes, whose key is not checked.

  /** The process is up (`GET /healthz`). */
  health(options?: CallOptions): Promise<Health> {
    return this.call('health', {}, options);
  }

  /** Whether the store and Temporal answer (`GET /readyz`): one attempt, 200 and 503 both answers. */
  ready(options?: CallOptions): Promise<Health> {
    return this.transport.send({ ...ROUTE_TABLE.ready, options, retry: false });
  }

  // Lifecycle: what the host reports.

  createThread(request: CreateThreadRequest, options?: CallOptions): Promise<CreateThreadResult> {
    return this.call('createThread', { body: request }, options);
  }

  /**
   * Ends a thread: its thread evaluators judge it now instead of once it has gone quiet. A
   * later run or message reopens it, to be judged again as a new generation.
   */
  endThread(threadId: string, options?: CallOptions): Promise<WriteResult> {
    return this.call('endThread', { params: { threadId } }, options);
  }

  /**
   * Starts a run, or resumes a paused one (`resumed: true`), appending its trace id. Its
   * `startedAt`, like `endRun`'s `endedAt` and `postMessage`'s `postedAt`, reports when it
   * happened (docs/specification.md#reported-times).
   */
  startRun(
    threadId: string,
    request: StartRunRequest,
    options?: CallOptions,
  ): Promise<StartRunResult> {
    return this.call('startRun', { params: { threadId }, body: request }, options);
  }

  pauseRun(runId: string, request?: PauseRunRequest, options?: CallOptions): Promise<WriteResult> {
    return this.call('pauseRun', { params: { runId }, body: request }, options);
  }

  /** Ends a run; its evaluation starts. */
  endRun(runId: string, request: EndRunRequest, options?: CallOptions): Promise<WriteResult> {
    return this.call('endRun', { params: { runId }, body: request }, options);
  }

  postMessage(
    threadId: string,
    request: PostMessageRequest,
    options?: CallOptions,
  ): Promise<PostMessageResult> {
    return this.call('postMessage', { params: { threadId }, body: request }, options);
  }

  /** Puts a new version of an artifact; the answer names the version. */
  putArtifact(
    artifactId: string,
    request: PutArtifactRequest,
    options?: CallOptions,
  ): Promise<PutArtifactResult> {
    return this.call('putArtifact', { params: { artifactId }, body: request }, options);
  }

  /** Archives an artifact: it takes no new versions. */
  archiveArtifact(artifactId: string, options?: CallOptions): Promise<WriteResult> {
    return this.call('archiveArtifact', { params: { artifactId } }, options);
  }

  // Feedback, ratings and reviews.

  /** Gives feedback as the key's principal (an evaluator's verdict, a system's note). */
  giveFeedback(request: GiveFeedbackRequest, options?: CallOptions): Promise<WriteResult> {
    return this.call('giveFeedback', { body: request }, options);
  }

  /** Creates or replaces the caller's own rating of an assistant message (a user's key or token). */
  rateMessage(
    threadId: string,
    messageId: string,
    request: RateMessageRequest,
    options?: CallOptions,
  ): Promise<RateMessageResult> {
    return this.call('rateMessage', { params: { threadId, messageId }, body: request }, options);
  }

  /** Removes the caller's own rating; `removed` is absent when there was none. */
  deleteRating(
    threadId: string,
    messageId: string,
    feedbackType: string,
    options?: CallOptions,
  ): Promise<DeleteRatingResult> {
    const params = { threadId, messageId };
    return this.call('deleteRating', { params, query: { feedbackType } }, options);
  }

  /** The thread's messages, each assistant message with its feedback. */
  conversation(threadId: string, options?: CallOptions): Promise<Conversation> {
    return this.call('conversation', { params: { threadId } }, options);
  }

  /** A reviewer's actions on a target, applied one at a time in the order accepted. */
  readonly reviews = {
    /** A first review; `configId` names the score config its value is validated against. */
    submit: (request: ReviewActionRequest, options?: CallOptions): Promise<ReviewActionResult> =>
      this.review('submit', request, options),
    revise: (request: ReviewActionRequest, options?: CallOptions): Promise<ReviewActionResult> =>
      this.review('revise', request, options),
    withdraw: (
      request: WithdrawReviewRequest,
      options?: CallOptions,
    ): Promise<ReviewActionResult> => this.review('withdraw', request, options),
  };

  /**
   * Review queues: defined (system or admin keys), filled by hand, and worked through by
   * reviewers under leases the server enforces; each verdict goes through the review path.
   */
  readonly reviewQueues = {
    /** The queues in force, each with its progress (`includeArchived` for archived ones too). */
    list: (
      query: { includeArchived?: boolean } = {},
      options?: CallOptions,
    ): Promise<ReviewQueues> => this.call('reviewQueues', { query }, options),
    /** A queue, its progress and each reviewer's. */
    get: (queueId: string, options?: CallOptions): Promise<ReviewQueueDetail> =>
      this.call('reviewQueue', { params: { queueId } }, options),
    /** Sets the workspace's queue whole (restoring an archived one). */
    set: (
      queueId: string,
      request: SetReviewQueueRequest,
      options?: CallOptions,
    ): Promise<ReviewQueueWritten> =>
      this.call('setReviewQueue', { params: { queueId }, body: request }, options),
    /** Archives a queue: it keeps its items, takes no new ones and hands none out. */
    archive: (queueId: string, options?: CallOptions): Promise<ReviewQueueWritten> =>
      this.call('archiveReviewQueue', { params: { queueId } }, options),
    /** Queues targets (or every target a filter selects, on the server), each once. */
    add: (
      queueId: string,
      request: EnqueueRequest,
      options?: CallOptions,
    ): Promise<EnqueueResult> =>
      this.call('enqueue', { params: { queueId }, body: request }, options),
    /** Leases the next item the caller may review; `item` is null when there is none. */
    claim: (queueId: string, options?: CallOptions): Promise<ClaimResult> =>
      this.call('claim', { params: { queueId } }, options),
    /** An item as the reviewer's page shows it (render every text in it as text). */
    item: (queueId: string, itemId: string, options?: CallOptions): Promise<ReviewItemView> =>
      this.call('reviewItem', { params: { queueId, itemId } }, options),
    /** Keeps the caller's lease: it lasts the queue's leaseSeconds from now. */
    heartbeat: (queueId: string, itemId: string, options?: CallOptions): Promise<LeaseResult> =>
      this.call('heartbeat', { params: { queueId, itemId } }, options),
    /** Gives the lease back; the item keeps its place in the queue. */
    release: (queueId: string, itemId: string, options?: CallOptions): Promise<ReleaseResult> =>
      this.call('release', { params: { queueId, itemId } }, options),
    /** Gives the lease back and sends the item to the end of the queue. */
    skip: (queueId: string, itemId: string, options?: CallOptions): Promise<SkipResult> =>
      this.call('skip', { params: { queueId, itemId } }, options),
    /** The caller's verdict on a leased item, through the review path (a retry records once). */
    submit: (
      queueId: string,
      itemId: string,
      request: SubmitReviewItemRequest,
      options?: CallOptions,
    ): Promise<SubmitReviewItemResult> =>
      this.call('submitItem', { params: { queueId, itemId }, body: request }, options),
    /** The caller's verdicts in the queue, latest first; revise or withdraw them with `reviews`. */
    myReviews: (
      queueId: string,
      query: { limit?: number } = {},
      options?: CallOptions,
    ): Promise<MyReviews> => this.call('myReviews', { params: { queueId }, query }, options),
  };

  /** Reviewers' short-lived sign-in tokens for their page, minted with a system or admin key. */
  readonly reviewers = {
    /** A token acting as reviewer:{reviewerId}, and the page's path with it in the fragment. */
    signIn: (
      reviewerId: string,
      request: ReviewerSignInRequest = {},
      options?: CallOptions,
    ): Promise<ReviewerSignIn> =>
      this.call('reviewerSignIn', { params: { reviewerId }, body: request }, options),
  };

  // Scores.

  /** Writes a numeric or boolean score on a trace, as the key's principal. */
  recordScore(request: RecordScoreRequest, options?: CallOptions): Promise<RecordScoreResult> {
    return this.call('recordScore', { body: request }, options);
  }

  /** The score sink's configs: listed, created (never updated) and archived. */
  readonly scoreConfigs = {
    list: (
      query: { includeArchived?: boolean } = {},
      options?: CallOptions,
    ): Promise<ScoreConfigs> => this.call('scoreConfigs', { query }, options),
    create: (request: CreateScoreConfigRequest, options?: CallOptions): Promise<ApiScoreConfig> =>
      this.call('createScoreConfig', { body: request }, options),
    /** Archives a config, or every field config of a HUMAN feedback type's config name. */
    archive: (configId: string, options?: CallOptions): Promise<ScoreConfigs> =>
      this.call(
        'archiveScoreConfig',
        { params: { configId }, body: { isArchived: true } },
        options,
      ),
  };

  /** Counts, means and distributions by population (source, evaluator version, label, name). */
  scoresSummary(query: ScoresSummaryQuery = {}, options?: CallOptions): Promise<ScoresSummary> {
    return this.call('scoresSummary', { query }, options);
  }

  /**
   * What judging cost (`GET /v1/costs`): spend per evaluator version (or evaluator), workspace,
   * UTC day and model, in dollars beside the reports whose cost is unknown (`unpricedReports`).
   */
  costs(request: CostsRequest = {}, options?: CallOptions): Promise<Costs> {
    const { by, ...rest } = request;
    const query = { ...rest, ...(by ? { by: by.join(',') } : {}) };
    return this.call('costs', { query }, options);
  }

  /**
   * How two populations of stored verdicts agree on the same targets (`GET /v1/agreement`):
   * Cohen's κ with its interval, the confusion matrix, base rates, per-label figures (or, for
   * numbers, Pearson, Spearman, MAE, RMSE), and the disagreeing targets.
   */
  agreement(request: AgreementRequest, options?: CallOptions): Promise<Agreement> {
    const { mapping = {}, ...rest } = request;
    const map = Object.entries(mapping).map(([from, to]) => `${from}=${to}`);
    return this.call('agreement', { query: { ...rest, map } }, options);
  }

  /**
   * Sends every target two sides disagree on to a review queue, each once
   * (`POST /v1/review-queues/{queueId}/disagreements`); the system's or an admin's.
   */
  queueDisagreements(
    queueId: string,
    request: QueueDisagreementsRequest,
    options?: CallOptions,
  ): Promise<QueuedDisagreements> {
    return this.call('queueDisagreements', { params: { queueId }, body: request }, options);
  }

  // Reading back.

  /**
   * A run, with each (target, evaluator version)'s ledger state and reason, and the verdicts
   * given on its turn, messages and artifact versions (values, labels, sources, evaluators).
   */
  run(runId: string, options?: CallOptions): Promise<RunWithEvaluations> {
    return this.call('run', { params: { runId } }, options);
  }

  /** A thread, with each generation's ledger state and reason (its evaluators' verdicts). */
  thread(threadId: string, options?: CallOptions): Promise<ThreadWithEvaluations> {
    return this.call('thread', { params: { threadId } }, options);
  }

  /** One page of the evaluation ledger; pass its `nextCursor` as `cursor` for the next. */
  ledger(query: LedgerQuery = {}, options?: CallOptions): Promise<LedgerPage> {
    return this.call('ledger', { query }, options);
  }

  /** Every ledger entry the query selects, page after page (`limit` entries a request). */
  async *ledgerEntries(
    query: Omit<LedgerQuery, 'cursor'> = {},
    options?: CallOptions,
  ): AsyncGenerator<LedgerEntry> {
    let cursor: string | null = null;
    do {
      const page: LedgerPage = await this.ledger(
        cursor === null ? query : { ...query, cursor },
        options,
      );
      yield* page.entries;
      cursor = page.nextCursor;
    } while (cursor !== null);
  }

  /** One page of threads, by id; pass its `nextCursor` as `cursor` for the next. */
  threads(query: ThreadsQuery = {}, options?: CallOptions): Promise<ThreadsPage> {
    return this.call('threads', { query }, options);
  }

  /** One page of runs, newest first, each with its evaluation summary (filters combine). */
  runs(query: RunsQuery = {}, options?: CallOptions): Promise<RunsPage> {
    return this.call('runs', { query }, options);
  }

  // Re-evaluation.

  /**
   * Batch re-evaluation with pinned evaluator versions: of artifact versions, or a backfill of
   * runs (turns), messages or threads, with a preview and a budget.
   */
  readonly reevaluations = {
    /** What a batch would judge, cost and take, without starting it (null: not known). */
    preview: (
      request: PreviewReevaluationRequest,
      options?: CallOptions,
    ): Promise<ReevaluationPreview> => this.call('previewReevaluation', { body: request }, options),
    /** Starts a batch; a retry of the same call (its Idempotency-Key) names the same batch. */
    start: (
      request: StartReevaluationRequest,
      options?: CallOptions,
    ): Promise<StartReevaluationResult> =>
      this.call('startReevaluation', { body: request }, options),
    progress: (id: string, options?: CallOptions): Promise<ReevaluationProgress> =>
      this.call('reevaluation', { params: { id } }, options),
    pause: (id: string, options?: CallOptions): Promise<ReevaluationProgress> =>
      this.call('pauseReevaluation', { params: { id } }, options),
    resume: (id: string, options?: CallOptions): Promise<ReevaluationProgress> =>
      this.call('resumeReevaluation', { params: { id } }, options),
    /** Sets a budgeted batch's budget; paused by its budget, it resumes when above its spend. */
    setBudget: (
      id: string,
      maxCostUsd: number,
      options?: CallOptions,
    ): Promise<ReevaluationProgress> =>
      this.call('setReevaluationBudget', { params: { id }, body: { maxCostUsd } }, options),
    /** Stops scheduling; evaluations in flight finish, then the batch is `finished`. */
    cancel: (id: string, options?: CallOptions): Promise<ReevaluationProgress> =>
      this.call('cancelReevaluation', { params: { id } }, options),
    /** Polls the progress every `intervalMs`, yielding each, until the batch has finished. */
    watch: (id: string, options?: WatchOptions): AsyncGenerator<ReevaluationProgress> =>
      this.watchBatch(id, options),
  };

  // Rules and tokens.

  /** The evaluation rules in force in the key's workspace, and where each comes from. */
  readonly evaluationRules = {
    list: (options?: CallOptions): Promise<EvaluationRules> => this.call('rules', {}, options),
    /**
     * Promotes a version on the agreement measured now (an admin's): refused with the figures
     * (409, `evidence` on the error's body) when they are short of the thresholds, unless `force`.
     */
    promote: (
      evaluator: string,
      request: PromoteRequest,
      options?: CallOptions,
    ): Promise<PromoteResult> =>
      this.call('promote', { params: { evaluator }, body: request }, options),
    /** Sets the workspace's rule for one evaluator version (`name@version`); an admin's. */
    set: (
      evaluator: string,
      request: SetRuleRequest,
      options?: CallOptions,
    ): Promise<WriteResult> =>
      this.call('setRule', { params: { evaluator }, body: request }, options),
  };

  /** LLM judges' versions: those the app declares in code and those recorded in the workspace. */
  readonly judgeVersions = {
    list: (options?: CallOptions): Promise<JudgeVersions> =>
      this.call('judgeVersions', {}, options),
    /** A version recorded in the workspace, with its examples' provenance and held-out targets. */
    get: (version: string, options?: CallOptions): Promise<RecordedJudgeVersion> =>
      this.call('judgeVersion', { params: { version } }, options),
    /** Records a candidate version of an LLM judge tuned from its reviewers' verdicts. */
    tune: (
      version: string,
      request: TuneJudgeRequest,
      options?: CallOptions,
    ): Promise<TunedJudge> =>
      this.call('tuneJudge', { params: { version }, body: request }, options),
    /** A recorded version against its base on its held-out targets, from their stored verdicts. */
    backtest: (
      version: string,
      query: JudgeBacktestQuery,
      options?: CallOptions,
    ): Promise<JudgeBacktest> =>
      this.call('judgeBacktest', { params: { version }, query }, options),
  };

  /**
   * Budgets: those in force in the key's workspace (the config's and its own) with their
   * period's spend, and the workspace's own set, removed and audited by its admins.
   */
  readonly budgets = {
    list: (options?: CallOptions): Promise<Budgets> => this.call('budgets', {}, options),
    set: (budgetId: string, request: SetBudgetRequest, options?: CallOptions): Promise<Budgets> =>
      this.call('setBudget', { params: { budgetId }, body: request }, options),
    remove: (budgetId: string, options?: CallOptions): Promise<Budgets> =>
      this.call('removeBudget', { params: { budgetId } }, options),
    /** Every change of one of the workspace's own budgets, oldest first. */
    changes: (budgetId: string, options?: CallOptions): Promise<BudgetChanges> =>
      this.call('budgetChanges', { params: { budgetId } }, options),
  };

  /** Short-lived tokens acting as one end user, minted with the system key. */
  readonly userTokens = {
    create: (request: CreateUserTokenRequest, options?: CallOptions): Promise<UserToken> =>
      this.call('createUserToken', { body: request }, options),
  };

  // Events.

  /**
   * The workspace's events (or one thread's, with `threadId`) as server-sent events: an async
   * iterator of envelopes that resumes after a dropped connection from the last event seen.
   */
  events(options: EventStreamOptions = {}): EventStream {
    const { threadId } = options;
    const path =
      threadId === undefined ? this.pathOf('events') : this.pathOf('threadEvents', { threadId });
    return new EventStream(this.transport, path, options);
  }

  /** A route's path with its params filled in, each encoded. */
  private pathOf(name: RouteName, params: Readonly<Record<string, string>> = {}): string {
    return ROUTE_TABLE[name].path.replace(/:(\w+)/g, (_, param: string) => at(params[param] ?? ''));
  }

  private review(
    action: 'submit' | 'revise' | 'withdraw',
    request: ReviewActionRequest,
    options: CallOptions | undefined,
  ): Promise<ReviewActionResult> {
    return this.call('review', { body: { action, ...request } }, options);
  }

  private async *watchBatch(
    id: string,
    { intervalMs = 1000, signal }: WatchOptions = {},
  ): AsyncGenerator<ReevaluationProgress> {
    for (;;) {
      const progress = await this.reevaluations.progress(id, signal ? { signal } : {});
      yield progress;
      if (progress.finished) return;
      await sleep(intervalMs, signal);
    }
  }
}
