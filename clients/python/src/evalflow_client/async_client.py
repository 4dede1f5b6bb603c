"""The asynchronous client: the same methods as ``EvalflowClient``, awaited (asyncio or trio)."""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Mapping, Sequence
from datetime import date, datetime
from typing import Any, Literal, TypeVar

import anyio
import httpx

from . import _exchange as x
from . import models as m
from . import routes
from .errors import EvalflowConnectionError, RejectionError
from .retry import RetryPolicy
from .sse import SseParser

T = TypeVar("T")
TargetLike = m.TurnTarget | m.MessageTarget | m.ArtifactTarget | m.ThreadTarget | Mapping[str, Any]


class AsyncEvalflowClient:
    """evalflow's HTTP API as one key's principal (system, agent, user, reviewer, ...).

    Every call retries server faults (5xx), rate limits (429) and network errors with jittered
    exponential backoff that honours Retry-After (``retry`` sets how); every write sends an
    Idempotency-Key, the same on each retry, so it is recorded once. Pass ``idempotency_key`` to
    choose it yourself, say to retry a write after your own process restarted. A refusal raises
    a ``RejectionError`` (``NotFoundError``, ``ConflictError``, ...) carrying the status and body.

    ``timeout`` applies to the client's own connection pool; one passed as ``http_client`` keeps
    its settings. Use it as an async context manager, or await ``close()``.
    """

    def __init__(
        self,
        base_url: str,
        key: str,
        *,
        timeout: float | httpx.Timeout | None = None,
        retry: RetryPolicy | None = None,
        http_client: httpx.AsyncClient | None = None,
        sleep: Callable[[float], Awaitable[None]] = anyio.sleep,
    ) -> None:
        self._base_url = base_url.rstrip("/")
        self._key = key
        self._retry = retry or RetryPolicy()
        self._sleep = sleep
        self._owns_http = http_client is None
        self._http = http_client or httpx.AsyncClient(
            timeout=timeout if timeout is not None else x.DEFAULT_TIMEOUT
        )

    def with_key(self, key: str) -> AsyncEvalflowClient:
        """A client acting as another key's principal, sharing this one's connections."""
        return AsyncEvalflowClient(
            self._base_url, key, retry=self._retry, http_client=self._http, sleep=self._sleep
        )

    async def close(self) -> None:
        if self._owns_http:
            await self._http.aclose()

    async def __aenter__(self) -> AsyncEvalflowClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # Sending, with the retries.

    async def _send(self, call: routes.Call[T], idempotency_key: str | None = None) -> T:
        headers = {**x.base_headers(self._key), **x.call_headers(call, idempotency_key)}
        retry = 0
        while True:
            try:
                response = await self._http.request(
                    call.route.method,
                    self._base_url + call.url,
                    params=call.query,
                    json=call.body,
                    headers=headers,
                )
            except httpx.TransportError as error:
                wait = self._retry.delay(retry) if x.retryable(error) else None
                if wait is None:
                    raise EvalflowConnectionError(
                        f"{call.route.method} {call.url}: {error!r} after {retry + 1} tries"
                    ) from error
            else:
                if not x.should_retry(call, response):
                    return x.result(call, response)
                wait = self._retry.delay(retry, x.retry_after(response))
                if wait is None:
                    raise x.refusal(response)
            await self._sleep(wait)
            retry += 1

    # Health.

    async def health(self) -> m.Health:
        """Liveness: the API process is up."""
        return await self._send(routes.HEALTH.call())

    async def ready(self) -> m.Health:
        """Readiness: the store and Temporal answer (``status`` is ``unavailable`` otherwise)."""
        return await self._send(routes.READY.call())

    async def openapi(self) -> dict[str, Any]:
        """The API's OpenAPI 3.1 document."""
        return await self._send(routes.OPENAPI.call())

    # Lifecycle: what the host reports.

    async def create_thread(
        self, thread_id: str, *, title: str | None = None, idempotency_key: str | None = None
    ) -> m.ThreadCreated:
        return await self._send(routes.create_thread(thread_id, title), idempotency_key)

    async def start_run(
        self,
        thread_id: str,
        run_id: str,
        *,
        trace_id: str | None = None,
        started_at: datetime | str | None = None,
        idempotency_key: str | None = None,
    ) -> m.RunStarted:
        """Start a run, or resume a paused one (its trace id appended); ``resumed`` tells which.

        ``started_at`` (here, ``ended_at`` and ``posted_at``: an aware datetime or ISO-8601 with
        a zone) is when it happened, for history sent late; at most 5 minutes ahead of the
        server's clock. Without it, the server's clock."""
        call = routes.start_run(thread_id, run_id, trace_id, started_at)
        return await self._send(call, idempotency_key)

    async def pause_run(
        self, run_id: str, *, reason: str | None = None, idempotency_key: str | None = None
    ) -> m.Written:
        return await self._send(routes.pause_run(run_id, reason), idempotency_key)

    async def end_thread(self, thread_id: str, *, idempotency_key: str | None = None) -> m.Written:
        """End a thread: its thread evaluators judge it now; a later run or message reopens it."""
        return await self._send(routes.end_thread(thread_id), idempotency_key)

    async def end_run(
        self,
        run_id: str,
        status: m.RunEndStatus = "completed",
        *,
        ended_at: datetime | str | None = None,
        idempotency_key: str | None = None,
    ) -> m.Written:
        """End a run; its evaluators then judge it. ``ended_at``: when, as ``start_run``'s."""
        return await self._send(routes.end_run(run_id, status, ended_at), idempotency_key)

    async def post_message(
        self,
        thread_id: str,
        role: m.Role,
        content: str,
        *,
        message_id: str | None = None,
        run_id: str | None = None,
        posted_at: datetime | str | None = None,
        idempotency_key: str | None = None,
    ) -> m.MessagePosted:
        """Post a message; without ``message_id`` the API names it (``message_id`` answered).
        ``posted_at``: when it was sent, as ``start_run``'s ``started_at``."""
        call = routes.post_message(thread_id, role, content, message_id, run_id, posted_at)
        return await self._send(call, idempotency_key)

    async def put_artifact(
        self,
        artifact_id: str,
        kind: str,
        data: Any = None,
        *,
        run_id: str | None = None,
        trace_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> m.ArtifactPut:
        """Put a new version of an artifact (an agent key names the run that produced it)."""
        call = routes.put_artifact(artifact_id, kind, data, run_id, trace_id)
        return await self._send(call, idempotency_key)

    async def archive_artifact(
        self, artifact_id: str, *, idempotency_key: str | None = None
    ) -> m.Written:
        return await self._send(routes.archive_artifact(artifact_id), idempotency_key)

    # Feedback, ratings and the conversation.

    async def give_feedback(
        self,
        feedback_type: str,
        target: TargetLike,
        value: Mapping[str, Any] | None = None,
        *,
        source: m.ScoreSource | None = None,
        source_label: str | None = None,
        idempotency_key: str | None = None,
    ) -> m.Written:
        """Feedback as the key's principal (system, agent or evaluator keys)."""
        call = routes.give_feedback(feedback_type, target, value, source, source_label)
        return await self._send(call, idempotency_key)

    async def rate_message(
        self,
        thread_id: str,
        message_id: str,
        feedback_type: str,
        value: Mapping[str, Any],
        *,
        idempotency_key: str | None = None,
    ) -> m.Rating:
        """Create or replace the caller's own rating of an assistant message (a user's key)."""
        call = routes.rate_message(thread_id, message_id, feedback_type, value)
        return await self._send(call, idempotency_key)

    async def delete_rating(
        self,
        thread_id: str,
        message_id: str,
        feedback_type: str,
        *,
        idempotency_key: str | None = None,
    ) -> m.RatingRemoval:
        """Remove the caller's own rating; an absent one is a success with ``removed`` False."""
        call = routes.delete_rating(thread_id, message_id, feedback_type)
        return await self._send(call, idempotency_key)

    async def conversation(self, thread_id: str) -> m.Conversation:
        """The thread's messages, each assistant message with its feedback."""
        return await self._send(routes.conversation(thread_id))

    # Reviews, scores and score configs.

    async def submit_review(
        self,
        target: TargetLike,
        feedback_type: str,
        value: Mapping[str, Any],
        *,
        config_id: str,
        idempotency_key: str | None = None,
    ) -> m.ReviewOutcome:
        """A reviewer's first review of a target, validated against score config ``config_id``."""
        call = routes.review("submit", target, feedback_type, value, config_id)
        return await self._send(call, idempotency_key)

    async def revise_review(
        self,
        target: TargetLike,
        feedback_type: str,
        value: Mapping[str, Any],
        *,
        config_id: str,
        idempotency_key: str | None = None,
    ) -> m.ReviewOutcome:
        call = routes.review("revise", target, feedback_type, value, config_id)
        return await self._send(call, idempotency_key)

    async def withdraw_review(
        self, target: TargetLike, feedback_type: str, *, idempotency_key: str | None = None
    ) -> m.ReviewOutcome:
        call = routes.review("withdraw", target, feedback_type, None, None)
        return await self._send(call, idempotency_key)

    async def record_score(
        self,
        trace_id: str,
        name: str,
        value: float | bool,
        *,
        source: m.ScoreSource = "SCORE_SOURCE_HARNESS",
        config_id: str | None = None,
        source_label: str | None = None,
        comment: str | None = None,
        idempotency_key: str | None = None,
    ) -> m.ScoreRecorded:
        """A numeric or boolean score on a trace; the same trace, rater and name replaces it."""
        call = routes.record_score(trace_id, name, value, source, config_id, source_label, comment)
        return await self._send(call, idempotency_key)

    async def score_configs(self, *, include_archived: bool = False) -> list[m.ScoreConfig]:
        return (await self._send(routes.score_configs(include_archived))).configs

    async def create_score_config(
        self,
        name: str,
        data_type: m.ScoreDataType,
        *,
        min_value: float | None = None,
        max_value: float | None = None,
        categories: Sequence[str] | None = None,
        description: str | None = None,
        idempotency_key: str | None = None,
    ) -> m.ScoreConfig:
        call = routes.create_score_config(
            name, data_type, min_value, max_value, categories, description
        )
        return await self._send(call, idempotency_key)

    async def archive_score_config(
        self, config_id: str, *, idempotency_key: str | None = None
    ) -> list[m.ScoreConfig]:
        """Retire a config (a HUMAN type's name retires all its field configs); never undone."""
        return (await self._send(routes.archive_score_config(config_id), idempotency_key)).configs

    # Reading back.

    async def run(self, run_id: str) -> m.RunReport:
        """A run, each of its evaluations' ledger state with its reason, and its verdicts."""
        return await self._send(routes.run(run_id))

    async def thread(self, thread_id: str) -> m.ThreadReport:
        """A thread and each generation of it its evaluators judged, oldest first."""
        return await self._send(routes.thread(thread_id))

    async def ledger_page(
        self,
        *,
        run_id: str | None = None,
        thread_id: str | None = None,
        state: m.EvaluationState | None = None,
        cursor: str | None = None,
        limit: int | None = None,
    ) -> m.LedgerPage:
        return await self._send(routes.ledger(run_id, state, cursor, limit, thread_id))

    async def ledger(
        self,
        *,
        run_id: str | None = None,
        thread_id: str | None = None,
        state: m.EvaluationState | None = None,
        page_size: int | None = None,
    ) -> AsyncIterator[m.LedgerEntry]:
        """Every ledger entry, oldest key first, fetching page after page as you iterate."""
        cursor: str | None = None
        while True:
            page = await self.ledger_page(
                run_id=run_id, thread_id=thread_id, state=state, cursor=cursor, limit=page_size
            )
            for entry in page.entries:
                yield entry
            if page.next_cursor is None:
                return
            cursor = page.next_cursor

    async def threads_page(
        self, *, cursor: str | None = None, limit: int | None = None
    ) -> m.ThreadsPage:
        """One page of threads, by id; pass its ``next_cursor`` as ``cursor`` for the next."""
        return await self._send(routes.threads(cursor, limit))

    async def threads(self, *, page_size: int | None = None) -> AsyncIterator[m.Thread]:
        """Every thread, by id, fetching page after page as you iterate."""
        cursor: str | None = None
        while True:
            page = await self.threads_page(cursor=cursor, limit=page_size)
            for thread in page.threads:
                yield thread
            if page.next_cursor is None:
                return
            cursor = page.next_cursor

    async def runs_page(
        self,
        *,
        thread_id: str | None = None,
        trace_id: str | None = None,
        status: m.RunStatus | None = None,
        started_from: datetime | str | None = None,
        started_before: datetime | str | None = None,
        ended_from: datetime | str | None = None,
        ended_before: datetime | str | None = None,
        cursor: str | None = None,
        limit: int | None = None,
    ) -> m.RunsPage:
        """One page of runs, newest first, each with its evaluation summary."""
        return await self._send(
            routes.runs(
                thread_id,
                trace_id,
                status,
                started_from,
                started_before,
                ended_from,
                ended_before,
                cursor,
                limit,
            )
        )

    async def runs(
        self,
        *,
        thread_id: str | None = None,
        trace_id: str | None = None,
        status: m.RunStatus | None = None,
        started_from: datetime | str | None = None,
        started_before: datetime | str | None = None,
        ended_from: datetime | str | None = None,
        ended_before: datetime | str | None = None,
        page_size: int | None = None,
    ) -> AsyncIterator[m.ListedRun]:
        """Every run the filters select, newest first, fetching page after page."""
        cursor: str | None = None
        while True:
            page = await self.runs_page(
                thread_id=thread_id,
                trace_id=trace_id,
                status=status,
                started_from=started_from,
                started_before=started_before,
                ended_from=ended_from,
                ended_before=ended_before,
                cursor=cursor,
                limit=page_size,
            )
            for run in page.runs:
                yield run
            if page.next_cursor is None:
                return
            cursor = page.next_cursor

    async def score_summary(
        self,
        *,
        source: m.ScoreSource | None = None,
        name: str | None = None,
        from_: datetime | str | None = None,
        to: datetime | str | None = None,
        include_shadow: bool | None = None,
        per: Literal["day"] | None = None,
    ) -> m.ScoreSummary:
        """Counts, means and distributions by population (source, evaluator version, label).

        Shadow versions' verdicts are left out unless ``include_shadow``, then grouped apart;
        ``per="day"`` splits each group by the UTC day its feedback was last given on (``day``).
        """
        return await self._send(routes.score_summary(source, name, from_, to, include_shadow, per))

    # Agreement over stored verdicts, and promotions on it.

    async def agreement(
        self,
        a: str,
        b: str,
        *,
        mapping: Mapping[str, str] | None = None,
        from_: datetime | str | None = None,
        to: datetime | str | None = None,
        target_kind: m.EvaluatedKind | None = None,
        limit: int | None = None,
    ) -> m.Agreement:
        """How two populations of stored verdicts agree on the same targets.

        Sides are written ``politeness@2:polite``, ``reviewers[:type.field]``,
        ``reviewer:ID[:type.field]`` or ``users[:type.field]``; ``mapping`` renames labels on both
        sides (``{"pass": "true"}``).
        """
        call = routes.agreement(a, b, mapping, from_, to, target_kind, limit)
        return await self._send(call)

    async def costs(
        self,
        *,
        by: Sequence[m.CostDimension] | None = None,
        from_: date | str | None = None,
        to: date | str | None = None,
        evaluator: str | None = None,
        workspace: str | None = None,
    ) -> m.Costs:
        """What judging cost: spend per evaluator version (or evaluator), workspace, UTC day and
        model, in dollars beside the reports whose cost is unknown (``unpriced_reports``).

        ``by`` is a list of ``version``, ``evaluator``, ``workspace``, ``day``, ``model`` (the API's
        default: version and day); ``from_`` and ``to`` are UTC days, both included;
        ``evaluator`` is ``name`` or ``name@version``; ``workspace`` is for the system's key.
        """
        call = routes.costs(by, from_, to, evaluator, workspace)
        return await self._send(call)

    async def queue_disagreements(
        self,
        queue_id: str,
        a: str,
        b: str,
        *,
        mapping: Mapping[str, str] | None = None,
        from_: datetime | str | None = None,
        to: datetime | str | None = None,
        target_kind: m.EvaluatedKind | None = None,
        idempotency_key: str | None = None,
    ) -> m.QueuedDisagreements:
        """Send every target the two sides disagree on to a review queue, each once."""
        call = routes.queue_disagreements(queue_id, a, b, mapping, from_, to, target_kind)
        return await self._send(call, idempotency_key)

    async def promote(
        self,
        evaluator: str,
        *,
        against: str,
        min_kappa: float,
        min_matched: int,
        replacing: str | None = None,
        field: str | None = None,
        mapping: Mapping[str, str] | None = None,
        from_: datetime | str | None = None,
        to: datetime | str | None = None,
        target_kind: m.EvaluatedKind | None = None,
        force: bool | None = None,
        backtest: bool | None = None,
        idempotency_key: str | None = None,
    ) -> m.Promoted:
        """Promote a version on its agreement measured now (an admin key).

        With ``backtest``, a tuned version is measured on its held-out targets alone, beside
        the version it was tuned from, which it replaces. Short evidence is an
        ``EvalflowApiError`` (409) whose body carries ``evidence``.
        """
        call = routes.promote(
            evaluator,
            against,
            min_kappa,
            min_matched,
            replacing,
            field,
            mapping,
            from_,
            to,
            target_kind,
            force,
            backtest,
        )
        return await self._send(call, idempotency_key)

    # Rules and re-evaluations.

    async def budgets(self) -> list[m.Budget]:
        """The budgets in force in this workspace (the config's and its own), each with its
        current period's spend and what calls in flight hold reserved."""
        return (await self._send(routes.budgets())).budgets

    async def set_budget(
        self,
        budget_id: str,
        evaluator: str,
        period: m.BudgetPeriod,
        limit_usd: float,
        on_exhausted: Literal["skip", "defer"],
    ) -> list[m.Budget]:
        """Set one of this workspace's own budgets (an admin key); every change is kept."""
        settings = m.BudgetSettings(
            evaluator=evaluator, period=period, limit_usd=limit_usd, on_exhausted=on_exhausted
        )
        return (await self._send(routes.set_budget(budget_id, settings))).budgets

    async def delete_budget(self, budget_id: str) -> list[m.Budget]:
        """Remove one of this workspace's own budgets; the config's stay in force."""
        return (await self._send(routes.delete_budget(budget_id))).budgets

    async def budget_changes(self, budget_id: str) -> list[m.BudgetChange]:
        """Every change of one of this workspace's own budgets, oldest first."""
        return (await self._send(routes.budget_changes(budget_id))).changes

    async def rules(self) -> list[m.Rule]:
        """The rules in force in this workspace, each with where it comes from."""
        return (await self._send(routes.rules())).rules

    async def judge_versions(self) -> list[m.JudgeVersion]:
        """The LLM judges' versions: declared in code, and recorded as data in this workspace."""
        return (await self._send(routes.judge_versions())).versions

    async def tune_judge(
        self,
        version: str,
        against: str,
        *,
        field: str | None = None,
        as_version: str | None = None,
        held_out_share: float | None = None,
        seed: int | None = None,
        max_examples: int | None = None,
    ) -> m.TunedJudge:
        """Record a candidate version of an LLM judge tuned from the reviewers' verdicts
        (``against``: ``reviewers:type.field``): examples from a seeded, stratified training part,
        the rest held out for its backtest."""
        call = routes.tune_judge(
            version, against, field, as_version, held_out_share, seed, max_examples
        )
        return await self._send(call)

    async def judge_version(self, version: str) -> m.RecordedJudgeVersion:
        """A judge version recorded in the workspace, with its examples and held-out targets."""
        return await self._send(routes.judge_version(version))

    async def judge_backtest(
        self, version: str, against: str, *, field: str | None = None
    ) -> m.Backtest:
        """A recorded judge version against its base on its held-out targets (``against``:
        ``reviewers:type.field``), from the verdicts stored on them."""
        return await self._send(routes.judge_backtest(version, against, field))

    async def set_rule(
        self,
        evaluator: str,
        targets: Sequence[m.EvaluatedKind],
        *,
        sample_rate: float | None = None,
        workspaces: Sequence[str] | None = None,
        artifact_kinds: Sequence[str] | None = None,
        enabled: bool | None = None,
        idle_for: str | None = None,
        idempotency_key: str | None = None,
    ) -> m.Written:
        """Set this workspace's rule for one evaluator version (an admin key); later runs follow.

        ``idle_for`` (``"30m"``, ``"1h30m"``) is how long a thread is quiet before a rule that
        targets threads judges it.
        """
        call = routes.set_rule(
            evaluator, targets, sample_rate, workspaces, artifact_kinds, enabled, idle_for
        )
        return await self._send(call, idempotency_key)

    async def start_reevaluation(
        self,
        evaluators: Sequence[str],
        selector: m.ArtifactSelector | None = None,
        *,
        selection: m.BackfillSelection | None = None,
        concurrency: int | None = None,
        max_cost_usd: float | None = None,
        idempotency_key: str | None = None,
    ) -> m.ReevaluationStarted:
        """Judge the selected artifact versions (or a backfill's runs, messages or threads) again
        with pinned evaluator versions; with ``max_cost_usd`` it pauses when its spend reaches it.
        """
        call = routes.start_reevaluation(evaluators, selector, concurrency, selection, max_cost_usd)
        return await self._send(call, idempotency_key)

    async def preview_reevaluation(
        self,
        evaluators: Sequence[str],
        selector: m.ArtifactSelector | None = None,
        *,
        selection: m.BackfillSelection | None = None,
        concurrency: int | None = None,
    ) -> m.ReevaluationPreview:
        """What the batch would judge, cost and take (None: not known), without starting it."""
        call = routes.preview_reevaluation(evaluators, selector, selection, concurrency)
        return await self._send(call)

    async def set_reevaluation_budget(
        self, batch_id: str, max_cost_usd: float, *, idempotency_key: str | None = None
    ) -> m.ReevaluationProgress:
        """A budgeted batch's new budget: paused by its budget, it resumes when above its spend."""
        call = routes.set_reevaluation_budget(batch_id, max_cost_usd)
        return await self._send(call, idempotency_key)

    async def reevaluation(self, batch_id: str) -> m.ReevaluationProgress:
        return await self._send(routes.reevaluation(batch_id))

    async def pause_reevaluation(
        self, batch_id: str, *, idempotency_key: str | None = None
    ) -> m.ReevaluationProgress:
        return await self._send(routes.control_reevaluation(batch_id, "pause"), idempotency_key)

    async def resume_reevaluation(
        self, batch_id: str, *, idempotency_key: str | None = None
    ) -> m.ReevaluationProgress:
        return await self._send(routes.control_reevaluation(batch_id, "resume"), idempotency_key)

    async def cancel_reevaluation(
        self, batch_id: str, *, idempotency_key: str | None = None
    ) -> m.ReevaluationProgress:
        return await self._send(routes.control_reevaluation(batch_id, "cancel"), idempotency_key)

    # Review queues and reviewers' sign-in tokens.

    async def review_queues(
        self, *, include_archived: bool = False
    ) -> list[m.ReviewQueueWithProgress]:
        """The review queues in force in this workspace, each with its progress."""
        return (await self._send(routes.review_queues(include_archived))).queues

    async def review_queue(self, queue_id: str) -> m.ReviewQueueDetail:
        """A queue, its progress and each reviewer's."""
        return await self._send(routes.review_queue(queue_id))

    async def set_review_queue(
        self,
        queue_id: str,
        feedback_type: str,
        *,
        instructions: str | None = None,
        target_kinds: Sequence[m.TargetKind] | None = None,
        reviewers_per_item: int | None = None,
        blind: bool | None = None,
        show_automated_verdicts: bool | None = None,
        lease_seconds: int | None = None,
        routing: Sequence[m.RoutingRule | Mapping[str, Any]] | None = None,
        idempotency_key: str | None = None,
    ) -> m.ReviewQueueWritten:
        """Set this workspace's queue whole (a system or admin key); restores an archived one."""
        call = routes.set_review_queue(
            queue_id,
            feedback_type,
            instructions,
            target_kinds,
            reviewers_per_item,
            blind,
            show_automated_verdicts,
            lease_seconds,
            routing,
        )
        return await self._send(call, idempotency_key)

    async def archive_review_queue(
        self, queue_id: str, *, idempotency_key: str | None = None
    ) -> m.ReviewQueueWritten:
        """Archive a queue: it keeps its items, takes no new ones and hands none out."""
        return await self._send(routes.archive_review_queue(queue_id), idempotency_key)

    async def add_to_review_queue(
        self,
        queue_id: str,
        targets: Sequence[TargetLike] | None = None,
        *,
        filter: m.ItemFilter | Mapping[str, Any] | None = None,
        limit: int | None = None,
        idempotency_key: str | None = None,
    ) -> m.Enqueued:
        """Queue targets, or every target a filter selects (on the server); each once."""
        return await self._send(routes.enqueue(queue_id, targets, filter, limit), idempotency_key)

    async def claim(
        self, queue_id: str, *, idempotency_key: str | None = None
    ) -> m.ClaimedItem | None:
        """Lease the next item the caller (a reviewer) may review; None when there is none."""
        return (await self._send(routes.claim(queue_id), idempotency_key)).item

    async def review_item(self, queue_id: str, item_id: str) -> m.ItemView:
        """An item as the reviewer's page shows it; every text in it is untrusted input."""
        return await self._send(routes.review_item(queue_id, item_id))

    async def heartbeat(
        self, queue_id: str, item_id: str, *, idempotency_key: str | None = None
    ) -> m.Lease:
        """Keep the caller's lease: it lasts the queue's lease_seconds from now."""
        return await self._send(routes.heartbeat(queue_id, item_id), idempotency_key)

    async def release(
        self, queue_id: str, item_id: str, *, idempotency_key: str | None = None
    ) -> m.Released:
        """Give the lease back; the item keeps its place in the queue."""
        return await self._send(routes.release(queue_id, item_id), idempotency_key)

    async def skip(
        self, queue_id: str, item_id: str, *, idempotency_key: str | None = None
    ) -> m.Skipped:
        """Give the lease back and send the item to the end of the queue."""
        return await self._send(routes.skip(queue_id, item_id), idempotency_key)

    async def submit_item(
        self,
        queue_id: str,
        item_id: str,
        value: Mapping[str, Any],
        *,
        config_id: str,
        idempotency_key: str | None = None,
    ) -> m.ItemSubmitted:
        """The caller's verdict on a leased item, through the review path; a retry records once."""
        call = routes.submit_item(queue_id, item_id, value, config_id)
        return await self._send(call, idempotency_key)

    async def my_reviews(self, queue_id: str, *, limit: int | None = None) -> list[m.MyReview]:
        """The caller's verdicts in the queue, latest first (revise or withdraw with reviews)."""
        return (await self._send(routes.my_reviews(queue_id, limit))).reviews

    async def reviewer_sign_in(
        self,
        reviewer_id: str,
        *,
        expires_in_seconds: int | None = None,
        idempotency_key: str | None = None,
    ) -> m.SignIn:
        """A short-lived sign-in token for ``reviewer:{reviewer_id}`` (a system or admin key)."""
        call = routes.reviewer_sign_in(reviewer_id, expires_in_seconds)
        return await self._send(call, idempotency_key)

    # Credentials and events.

    async def create_user_token(
        self,
        user_id: str,
        *,
        name: str | None = None,
        ttl_seconds: int | None = None,
        idempotency_key: str | None = None,
    ) -> m.UserToken:
        """A short-lived token acting as ``user:{user_id}`` (a system key)."""
        call = routes.create_user_token(user_id, name, ttl_seconds)
        return await self._send(call, idempotency_key)

    def events(self, *, after: int | None = None, thread_id: str | None = None) -> AsyncEventStream:
        """The workspace's (or one thread's) events, from after seq ``after``, as they happen.

        A dropped stream reconnects by itself with Last-Event-ID, so no event is missed or seen
        twice; ``last_event_id`` on the stream is the seq to resume after another time.
        """
        return AsyncEventStream(self, routes.events(thread_id), after)


class AsyncEventStream(AsyncIterator[m.Event]):
    """Events as they happen; ``async for`` them, and ``aclose()`` (or leave the ``async with``)."""

    def __init__(
        self, client: AsyncEvalflowClient, call: routes.Call[None], after: int | None
    ) -> None:
        self._client = client
        self._call = call
        #: The seq of the last event seen: a new stream given it as ``after`` resumes here.
        self.last_event_id = after
        self._events = self._follow()

    def __aiter__(self) -> AsyncEventStream:
        return self

    async def __anext__(self) -> m.Event:
        return await self._events.__anext__()

    async def aclose(self) -> None:
        await self._events.aclose()

    async def __aenter__(self) -> AsyncEventStream:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def _follow(self) -> AsyncGenerator[m.Event, None]:
        client = self._client
        failures = 0
        while True:
            headers = {**x.base_headers(client._key), "Accept": "text/event-stream"}
            if self.last_event_id is not None:
                headers["Last-Event-ID"] = str(self.last_event_id)
            failure: BaseException
            wait_hint: float | None = None
            try:
                async with client._http.stream(
                    "GET",
                    client._base_url + self._call.url,
                    headers=headers,
                    timeout=x.STREAM_TIMEOUT,
                ) as response:
                    if response.status_code != 200:
                        await response.aread()
                        if not x.should_retry(self._call, response):
                            raise x.refusal(response)
                        failure, wait_hint = x.refusal(response), x.retry_after(response)
                    else:
                        parser = SseParser()
                        async for line in response.aiter_lines():
                            frame = parser.feed(line)
                            if frame is None:
                                continue
                            event = m.Event.model_validate_json(frame.data)
                            self.last_event_id = event.seq
                            failures = 0
                            yield event
                        failure = EvalflowConnectionError("the event stream ended")
            except httpx.TransportError as error:
                if not x.retryable(error):
                    raise EvalflowConnectionError(f"GET {self._call.url}: {error!r}") from error
                failure = error
            wait = client._retry.delay(failures, wait_hint)
            if wait is None:
                if isinstance(failure, RejectionError):
                    raise failure
                raise EvalflowConnectionError(
                    f"GET {self._call.url}: no events after {failures + 1} tries: {failure!r}"
                ) from failure
            await client._sleep(wait)
            failures += 1
