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

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr
from pydantic.alias_generators import to_camel

Role = Literal["ROLE_USER", "ROLE_ASSISTANT", "ROLE_SYSTEM", "ROLE_TOOL"]
DurationBasis = Literal["recorded", "default"]
# Whence a cost per evaluation: the version's own recorded mean, its base's calls (a judge
# version recorded as data, before its own), its declared estimate, or none.
CostBasis = Literal["recorded", "base", "declared", "unknown"]
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
    #: True on a shadow version's verdict: not its feedback type's current verdict.
    shadow: bool = False


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


class Step(WireModel):
    """A model or tool call inside a run, read from the agent's spans (docs/traces.md#steps)."""

    kind: Literal["model", "tool"]
    span_id: str
    name: str
    operation: str
    model: str | None
    provider: str | None
    input_tokens: int | None
    output_tokens: int | None
    started_at: datetime
    ended_at: datetime
    status: Literal["ok", "error"]
    error: str | None
    tool_name: str | None
    call_id: str | None
    arguments: str | None
    result: str | None


class Thread(WireModel):
    thread_id: str
    title: str | None
    created_at: datetime
    #: When its host ended it; None while it is open (a new run or message reopens it).
    ended_at: datetime | None


class EntryUsage(WireModel):
    """What judging one evaluation used; ``cost_usd`` leaves out the unpriced reports' cost."""

    attempts: int
    duration_ms: int
    input_tokens: int
    output_tokens: int
    cost_usd: float
    unpriced_reports: int


class LedgerEntry(WireModel):
    """The one final state of a (target, evaluator version, generation), with its reason."""

    generation: str
    evaluator: str
    target: Target
    state: EvaluationState
    reason: str | None
    event_id: str | None
    settled_at: datetime
    usage: EntryUsage | None = None


CostDimension = Literal["version", "evaluator", "workspace", "day", "model"]


class CostsTotal(WireModel):
    """Spend summed: evaluations, tokens, dollars, and the reports with no known cost."""

    evaluations: int
    reports: int
    input_tokens: int
    output_tokens: int
    cost_usd: float
    unpriced_reports: int


class CostsRow(CostsTotal):
    """One group's spend; the dimensions not grouped by are None."""

    evaluator: str | None
    workspace: str | None
    day: str | None
    model: str | None


class Costs(WireModel):
    """What judging cost (``GET /v1/costs``), grouped by ``by``, with the total."""

    by: list[CostDimension]
    workspace: str | None
    from_: str | None = Field(alias="from")
    to: str | None
    rows: list[CostsRow]
    total: CostsTotal


BudgetPeriod = Literal["day", "week", "month"]


class BudgetSettings(WireModel):
    """A workspace's own budget as it is set: what an evaluator may spend per UTC period."""

    #: An evaluator by name (every version) or one version, ``name@version``.
    evaluator: str
    period: BudgetPeriod
    limit_usd: float
    #: ``skip``: settled as skipped (``budget_exhausted``); ``defer``: judged in the next period.
    on_exhausted: Literal["skip", "defer"]


class Budget(BudgetSettings):
    """A budget in force in the workspace, with its current period's spend."""

    budget_id: str
    #: None for a global budget of the config, over every workspace together.
    workspace: str | None = None
    source: Literal["config", "workspace"]
    period_start: datetime
    spent_usd: float
    #: What calls in flight hold reserved.
    reserved_usd: float


class Budgets(WireModel):
    budgets: list[Budget]


class BudgetChange(WireModel):
    change: int
    #: None: the budget was removed.
    settings: BudgetSettings | None
    changed_by: str
    changed_at: datetime


class BudgetChanges(WireModel):
    changes: list[BudgetChange]


class RunVerdict(Feedback):
    """A verdict on a run's turn, message or artifact version, from any rater."""

    #: The evaluator version (``name@version``) that gave a JUDGE or HARNESS verdict; else None.
    evaluator: str | None
    #: The value's category (``pass``), as the app declares the type; None when it has none.
    label: str | None


class RunReport(WireModel):
    """A run, its own evaluation's ledger entries, its verdicts, and its steps (from spans)."""

    run: Run
    evaluations: list[LedgerEntry]
    #: What was judged: the current feedback on its turn, messages and artifact versions.
    verdicts: list[RunVerdict]
    steps: list[Step]
    #: Steps past the per-run limit, counted and not listed.
    steps_omitted: int


class ThreadReport(WireModel):
    """A thread and its evaluation: each generation it was judged in, oldest first."""

    thread: Thread
    evaluations: list[LedgerEntry]


class LedgerPage(WireModel):
    entries: list[LedgerEntry]
    next_cursor: str | None


class ThreadsPage(WireModel):
    threads: list[Thread]
    next_cursor: str | None


class EvaluationSummary(WireModel):
    """How many of a run's (target, evaluator version) pairs stand in each ledger state."""

    recorded: int
    sampled_out: int
    failed: int
    skipped: int


class ListedRun(WireModel):
    run: Run
    evaluations: EvaluationSummary
    #: Only when the list was asked for by trace id: the run's steps.
    steps: list[Step] | None = None
    steps_omitted: int | None = None


class RunsPage(WireModel):
    runs: list[ListedRun]
    next_cursor: str | None


class ScoreGroup(WireModel):
    """One population's scores of one name: never two sources, evaluator versions or labels."""

    source: ScoreSource
    #: The evaluator version (``name@version``) for JUDGE and HARNESS scores.
    producer: str | None
    source_label: str | None
    #: A shadow version's verdicts, listed only with ``include_shadow``.
    shadow: bool
    name: str
    #: False for a feedback type the app no longer declares (its stored values still count).
    declared: bool
    #: Whether its field can be compared with another population's (booleans, categories, numbers).
    comparable: bool
    #: The UTC day (``YYYY-MM-DD``) its feedback was last given on, with ``per="day"`` only.
    day: str | None = None
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
    #: ``shadow``: judging what the live versions judge, never the current verdict.
    mode: Literal["live", "shadow"]
    #: How long a thread is quiet before the rule's evaluator judges it; None without threads.
    idle_for: str | None
    #: ``config`` for the app's own rule, ``workspace`` for one this workspace set.
    origin: Literal["config", "workspace"]
    set_by: str | None
    set_at: datetime | None


class Rules(WireModel):
    rules: list[Rule]


class JudgeVersion(WireModel):
    """An LLM judge's version: declared in code, or recorded as data (tuned from reviewers)."""

    #: ``judge@version``, as rules name it.
    id: str
    source: Literal["declared", "recorded"]
    model: str
    feedback_type: str
    #: The version it was tuned from, ``judge@version``; None for one declared in code.
    tuned_from: str | None
    examples: int
    held_out: int
    recorded_at: str | None


class JudgeVersions(WireModel):
    versions: list[JudgeVersion]


class TuningSplit(WireModel):
    reviewed: int
    training: int
    held_out: int


class ExampleReviewer(WireModel):
    rater_id: str
    label: str
    note: str | None


class RecordedExample(WireModel):
    """A few-shot example of a recorded judge version, with its provenance."""

    #: The example's target, by its key (``message:t1/m1``).
    target: str
    text: str
    reviewers_label: str
    judge_label: str
    reviewers: list[ExampleReviewer]


class RecordedJudgeVersion(WireModel):
    """A judge version recorded in the workspace, whole."""

    id: str
    model: str
    feedback_type: str
    tuned_from: str
    rubric: str
    recorded_by: str
    recorded_at: datetime
    examples: list[RecordedExample]
    #: The targets its backtest judges, by key: never an example.
    held_out: list[str]


class TunedExample(WireModel):
    #: The example's target, by its key (``message:t1/m1``).
    target: str
    reviewers_label: str
    judge_label: str


class TuningDisagreements(WireModel):
    in_training: int
    chosen: int


class TunedJudge(WireModel):
    """A candidate judge version tuned from the reviewers' verdicts, and recorded."""

    workspace: str
    seq: int
    candidate: str
    tuned_from: str
    split: TuningSplit
    examples: list[TunedExample]
    disagreements: TuningDisagreements
    #: The examples kept from a recorded base, first among ``examples``.
    kept: int = 0


# Agreement: two populations of stored verdicts compared, and promotions on that evidence.


class Figure(WireModel):
    """A figure; ``value`` None with ``code`` and ``reason`` where the data leave it undefined."""

    value: float | None
    code: str | None = None
    reason: str | None = None


class Interval(WireModel):
    """κ's bootstrap interval, or ``low`` and ``high`` None with why there is none."""

    low: float | None
    high: float | None
    level: float | None = None
    method: str | None = None
    resamples: int | None = None
    undefined_resamples: int | None = None
    seed: int | None = None
    code: str | None = None
    reason: str | None = None


class LabelFigures(WireModel):
    """One label's counts, base rates and precision, recall and F1 (side A as the truth)."""

    label: str
    count_a: int = Field(alias="countA")
    count_b: int = Field(alias="countB")
    rate_a: Figure = Field(alias="rateA")
    rate_b: Figure = Field(alias="rateB")
    precision: float
    recall: float
    f1: float


class MacroFigures(WireModel):
    precision: Figure
    recall: Figure
    f1: Figure


class CategoricalAgreement(WireModel):
    """Cohen's κ with its interval, the confusion matrix (rows A) and each label's figures."""

    targets: int
    matched: int
    only_a: int = Field(alias="onlyA")
    only_b: int = Field(alias="onlyB")
    labels: list[str]
    confusion: list[list[int]]
    raw_agreement: Figure
    chance_agreement: Figure
    kappa: Figure
    kappa_interval: Interval
    per_label: list[LabelFigures]
    macro: MacroFigures


class NumericAgreement(WireModel):
    """Pearson, Spearman, MAE and RMSE of B against A over the matched targets."""

    targets: int
    matched: int
    only_a: int = Field(alias="onlyA")
    only_b: int = Field(alias="onlyB")
    mean_a: Figure = Field(alias="meanA")
    mean_b: Figure = Field(alias="meanB")
    pearson: Figure
    spearman: Figure
    mae: Figure
    rmse: Figure


class RatersAgreement(WireModel):
    """How a population's own raters agree: Cohen's κ for two, Fleiss' κ, Krippendorff's α."""

    raters: int
    pairable_targets: int
    cohen_kappa: Figure | None
    fleiss_kappa: Figure
    krippendorff_alpha: Figure


class AgreementSide(WireModel):
    side: str
    population: Literal["evaluator", "reviewers", "users"]
    participant: str | None
    feedback_type: str
    field: str
    data_type: ScoreDataType
    verdicts: int
    ties: int
    raters: RatersAgreement | None


class Vote(WireModel):
    participant: str
    value: str | float


class AgreementDisagreement(WireModel):
    target: Target
    target_key: str
    a: str | float
    b: str | float
    votes_a: list[Vote] = Field(alias="votesA")
    votes_b: list[Vote] = Field(alias="votesB")


class Disagreements(WireModel):
    total: int
    listed: list[AgreementDisagreement]


class Agreement(WireModel):
    """Two sides' stored verdicts compared, target by target."""

    a: AgreementSide
    b: AgreementSide
    kind: Literal["categorical", "numeric"]
    mapping: dict[str, str]
    from_: datetime | None = Field(alias="from")
    to: datetime | None
    target_kind: EvaluatedKind | None
    as_of_seq: int
    categorical: CategoricalAgreement | None
    numeric: NumericAgreement | None
    disagreements: Disagreements


class BacktestIncomplete(WireModel):
    """A held-out target left out of every figure, with the verdicts it lacks."""

    target: str
    missing: list[Literal["reviewers", "old", "new"]]


class KappaDifference(WireModel):
    """The new version's kappa minus the old one's, with its bootstrap interval."""

    difference: Figure
    interval: Interval


class McNemar(WireModel):
    """McNemar's test on the targets where exactly one version is right."""

    test: Literal["exact_binomial", "chi_square_corrected", "no_disagreement"]
    b: int
    c: int
    statistic: float
    p_value: float
    degrees_of_freedom: int | None = None
    reason: str | None = None


class ChangedVerdict(WireModel):
    """A held-out target the two versions labelled differently."""

    target: str
    reviewers: str
    old: str
    new: str
    old_right: bool
    new_right: bool


class BacktestStatistics(WireModel):
    targets: int
    compared: int
    incomplete: list[BacktestIncomplete]
    labels: list[str]
    old: CategoricalAgreement
    new: CategoricalAgreement
    kappa_difference: KappaDifference
    mcnemar: McNemar
    changed: list[ChangedVerdict]


class Backtest(WireModel):
    """A recorded judge version against its base on its held-out targets."""

    workspace: str
    candidate: str
    base: str
    statistics: BacktestStatistics


class QueuedDisagreements(WireModel):
    """Every disagreeing target given to a review queue, each queued once."""

    queue_id: str
    a: str
    b: str
    as_of_seq: int
    disagreements: int
    added: int
    already_queued: int


class EvidenceInterval(WireModel):
    low: float
    high: float
    level: float


class VersionAgreement(WireModel):
    """One version's agreement with the side it was checked against."""

    compared: str
    matched: int
    kappa: float | None
    interval: EvidenceInterval | None
    raw_agreement: float | None


class BacktestEvidence(WireModel):
    """A tuned version's backtest: both versions on its held-out targets, paired."""

    held_out: int
    kappa_difference: float | None
    difference_interval: EvidenceInterval | None
    mcnemar_p: float


class PromotionEvidence(VersionAgreement):
    """What a promotion was decided on, measured when it was asked for."""

    against: str
    mapping: dict[str, str]
    as_of_seq: int
    replaced: VersionAgreement | None
    backtest: BacktestEvidence | None = None


class Promoted(WireModel):
    """A promotion recorded: the rules switched in one event that keeps its evidence."""

    seq: int | None
    event_ids: list[str]
    evaluator: str
    replacing: str | None
    evidence: PromotionEvidence
    forced: bool
    shortfalls: list[str]


# Re-evaluations.


class ArtifactSelector(WireModel):
    """Which artifact versions a re-evaluation judges; every field given narrows it."""

    artifact_ids: list[str] | None = None
    kind: str | None = None
    created_from: datetime | None = None
    created_to: datetime | None = None
    latest_only: bool | None = None


class BackfillSelection(WireModel):
    """Which runs (``turn``), messages or threads a backfill judges; each field narrows it."""

    kind: Literal["turn", "message", "thread"]
    thread_ids: list[str] | None = None
    # The run ended in [ended_from, ended_to): a message through its run, a thread through any.
    ended_from: datetime | None = None
    ended_to: datetime | None = None
    statuses: list[Literal["running", "paused", "completed", "stopped", "failed"]] | None = None
    # A deterministic share: the preview and the batch take the same targets.
    sample_fraction: float | None = None
    limit: int | None = None
    # Leave out the pairs each version has recorded a verdict on, in any generation.
    unjudged_only: bool | None = None
    # Only these targets, all of ``kind``: a judge version's held-out targets, say.
    targets: list[Target] | None = None


class ReevaluationStarted(WireModel):
    id: str


class VersionPreview(WireModel):
    evaluator: str
    # The pairs this version would judge.
    targets: int
    # None: not known (no measured mean and no declared estimate), never a made-up figure.
    cost_per_evaluation_usd: float | None
    cost_usd: float | None
    cost_basis: CostBasis
    # None: no attempt of it recorded in the workspace.
    mean_attempt_ms: float | None
    # The attempts mean_attempt_ms is measured over.
    recorded_attempts: int
    # "default": its attempt time is not recorded in the workspace, and assumed.
    duration_basis: DurationBasis
    duration_ms: float


class ReevaluationPreview(WireModel):
    """What a batch would judge, cost and take, before it starts."""

    targets: int
    cost_usd: float | None
    duration_ms: float
    # "default" when any of its versions' attempt times is assumed, not recorded.
    duration_basis: DurationBasis
    versions: list[VersionPreview]


class ReevaluationProgress(WireModel):
    total: int
    done: int
    recorded: int
    sampled_out: int
    failed: int
    skipped: int
    paused: bool
    # Why it is paused: "request" (asked to) or "budget" (its spend reached it); None while it runs.
    paused_by: Literal["request", "budget"] | None = None
    # Recorded under the batch's generation, and its budget (None: none).
    spent_usd: float = 0
    max_cost_usd: float | None = None
    cancelled: bool
    # The batch's workflow has completed (done, or cancelled and drained).
    finished: bool


# Review queues.

TargetKind = Literal["artifact", "message", "thread", "turn"]


class CompletedRuns(WireModel):
    """A deterministic sample of completed runs (their turns)."""

    kind: Literal["completed_runs"] = "completed_runs"
    sample_rate: float


class RatingAtMost(WireModel):
    """A user's rating of a type whose field is at most a value (false counts as 0)."""

    kind: Literal["rating_at_most"] = "rating_at_most"
    feedback_type: str
    field: str
    at_most: float


class VerdictEquals(WireModel):
    """An evaluator version's verdict whose field equals a value."""

    kind: Literal["verdict_equals"] = "verdict_equals"
    evaluator: str
    field: str
    equals: StrictBool | StrictInt | StrictFloat | StrictStr


class VerdictAtMost(WireModel):
    """An evaluator version's verdict whose field is at most a value."""

    kind: Literal["verdict_at_most"] = "verdict_at_most"
    evaluator: str
    field: str
    at_most: float


class ConfidenceBelow(WireModel):
    """An evaluator version's verdict whose confidence field is below a value."""

    kind: Literal["confidence_below"] = "confidence_below"
    evaluator: str
    field: str = "confidence"
    below: float


class Disagreement(WireModel):
    """Two evaluator versions whose verdicts on a target differ in a field."""

    kind: Literal["disagreement"] = "disagreement"
    evaluators: list[str]
    field: str


RoutingRule = Annotated[
    CompletedRuns | RatingAtMost | VerdictEquals | VerdictAtMost | ConfidenceBelow | Disagreement,
    Field(discriminator="kind"),
]


class QueueThroughput(WireModel):
    """Verdicts recorded in the last hour and the last 24 hours."""

    last_hour: int
    last_day: int


class QueueProgress(WireModel):
    """Items, and slots (one per verdict an item needs) by state; skips; throughput."""

    items: int
    items_done: int
    pending: int
    leased: int
    done: int
    skipped: int
    throughput: QueueThroughput


class ReviewerProgress(WireModel):
    reviewer: str
    leased: int
    done: int
    skipped: int
    throughput: QueueThroughput


class ReviewQueue(WireModel):
    """A review queue: its HUMAN feedback type, target kinds, reviewers per item, routing."""

    queue_id: str
    feedback_type: str
    instructions: str
    target_kinds: list[TargetKind]
    reviewers_per_item: int
    blind: bool
    show_automated_verdicts: bool
    lease_seconds: int
    routing: list[RoutingRule]
    archived: bool
    #: ``config`` for the app's own queue, ``workspace`` for one this workspace set.
    origin: Literal["config", "workspace"]
    set_by: str | None
    set_at: datetime | None


class ReviewQueueWithProgress(ReviewQueue):
    progress: QueueProgress


class ReviewQueues(WireModel):
    queues: list[ReviewQueueWithProgress]


class ReviewQueueDetail(WireModel):
    queue: ReviewQueue
    progress: QueueProgress
    reviewers: list[ReviewerProgress]


class ReviewQueueWritten(Written):
    queue: ReviewQueue


class TurnFilter(WireModel):
    """Every run of these statuses (of one thread, started in a window) a queue takes in."""

    kind: Literal["turn"] = "turn"
    statuses: list[RunStatus] | None = None
    thread_id: str | None = None
    started_from: datetime | None = None
    started_to: datetime | None = None


class MessageFilter(WireModel):
    """Every message of these roles (assistant by default), of one thread or run."""

    kind: Literal["message"] = "message"
    roles: list[Role] | None = None
    thread_id: str | None = None
    run_id: str | None = None


class ArtifactFilter(WireModel):
    """Every artifact version of these kinds (each artifact's latest only, created in a window)."""

    kind: Literal["artifact"] = "artifact"
    artifact_kinds: list[str] | None = None
    latest_only: bool | None = None
    created_from: datetime | None = None
    created_to: datetime | None = None


class ThreadFilter(WireModel):
    kind: Literal["thread"] = "thread"
    created_from: datetime | None = None
    created_to: datetime | None = None


ItemFilter = Annotated[
    TurnFilter | MessageFilter | ArtifactFilter | ThreadFilter, Field(discriminator="kind")
]


class EnqueuedItem(WireModel):
    item_id: str
    target: Target
    added: bool


class Enqueued(WireModel):
    """Targets added, targets queued already, and (for a list) each one's item."""

    added: int
    already_queued: int
    items: list[EnqueuedItem] | None = None


class ClaimedItem(WireModel):
    """An item the caller leases until ``lease_expires_at`` (keep it with heartbeats)."""

    item_id: str
    target: Target
    slots: int
    slots_done: int
    lease_expires_at: datetime


class Claim(WireModel):
    item: ClaimedItem | None


class ItemQueue(WireModel):
    queue_id: str
    feedback_type: str
    #: The score config a submit names (its ``config_id``): the HUMAN type's config.
    config_id: str
    instructions: str
    blind: bool
    show_automated_verdicts: bool
    lease_seconds: int
    reviewers_per_item: int


class ItemState(WireModel):
    item_id: str
    target: Target
    #: The caller's live lease on it, else None.
    lease_expires_at: datetime | None
    slots: int
    slots_done: int


class ItemMessage(WireModel):
    message_id: str
    role: Role
    content: str
    run_id: str | None
    posted_at: datetime
    is_target: bool


class ItemThread(WireModel):
    thread_id: str
    title: str | None
    messages: list[ItemMessage]


class TimelineEntry(WireModel):
    event: Literal["started", "paused", "resumed", "ended"]
    at: datetime
    reason: str | None = None
    status: RunStatus | None = None


class ItemRun(WireModel):
    run_id: str
    status: RunStatus
    timeline: list[TimelineEntry]


class ArtifactData(WireModel):
    version: int
    data: Any


class ItemArtifact(WireModel):
    artifact_id: str
    kind: str
    version: int
    data: Any
    previous: ArtifactData | None


class AutomatedVerdict(WireModel):
    evaluator: str
    feedback_type: str
    value: dict[str, Any]
    confidence: float | None = None


class ItemView(WireModel):
    """An item as the reviewer's page shows it; every text in it is untrusted input."""

    queue: ItemQueue
    item: ItemState
    score_configs: list[ScoreConfig]
    thread: ItemThread | None
    run: ItemRun | None
    artifact: ItemArtifact | None
    ratings: list[Feedback]
    automated_verdicts: list[AutomatedVerdict]
    other_reviews: list[Feedback]
    my_review: Feedback | None


class Lease(WireModel):
    item_id: str
    lease_expires_at: datetime


class Released(WireModel):
    item_id: str
    released: bool


class Skipped(WireModel):
    item_id: str
    skipped: bool


class ItemSubmitted(WireModel):
    """The verdict as the review path recorded it, and the item's verdicts so far."""

    item_id: str
    review: ReviewOutcome
    slots: int
    slots_done: int
    done: bool
    #: Other reviewers' verdicts on the target, read once the caller's is recorded (a blind
    #: queue's reveal).
    other_reviews: list[Feedback]


class MyReview(WireModel):
    item_id: str
    target: Target
    done_at: datetime
    #: The caller's current verdict on the target; None once withdrawn.
    review: Feedback | None
    #: Other reviewers' verdicts on the target, beside the caller's (none once withdrawn).
    other_reviews: list[Feedback]


class MyReviews(WireModel):
    reviews: list[MyReview]


class SignIn(WireModel):
    """A reviewer's short-lived sign-in token, and the reviewers' page's path with it."""

    id: str
    token: str
    principal: str
    expires_at: datetime
    path: str


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
    #: A refused promotion's evidence: the figures it fell short on.
    evidence: PromotionEvidence | None = None


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
