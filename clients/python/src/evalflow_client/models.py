"""The API's JSON as pydantic models.

On the wire the API speaks camelCase (``threadId``, ``isUpdate``); here every field is snake_case
with the wire name as its alias, so models parse the API's JSON, accept either name when built by
hand, and dump camelCase with ``model_dump(by_alias=True)``. Events are the exception: the API
sends each envelope as stored, already snake_case, so ``Event`` has no aliases.

Unknown fields in an answer are ignored, so a newer server does not break an older client.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

Role = Literal["ROLE_USER", "ROLE_ASSISTANT", "ROLE_SYSTEM", "ROLE_TOOL"]
RunStatus = Literal["running", "paused", "completed", "stopped", "failed"]
RunEndStatus = Literal["completed", "stopped", "failed"]
ScoreSource = Literal[
    "SCORE_SOURCE_USER",
    "SCORE_SOURCE_HUMAN",
    "SCORE_SOURCE_JUDGE",
    "SCORE_SOURCE_HARNESS",
    "SCORE_SOURCE_EVAL",
]
EvaluationState = Literal["recorded", "sampled_out", "failed", "skipped"]
EvaluatedKind = Literal["artifact", "message", "thread", "turn"]
ScoreDataType = Literal["NUMERIC", "BOOLEAN", "CATEGORICAL", "TEXT"]
ReviewAction = Literal["submit", "revise", "withdraw"]


class WireModel(BaseModel):
    """A model of the API's camelCase JSON with snake_case attributes."""

    model_config = ConfigDict(
        alias_generator=to_camel,
        validate_by_name=True,
        validate_by_alias=True,
        serialize_by_alias=True,
        extra="ignore",
        frozen=True,
    )


# Targets: what feedback, reviews and evaluations are about.


class TurnTarget(WireModel):
    """A run, judged as a whole turn."""

    kind: Literal["turn"] = "turn"
    run_id: str


class MessageTarget(WireModel):
    """A message in a thread (its run, when it belongs to one)."""

    kind: Literal["message"] = "message"
    message_id: str
    thread_id: str
    run_id: str | None = None


class ArtifactTarget(WireModel):
    """One version of an artifact."""

    kind: Literal["artifact"] = "artifact"
    artifact_id: str
    version: int


class ThreadTarget(WireModel):
    """A whole thread."""

    kind: Literal["thread"] = "thread"
    thread_id: str


Target = Annotated[
    TurnTarget | MessageTarget | ArtifactTarget | ThreadTarget, Field(discriminator="kind")
]


# What a write recorded.


class Written(WireModel):
    """The seq of the write's last event (None when it recorded none) and its events' ids."""

    seq: int | None
    event_ids: list[str]


class ThreadCreated(Written):
    thread_id: str


class RunStarted(Written):
    run_id: str
    resumed: bool


class MessagePosted(Written):
    message_id: str


class ArtifactPut(Written):
    artifact_id: str
    version: int


class ScoreRecorded(Written):
    score_name: str


# Ratings, feedback and the conversation.


class FeedbackEntry(WireModel):
    """One rater's current feedback of one type on a message."""

    rater: str
    feedback_type: str
    value: dict[str, Any]


class RatedMessage(WireModel):
    message_id: str
    thread_id: str
    run_id: str | None
    feedback: list[FeedbackEntry]


class Rating(WireModel):
    """The rated message with every rater's feedback; ``is_update`` when the rating replaced one."""

    rated_message: RatedMessage
    is_update: bool


class RatingRemoval(WireModel):
    """``removed`` is False when there was no rating to remove (the API omits it then)."""

    removed: bool = False
    rated_message: RatedMessage


class Feedback(WireModel):
    id: str
    feedback_type: str
    target: Target
    value: dict[str, Any]
    source: ScoreSource
    source_label: str | None
    rater: str
    updated_at: datetime


class Message(WireModel):
    message_id: str
    thread_id: str
    run_id: str | None
    role: Role
    content: str
    author: str
    seq: int
    posted_at: datetime
    #: An assistant message's current feedback, every rater's; None for other roles.
    feedback: list[Feedback] | None = None


class Conversation(WireModel):
    thread_id: str
    messages: list[Message]


# Reviews.


class ReviewOutcome(WireModel):
    """A recorded review action and its place in the target's order of review actions."""

    type: Literal["recorded"]
    seq: int
    envelope_id: str | None
    is_update: bool
    removed: bool | None = None
    position: int


# Reading back: runs, the ledger, the score summary.


class Run(WireModel):
    run_id: str
    thread_id: str
    status: RunStatus
    trace_ids: list[str]
    pause_reason: str | None
    started_at: datetime
    updated_at: datetime


class Thread(WireModel):
    thread_id: str
    title: str | None
    created_at: datetime
    #: When its host ended it; None while it is open (a new run or message reopens it).
    ended_at: datetime | None


class LedgerEntry(WireModel):
    """The one final state of a (target, evaluator version, generation), with its reason."""

    generation: str
    evaluator: str
    target: Target
    state: EvaluationState
    reason: str | None
    event_id: str | None
    settled_at: datetime


class RunReport(WireModel):
    """A run and its own evaluation's ledger entries."""

    run: Run
    evaluations: list[LedgerEntry]


class ThreadReport(WireModel):
    """A thread and its evaluation: each generation it was judged in, oldest first."""

    thread: Thread
    evaluations: list[LedgerEntry]


class LedgerPage(WireModel):
    entries: list[LedgerEntry]
    next_cursor: str | None


class ScoreGroup(WireModel):
    """One population's scores of one name: never two sources, evaluator versions or labels."""

    source: ScoreSource
    #: The evaluator version (``name@version``) for JUDGE and HARNESS scores.
    producer: str | None
    source_label: str | None
    name: str
    count: int
    #: Numbers and booleans (true as 1); None for categories and text.
    mean: float | None
    #: How often each value occurs, for booleans and categories.
    distribution: dict[str, int] | None


class ScoreSummary(WireModel):
    groups: list[ScoreGroup]


# Score configs.


class ScoreConfig(WireModel):
    config_id: str
    name: str
    is_archived: bool
    data_type: ScoreDataType | None
    min_value: float | None
    max_value: float | None
    categories: list[str]
    description: str | None


class ScoreConfigs(WireModel):
    configs: list[ScoreConfig]


# Evaluation rules.


class RuleFilter(WireModel):
    workspaces: list[str] | None = None
    artifact_kinds: list[str] | None = None


class Rule(WireModel):
    evaluator: str
    targets: list[EvaluatedKind]
    sample_rate: float
    filter: RuleFilter
    enabled: bool
    #: How long a thread is quiet before the rule's evaluator judges it; None without threads.
    idle_for: str | None
    #: ``config`` for the app's own rule, ``workspace`` for one this workspace set.
    origin: Literal["config", "workspace"]
    set_by: str | None
    set_at: datetime | None


class Rules(WireModel):
    rules: list[Rule]


# Re-evaluations.


class ArtifactSelector(WireModel):
    """Which artifact versions a re-evaluation judges; every field given narrows it."""

    artifact_ids: list[str] | None = None
    kind: str | None = None
    created_from: datetime | None = None
    created_to: datetime | None = None
    latest_only: bool | None = None


class ReevaluationStarted(WireModel):
    id: str


class ReevaluationProgress(WireModel):
    total: int
    done: int
    recorded: int
    sampled_out: int
    failed: int
    skipped: int
    paused: bool
    cancelled: bool
    # The batch's workflow has completed (done, or cancelled and drained).
    finished: bool


# Credentials and health.


class UserToken(WireModel):
    """A short-lived token acting as ``principal`` (``user:{id}``); ``token`` is shown once."""

    id: str
    token: str
    principal: str
    expires_at: datetime


class Health(WireModel):
    status: Literal["ok", "unavailable"]
    checks: dict[str, str]


class RejectionBody(WireModel):
    """A refusal as the API sends it."""

    type: str
    message: str
    entity: str | None = None
    id: str | None = None
    errors: list[Any] | None = None


# Events.


class Event(BaseModel):
    """An event of the log, as stored: the envelope (snake_case on the wire too) and its event."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    seq: int
    id: str
    ts: datetime
    workspace_id: str
    thread_id: str | None
    run_id: str | None
    actor: dict[str, Any]
    #: The event itself: ``type`` and the fields of that type (``thread_created``, ...).
    event: dict[str, Any]

    @property
    def type(self) -> str:
        return str(self.event.get("type", ""))
