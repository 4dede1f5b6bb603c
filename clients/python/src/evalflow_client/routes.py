"""Every route of the API once: its method, path and answer's model, and how each call's arguments
become the path, query and camelCase body. The sync and async clients both send these calls, so
the two cannot drift apart, and a test checks the list against the API's OpenAPI document."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Generic, Literal, TypeVar, cast
from urllib.parse import quote

from pydantic import BaseModel, TypeAdapter

from . import models as m

T = TypeVar("T")

_target = TypeAdapter(m.Target)
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


@dataclass(frozen=True)
class Route(Generic[T]):
    """One operation of the API: ``path`` is its OpenAPI template (``/v1/runs/{runId}``)."""

    method: str
    path: str
    #: The model of its success body; None for a stream or a raw document.
    model: type[T] | None
    #: Answers besides 2xx that still carry the model (readiness answers 503 with its checks).
    also_ok: frozenset[int] = frozenset()

    def call(
        self,
        path: Mapping[str, str] | None = None,
        query: Mapping[str, Any] | None = None,
        body: Mapping[str, Any] | None = None,
    ) -> Call[T]:
        url = self.path.format(**{k: quote(v, safe="") for k, v in (path or {}).items()})
        return Call(self, url, _present(query or {}), None if body is None else _present(body))


@dataclass(frozen=True)
class Call(Generic[T]):
    """A route with its arguments, ready to send (and to send again, unchanged, on a retry)."""

    route: Route[T]
    url: str
    query: dict[str, Any] = field(default_factory=dict)
    body: dict[str, Any] | None = None

    @property
    def is_write(self) -> bool:
        return self.route.method in WRITES

    def parse(self, payload: Any) -> T:
        model = self.route.model
        if model is None:
            return cast(T, payload)  # a raw document, or a stream's nothing
        if issubclass(model, BaseModel):
            return cast(T, model.model_validate(payload))
        return TypeAdapter(model).validate_python(payload)


def _present(values: Mapping[str, Any]) -> dict[str, Any]:
    """The values given: None means "not sent", so the API applies its default."""
    return {k: _wire(v) for k, v in values.items() if v is not None}


def _wire(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_none=True)
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, bool):
        return value
    if isinstance(value, (list, tuple)):
        return [_wire(v) for v in value]
    return value


def target(
    value: m.TurnTarget | m.MessageTarget | m.ArtifactTarget | m.ThreadTarget | Mapping[str, Any],
) -> Any:
    """A target model, or its JSON (camelCase or snake_case keys) checked as one."""
    return value if isinstance(value, BaseModel) else _target.validate_python(value)


# Health and the document.
HEALTH = Route("GET", "/healthz", m.Health)
READY = Route("GET", "/readyz", m.Health, also_ok=frozenset({503}))
OPENAPI: Route[dict[str, Any]] = Route("GET", "/openapi.json", None)

# Lifecycle: what the host reports.
CREATE_THREAD = Route("POST", "/v1/threads", m.ThreadCreated)
END_THREAD = Route("POST", "/v1/threads/{threadId}/end", m.Written)
START_RUN = Route("POST", "/v1/threads/{threadId}/runs", m.RunStarted)
PAUSE_RUN = Route("POST", "/v1/runs/{runId}/pause", m.Written)
END_RUN = Route("POST", "/v1/runs/{runId}/end", m.Written)
POST_MESSAGE = Route("POST", "/v1/threads/{threadId}/messages", m.MessagePosted)
PUT_ARTIFACT = Route("PUT", "/v1/artifacts/{artifactId}", m.ArtifactPut)
ARCHIVE_ARTIFACT = Route("POST", "/v1/artifacts/{artifactId}/archive", m.Written)

# Feedback, ratings and the conversation.
GIVE_FEEDBACK = Route("POST", "/v1/feedback", m.Written)
RATE_MESSAGE = Route("PUT", "/v1/threads/{threadId}/messages/{messageId}/rating", m.Rating)
DELETE_RATING = Route(
    "DELETE", "/v1/threads/{threadId}/messages/{messageId}/rating", m.RatingRemoval
)
CONVERSATION = Route("GET", "/v1/threads/{threadId}/conversation", m.Conversation)

# Reviews, scores and score configs.
REVIEW = Route("POST", "/v1/reviews", m.ReviewOutcome)
RECORD_SCORE = Route("POST", "/v1/scores", m.ScoreRecorded)
SCORE_CONFIGS = Route("GET", "/v1/score-configs", m.ScoreConfigs)
CREATE_SCORE_CONFIG = Route("POST", "/v1/score-configs", m.ScoreConfig)
ARCHIVE_SCORE_CONFIG = Route("PATCH", "/v1/score-configs/{configId}", m.ScoreConfigs)

# Reading back.
RUN = Route("GET", "/v1/runs/{runId}", m.RunReport)
THREAD = Route("GET", "/v1/threads/{threadId}", m.ThreadReport)
LEDGER = Route("GET", "/v1/ledger", m.LedgerPage)
THREADS = Route("GET", "/v1/threads", m.ThreadsPage)
RUNS = Route("GET", "/v1/runs", m.RunsPage)
SCORE_SUMMARY = Route("GET", "/v1/scores/summary", m.ScoreSummary)

# Rules and re-evaluations.
RULES = Route("GET", "/v1/evaluation-rules", m.Rules)
SET_RULE = Route("PUT", "/v1/evaluation-rules/{evaluator}", m.Written)
JUDGE_VERSIONS = Route("GET", "/v1/judge-versions", m.JudgeVersions)
TUNE_JUDGE = Route("POST", "/v1/judge-versions/{version}/tune", m.TunedJudge)
JUDGE_VERSION = Route("GET", "/v1/judge-versions/{version}", m.RecordedJudgeVersion)
JUDGE_BACKTEST = Route("GET", "/v1/judge-versions/{version}/backtest", m.Backtest)
START_REEVALUATION = Route("POST", "/v1/reevaluations", m.ReevaluationStarted)
REEVALUATION = Route("GET", "/v1/reevaluations/{id}", m.ReevaluationProgress)
PAUSE_REEVALUATION = Route("POST", "/v1/reevaluations/{id}/pause", m.ReevaluationProgress)
RESUME_REEVALUATION = Route("POST", "/v1/reevaluations/{id}/resume", m.ReevaluationProgress)
CANCEL_REEVALUATION = Route("POST", "/v1/reevaluations/{id}/cancel", m.ReevaluationProgress)
PREVIEW_REEVALUATION = Route("POST", "/v1/reevaluations/preview", m.ReevaluationPreview)
SET_REEVALUATION_BUDGET = Route("POST", "/v1/reevaluations/{id}/budget", m.ReevaluationProgress)

# Agreement over stored verdicts, its disagreements sent to a queue, promotions on its evidence.
AGREEMENT = Route("GET", "/v1/agreement", m.Agreement)
COSTS = Route("GET", "/v1/costs", m.Costs)
BUDGETS = Route("GET", "/v1/budgets", m.Budgets)
SET_BUDGET = Route("PUT", "/v1/budgets/{budgetId}", m.Budgets)
DELETE_BUDGET = Route("DELETE", "/v1/budgets/{budgetId}", m.Budgets)
BUDGET_CHANGES = Route("GET", "/v1/budgets/{budgetId}/changes", m.BudgetChanges)
QUEUE_DISAGREEMENTS = Route(
    "POST", "/v1/review-queues/{queueId}/disagreements", m.QueuedDisagreements
)
PROMOTE = Route("POST", "/v1/evaluation-rules/{evaluator}/promote", m.Promoted)

# Review queues and reviewers' sign-in tokens.
REVIEW_QUEUES = Route("GET", "/v1/review-queues", m.ReviewQueues)
REVIEW_QUEUE = Route("GET", "/v1/review-queues/{queueId}", m.ReviewQueueDetail)
SET_REVIEW_QUEUE = Route("PUT", "/v1/review-queues/{queueId}", m.ReviewQueueWritten)
ARCHIVE_REVIEW_QUEUE = Route("DELETE", "/v1/review-queues/{queueId}", m.ReviewQueueWritten)
ENQUEUE = Route("POST", "/v1/review-queues/{queueId}/items", m.Enqueued)
CLAIM = Route("POST", "/v1/review-queues/{queueId}/claim", m.Claim)
REVIEW_ITEM = Route("GET", "/v1/review-queues/{queueId}/items/{itemId}", m.ItemView)
HEARTBEAT = Route("POST", "/v1/review-queues/{queueId}/items/{itemId}/heartbeat", m.Lease)
RELEASE = Route("POST", "/v1/review-queues/{queueId}/items/{itemId}/release", m.Released)
SKIP = Route("POST", "/v1/review-queues/{queueId}/items/{itemId}/skip", m.Skipped)
SUBMIT_ITEM = Route("POST", "/v1/review-queues/{queueId}/items/{itemId}/submit", m.ItemSubmitted)
MY_REVIEWS = Route("GET", "/v1/review-queues/{queueId}/my-reviews", m.MyReviews)
REVIEWER_SIGN_IN = Route("POST", "/v1/reviewers/{reviewerId}/sign-in", m.SignIn)

# Credentials and events.
CREATE_USER_TOKEN = Route("POST", "/v1/user-tokens", m.UserToken)
EVENTS: Route[None] = Route("GET", "/v1/events", None)
THREAD_EVENTS: Route[None] = Route("GET", "/v1/threads/{threadId}/events", None)

ALL: tuple[Route[Any], ...] = tuple(v for v in list(globals().values()) if isinstance(v, Route))


# The calls, one per client method; the clients add only the sending.


def create_thread(thread_id: str, title: str | None) -> Call[m.ThreadCreated]:
    return CREATE_THREAD.call(body={"threadId": thread_id, "title": title})


def end_thread(thread_id: str) -> Call[m.Written]:
    return END_THREAD.call({"threadId": thread_id})


def start_run(
    thread_id: str, run_id: str, trace_id: str | None, started_at: datetime | str | None
) -> Call[m.RunStarted]:
    return START_RUN.call(
        {"threadId": thread_id},
        body={"runId": run_id, "traceId": trace_id, "startedAt": started_at},
    )


def pause_run(run_id: str, reason: str | None) -> Call[m.Written]:
    return PAUSE_RUN.call({"runId": run_id}, body={"reason": reason})


def end_run(
    run_id: str, status: m.RunEndStatus, ended_at: datetime | str | None
) -> Call[m.Written]:
    return END_RUN.call({"runId": run_id}, body={"status": status, "endedAt": ended_at})


def post_message(
    thread_id: str,
    role: m.Role,
    content: str,
    message_id: str | None,
    run_id: str | None,
    posted_at: datetime | str | None,
) -> Call[m.MessagePosted]:
    return POST_MESSAGE.call(
        {"threadId": thread_id},
        body={
            "messageId": message_id,
            "role": role,
            "content": content,
            "runId": run_id,
            "postedAt": posted_at,
        },
    )


def put_artifact(
    artifact_id: str, kind: str, data: Any, run_id: str | None, trace_id: str | None
) -> Call[m.ArtifactPut]:
    return PUT_ARTIFACT.call(
        {"artifactId": artifact_id},
        body={"kind": kind, "data": data, "runId": run_id, "traceId": trace_id},
    )


def archive_artifact(artifact_id: str) -> Call[m.Written]:
    return ARCHIVE_ARTIFACT.call({"artifactId": artifact_id})


def give_feedback(
    feedback_type: str,
    on: Any,
    value: Mapping[str, Any] | None,
    source: m.ScoreSource | None,
    source_label: str | None,
) -> Call[m.Written]:
    return GIVE_FEEDBACK.call(
        body={
            "feedbackType": feedback_type,
            "target": target(on),
            "value": dict(value) if value is not None else None,
            "source": source,
            "sourceLabel": source_label,
        }
    )


def rate_message(
    thread_id: str, message_id: str, feedback_type: str, value: Mapping[str, Any]
) -> Call[m.Rating]:
    return RATE_MESSAGE.call(
        {"threadId": thread_id, "messageId": message_id},
        body={"feedbackType": feedback_type, "value": dict(value)},
    )


def delete_rating(thread_id: str, message_id: str, feedback_type: str) -> Call[m.RatingRemoval]:
    return DELETE_RATING.call(
        {"threadId": thread_id, "messageId": message_id}, query={"feedbackType": feedback_type}
    )


def conversation(thread_id: str) -> Call[m.Conversation]:
    return CONVERSATION.call({"threadId": thread_id})


def review(
    action: m.ReviewAction,
    on: Any,
    feedback_type: str,
    value: Mapping[str, Any] | None,
    config_id: str | None,
) -> Call[m.ReviewOutcome]:
    return REVIEW.call(
        body={
            "action": action,
            "target": target(on),
            "feedbackType": feedback_type,
            "value": dict(value) if value is not None else None,
            "configId": config_id,
        }
    )


def record_score(
    trace_id: str,
    name: str,
    value: float | bool,
    source: m.ScoreSource,
    config_id: str | None,
    source_label: str | None,
    comment: str | None,
) -> Call[m.ScoreRecorded]:
    return RECORD_SCORE.call(
        body={
            "traceId": trace_id,
            "name": name,
            "value": value,
            "source": source,
            "configId": config_id,
            "sourceLabel": source_label,
            "comment": comment,
        }
    )


def score_configs(include_archived: bool) -> Call[m.ScoreConfigs]:
    return SCORE_CONFIGS.call(query={"includeArchived": "true" if include_archived else None})


def create_score_config(
    name: str,
    data_type: m.ScoreDataType,
    min_value: float | None,
    max_value: float | None,
    categories: Sequence[str] | None,
    description: str | None,
) -> Call[m.ScoreConfig]:
    return CREATE_SCORE_CONFIG.call(
        body={
            "name": name,
            "dataType": data_type,
            "minValue": min_value,
            "maxValue": max_value,
            "categories": list(categories) if categories is not None else None,
            "description": description,
        }
    )


def archive_score_config(config_id: str) -> Call[m.ScoreConfigs]:
    return ARCHIVE_SCORE_CONFIG.call({"configId": config_id}, body={"isArchived": True})


def run(run_id: str) -> Call[m.RunReport]:
    return RUN.call({"runId": run_id})


def thread(thread_id: str) -> Call[m.ThreadReport]:
    return THREAD.call({"threadId": thread_id})


def ledger(
    run_id: str | None,
    state: m.EvaluationState | None,
    cursor: str | None,
    limit: int | None,
    thread_id: str | None = None,
) -> Call[m.LedgerPage]:
    return LEDGER.call(
        query={
            "runId": run_id,
            "threadId": thread_id,
            "state": state,
            "cursor": cursor,
            "limit": limit,
        }
    )


def threads(cursor: str | None, limit: int | None) -> Call[m.ThreadsPage]:
    return THREADS.call(query={"cursor": cursor, "limit": limit})


def runs(
    thread_id: str | None,
    trace_id: str | None,
    status: m.RunStatus | None,
    started_from: datetime | str | None,
    started_before: datetime | str | None,
    ended_from: datetime | str | None,
    ended_before: datetime | str | None,
    cursor: str | None,
    limit: int | None,
) -> Call[m.RunsPage]:
    return RUNS.call(
        query={
            "threadId": thread_id,
            "traceId": trace_id,
            "status": status,
            "startedFrom": started_from,
            "startedBefore": started_before,
            "endedFrom": ended_from,
            "endedBefore": ended_before,
            "cursor": cursor,
            "limit": limit,
        }
    )


def score_summary(
    source: m.ScoreSource | None,
    name: str | None,
    since: datetime | str | None,
    until: datetime | str | None,
    include_shadow: bool | None = None,
    per: Literal["day"] | None = None,
) -> Call[m.ScoreSummary]:
    return SCORE_SUMMARY.call(
        query={
            "source": source,
            "name": name,
            "from": since,
            "to": until,
            "includeShadow": None if include_shadow is None else str(include_shadow).lower(),
            "per": per,
        }
    )


def rules() -> Call[m.Rules]:
    return RULES.call()


def judge_versions() -> Call[m.JudgeVersions]:
    return JUDGE_VERSIONS.call()


def tune_judge(
    version: str,
    against: str,
    field: str | None,
    as_version: str | None,
    held_out_share: float | None,
    seed: int | None,
    max_examples: int | None,
) -> Call[m.TunedJudge]:
    return TUNE_JUDGE.call(
        {"version": version},
        body={
            "against": against,
            "field": field,
            "as": as_version,
            "heldOutShare": held_out_share,
            "seed": seed,
            "maxExamples": max_examples,
        },
    )


def judge_version(version: str) -> Call[m.RecordedJudgeVersion]:
    return JUDGE_VERSION.call({"version": version})


def judge_backtest(version: str, against: str, field: str | None) -> Call[m.Backtest]:
    return JUDGE_BACKTEST.call({"version": version}, query={"against": against, "field": field})


def budgets() -> Call[m.Budgets]:
    return BUDGETS.call()


def set_budget(budget_id: str, settings: m.BudgetSettings) -> Call[m.Budgets]:
    return SET_BUDGET.call({"budgetId": budget_id}, body=settings.model_dump(by_alias=True))


def delete_budget(budget_id: str) -> Call[m.Budgets]:
    return DELETE_BUDGET.call({"budgetId": budget_id})


def budget_changes(budget_id: str) -> Call[m.BudgetChanges]:
    return BUDGET_CHANGES.call({"budgetId": budget_id})


def _slices(
    since: datetime | str | None, until: datetime | str | None, target_kind: str | None
) -> dict[str, Any]:
    return {"from": since, "to": until, "targetKind": target_kind}


def agreement(
    a: str,
    b: str,
    mapping: Mapping[str, str] | None,
    since: datetime | str | None,
    until: datetime | str | None,
    target_kind: m.EvaluatedKind | None,
    limit: int | None,
) -> Call[m.Agreement]:
    entries = [f"{label}={to}" for label, to in (mapping or {}).items()]
    return AGREEMENT.call(
        query={
            "a": a,
            "b": b,
            "map": entries or None,
            **_slices(since, until, target_kind),
            "limit": limit,
        }
    )


def _day(value: date | str | None) -> str | None:
    """A UTC day as the API takes it, ``2026-05-01``."""
    if isinstance(value, datetime):
        return value.date().isoformat()
    return value.isoformat() if isinstance(value, date) else value


def costs(
    by: Sequence[m.CostDimension] | None,
    since: date | str | None,
    until: date | str | None,
    evaluator: str | None,
    workspace: str | None,
) -> Call[m.Costs]:
    return COSTS.call(
        query={
            "by": ",".join(by) if by else None,
            "from": _day(since),
            "to": _day(until),
            "evaluator": evaluator,
            "workspace": workspace,
        }
    )


def queue_disagreements(
    queue_id: str,
    a: str,
    b: str,
    mapping: Mapping[str, str] | None,
    since: datetime | str | None,
    until: datetime | str | None,
    target_kind: m.EvaluatedKind | None,
) -> Call[m.QueuedDisagreements]:
    return QUEUE_DISAGREEMENTS.call(
        {"queueId": queue_id},
        body={
            "a": a,
            "b": b,
            "mapping": dict(mapping) if mapping else None,
            **_slices(since, until, target_kind),
        },
    )


def promote(
    evaluator: str,
    against: str,
    min_kappa: float,
    min_matched: int,
    replacing: str | None,
    field: str | None,
    mapping: Mapping[str, str] | None,
    since: datetime | str | None,
    until: datetime | str | None,
    target_kind: m.EvaluatedKind | None,
    force: bool | None,
    backtest: bool | None,
) -> Call[m.Promoted]:
    return PROMOTE.call(
        {"evaluator": evaluator},
        body={
            "replacing": replacing,
            "against": against,
            "field": field,
            "mapping": dict(mapping) if mapping else None,
            **_slices(since, until, target_kind),
            "minKappa": min_kappa,
            "minMatched": min_matched,
            "force": force,
            "backtest": backtest,
        },
    )


def set_rule(
    evaluator: str,
    targets: Sequence[m.EvaluatedKind],
    sample_rate: float | None,
    workspaces: Sequence[str] | None,
    artifact_kinds: Sequence[str] | None,
    enabled: bool | None,
    idle_for: str | None = None,
) -> Call[m.Written]:
    return SET_RULE.call(
        {"evaluator": evaluator},
        body={
            "targets": list(targets),
            "sampleRate": sample_rate,
            "filter": _present({"workspaces": workspaces, "artifactKinds": artifact_kinds}),
            "enabled": enabled,
            "idleFor": idle_for,
        },
    )


def _selection(
    selector: m.ArtifactSelector | None, selection: m.BackfillSelection | None
) -> dict[str, Any]:
    """Artifact versions (``selector``, every one when neither is given) or a backfill."""
    if selection is not None:
        return {"selector": selector, "selection": selection}
    return {"selector": selector or m.ArtifactSelector()}


def start_reevaluation(
    evaluators: Sequence[str],
    selector: m.ArtifactSelector | None,
    concurrency: int | None,
    selection: m.BackfillSelection | None = None,
    max_cost_usd: float | None = None,
) -> Call[m.ReevaluationStarted]:
    return START_REEVALUATION.call(
        body={
            **_selection(selector, selection),
            "evaluators": list(evaluators),
            "concurrency": concurrency,
            "maxCostUsd": max_cost_usd,
        }
    )


def preview_reevaluation(
    evaluators: Sequence[str],
    selector: m.ArtifactSelector | None,
    selection: m.BackfillSelection | None,
    concurrency: int | None,
) -> Call[m.ReevaluationPreview]:
    return PREVIEW_REEVALUATION.call(
        body={
            **_selection(selector, selection),
            "evaluators": list(evaluators),
            "concurrency": concurrency,
        }
    )


def set_reevaluation_budget(batch_id: str, max_cost_usd: float) -> Call[m.ReevaluationProgress]:
    return SET_REEVALUATION_BUDGET.call({"id": batch_id}, body={"maxCostUsd": max_cost_usd})


def reevaluation(batch_id: str) -> Call[m.ReevaluationProgress]:
    return REEVALUATION.call({"id": batch_id})


_CONTROLS = {
    "pause": PAUSE_REEVALUATION,
    "resume": RESUME_REEVALUATION,
    "cancel": CANCEL_REEVALUATION,
}


def control_reevaluation(batch_id: str, action: str) -> Call[m.ReevaluationProgress]:
    return _CONTROLS[action].call({"id": batch_id})


_routing = TypeAdapter(m.RoutingRule)
_filter = TypeAdapter(m.ItemFilter)


def review_queues(include_archived: bool) -> Call[m.ReviewQueues]:
    return REVIEW_QUEUES.call(query={"includeArchived": "true" if include_archived else None})


def review_queue(queue_id: str) -> Call[m.ReviewQueueDetail]:
    return REVIEW_QUEUE.call({"queueId": queue_id})


def set_review_queue(
    queue_id: str,
    feedback_type: str,
    instructions: str | None,
    target_kinds: Sequence[m.TargetKind] | None,
    reviewers_per_item: int | None,
    blind: bool | None,
    show_automated_verdicts: bool | None,
    lease_seconds: int | None,
    routing: Sequence[m.RoutingRule | Mapping[str, Any]] | None,
) -> Call[m.ReviewQueueWritten]:
    rules = None if routing is None else [_routing.validate_python(rule) for rule in routing]
    return SET_REVIEW_QUEUE.call(
        {"queueId": queue_id},
        body={
            "feedbackType": feedback_type,
            "instructions": instructions,
            "targetKinds": list(target_kinds) if target_kinds is not None else None,
            "reviewersPerItem": reviewers_per_item,
            "blind": blind,
            "showAutomatedVerdicts": show_automated_verdicts,
            "leaseSeconds": lease_seconds,
            "routing": rules,
        },
    )


def archive_review_queue(queue_id: str) -> Call[m.ReviewQueueWritten]:
    return ARCHIVE_REVIEW_QUEUE.call({"queueId": queue_id})


def enqueue(
    queue_id: str,
    targets: Sequence[Any] | None,
    filter: m.ItemFilter | Mapping[str, Any] | None,
    limit: int | None,
) -> Call[m.Enqueued]:
    if (targets is None) == (filter is None):
        raise ValueError("name targets or a filter, one of the two")
    if targets is not None:
        return ENQUEUE.call({"queueId": queue_id}, body={"targets": [target(t) for t in targets]})
    return ENQUEUE.call(
        {"queueId": queue_id},
        body={"filter": _filter.validate_python(filter), "limit": limit},
    )


def claim(queue_id: str) -> Call[m.Claim]:
    return CLAIM.call({"queueId": queue_id})


def review_item(queue_id: str, item_id: str) -> Call[m.ItemView]:
    return REVIEW_ITEM.call({"queueId": queue_id, "itemId": item_id})


def heartbeat(queue_id: str, item_id: str) -> Call[m.Lease]:
    return HEARTBEAT.call({"queueId": queue_id, "itemId": item_id})


def release(queue_id: str, item_id: str) -> Call[m.Released]:
    return RELEASE.call({"queueId": queue_id, "itemId": item_id})


def skip(queue_id: str, item_id: str) -> Call[m.Skipped]:
    return SKIP.call({"queueId": queue_id, "itemId": item_id})


def submit_item(
    queue_id: str, item_id: str, value: Mapping[str, Any], config_id: str
) -> Call[m.ItemSubmitted]:
    return SUBMIT_ITEM.call(
        {"queueId": queue_id, "itemId": item_id},
        body={"value": dict(value), "configId": config_id},
    )


def my_reviews(queue_id: str, limit: int | None) -> Call[m.MyReviews]:
    return MY_REVIEWS.call({"queueId": queue_id}, query={"limit": limit})


def reviewer_sign_in(reviewer_id: str, expires_in_seconds: int | None) -> Call[m.SignIn]:
    return REVIEWER_SIGN_IN.call(
        {"reviewerId": reviewer_id}, body={"expiresInSeconds": expires_in_seconds}
    )


def create_user_token(user_id: str, name: str | None, ttl_seconds: int | None) -> Call[m.UserToken]:
    return CREATE_USER_TOKEN.call(body={"userId": user_id, "name": name, "ttlSeconds": ttl_seconds})


def events(thread_id: str | None) -> Call[None]:
    return THREAD_EVENTS.call({"threadId": thread_id}) if thread_id else EVENTS.call()
