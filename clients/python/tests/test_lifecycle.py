"""Reporting a run as a host does, and reading it back: the run, its verdicts, the ledger."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

from conftest import eventually

from evalflow_client import (
    BadRequestError,
    ConflictError,
    InvalidStateError,
    MessageTarget,
    NotFoundError,
    ThreadTarget,
    TooLargeError,
    TurnTarget,
    ValidationFailedError,
)

TRACE = "ab" * 16


def report(agent, thread: str, run: str, *, end: bool = True) -> str:
    """A thread with a run, a question and an answer; the answer's message id."""
    agent.create_thread(thread, title="refunds")
    agent.start_run(thread, run, trace_id=TRACE)
    agent.post_message(thread, "ROLE_USER", "Where is my refund?", run_id=run)
    answer = agent.post_message(thread, "ROLE_ASSISTANT", "On its way.", run_id=run)
    if end:
        agent.end_run(run)
    return answer.message_id


def test_a_run_is_reported_paused_resumed_and_ended_and_each_write_says_what_it_recorded(
    connect, unique
):
    agent = connect("agent")
    thread, run = f"t-{unique}", f"r-{unique}"
    created = agent.create_thread(thread)
    assert created.thread_id == thread and created.seq is not None and len(created.event_ids) == 1
    started = agent.start_run(thread, run, trace_id=TRACE)
    assert (started.run_id, started.resumed) == (run, False)
    posted = agent.post_message(thread, "ROLE_ASSISTANT", "Thinking...", run_id=run)
    assert posted.message_id  # named by the API when the host names none
    agent.pause_run(run, reason="waiting for the customer")
    resumed = agent.start_run(thread, run, trace_id="cd" * 16)
    assert resumed.resumed is True
    ended = agent.end_run(run, "stopped")
    assert ended.seq is not None and ended.seq > resumed.seq
    read = connect("system").run(run)
    assert read.run.status == "stopped"
    assert read.run.trace_ids == [TRACE, "cd" * 16]
    assert (read.steps, read.steps_omitted) == ([], 0)
    assert read.run.pause_reason is None


def test_reported_times_are_kept_and_one_too_far_ahead_is_refused_unrecorded(connect, unique):
    agent = connect("agent")
    thread, run = f"t-{unique}", f"r-{unique}"
    started = datetime(2026, 3, 1, 9, 0, tzinfo=timezone(timedelta(hours=1)))
    agent.create_thread(thread)
    agent.start_run(thread, run, started_at=started)
    agent.post_message(
        thread, "ROLE_USER", "Hi?", message_id="q", run_id=run, posted_at="2026-03-01T08:00:01Z"
    )
    ahead = datetime.now(timezone.utc) + timedelta(hours=1)
    try:
        agent.end_run(run, ended_at=ahead)
    except ValidationFailedError as error:
        assert "more than 5 minutes ahead of the store's clock" in error.message
    else:
        raise AssertionError("an end an hour ahead of the server's clock was accepted")
    agent.end_run(run, ended_at=started + timedelta(seconds=9))
    read = connect("system").run(run).run
    assert read.started_at == started
    assert read.updated_at == started + timedelta(seconds=9)
    posted = connect("system").conversation(thread).messages[0].posted_at
    assert posted == datetime(2026, 3, 1, 8, 0, 1, tzinfo=timezone.utc)


def test_an_ended_thread_is_judged_at_once_and_reads_back_with_each_generation(connect, unique):
    agent, system = connect("agent"), connect("system")
    thread, run = f"t-{unique}", f"r-{unique}"
    report(agent, thread, run)
    ended = agent.end_thread(thread)
    assert ended.seq is not None and len(ended.event_ids) == 1
    read = eventually(lambda: system.thread(thread), lambda r: len(r.evaluations) == 1)
    assert read.thread.thread_id == thread and read.thread.ended_at is not None
    [entry] = read.evaluations
    assert (entry.generation, entry.evaluator, entry.state) == (
        f"thread:{ended.seq}",
        "resolution@1",
        "recorded",
    )
    assert entry.target == ThreadTarget(thread_id=thread)
    assert list(system.ledger(thread_id=thread)) == read.evaluations
    try:
        agent.end_thread(thread)
        raise AssertionError("ending an ended thread is refused")
    except InvalidStateError as refused:
        assert "has ended already" in str(refused)
    # A new message reopens it.
    agent.post_message(thread, "ROLE_USER", "It has not arrived.")
    assert system.thread(thread).thread.ended_at is None


def test_the_api_refusals_arrive_as_typed_errors_with_their_body(connect, unique):
    agent = connect("agent")
    thread = f"t-{unique}"
    agent.create_thread(thread)
    try:
        agent.create_thread(thread)
    except ConflictError as error:
        assert (error.status, error.type) == (409, "conflict")
        assert error.message == f"thread {thread} exists already"
        assert error.request_id
    else:
        raise AssertionError("a second create_thread was not refused")
    try:
        agent.end_run(f"nope-{unique}")
    except NotFoundError as error:
        assert (error.status, error.entity, error.id) == (404, "run", f"nope-{unique}")
        assert error.body.model_dump(exclude_none=True) == {
            "type": "not_found",
            "entity": "run",
            "id": f"nope-{unique}",
            "message": f"run nope-{unique} does not exist",
        }
    else:
        raise AssertionError("ending an unknown run was not refused")
    try:
        robot: Any = "ROLE_ROBOT"  # no such role: the client's types would refuse it
        agent.post_message(thread, robot, "beep")
    except ValidationFailedError as error:
        assert error.status == 422 and error.errors  # zod's issues, as the API sent them
    else:
        raise AssertionError("a message with no such role was accepted")
    try:
        agent.post_message(thread, "ROLE_USER", "x" * 3 * 1024 * 1024)
    except TooLargeError as error:
        assert error.status == 413
    else:
        raise AssertionError("a body over the limit was accepted")
    try:
        agent.record_score("ab" * 16, "x", 1, source="SCORE_SOURCE_USER")
    except BadRequestError as error:
        assert error.message.startswith("SCORE_SOURCE_USER is not supported on this path")
    else:
        raise AssertionError("a user-sourced score was accepted")


def test_artifact_versions_are_put_and_an_archived_artifact_takes_no_more(connect, unique):
    system = connect("system")
    first = system.put_artifact(f"doc-{unique}", "report", {"title": "Q3"})
    second = system.put_artifact(f"doc-{unique}", "report", {"title": "Q3, revised"})
    assert (first.version, second.version) == (1, 2)
    system.archive_artifact(f"doc-{unique}")
    try:
        system.put_artifact(f"doc-{unique}", "report", {"title": "Q4"})
    except InvalidStateError as error:
        assert error.status == 409
    else:
        raise AssertionError("an archived artifact took a new version")


def test_a_run_reads_back_with_its_verdicts_and_the_ledger_pages_through_every_entry(
    connect, unique
):
    workspace = f"ledger-{unique}"
    agent, system = connect("agent", workspace), connect("system", workspace)
    answers = [report(agent, f"t{i}", f"r{i}") for i in range(3)]
    read = eventually(lambda: system.run("r1"), lambda r: len(r.evaluations) >= 1)
    assert [(e.evaluator, e.state) for e in read.evaluations] == [("answer_length@1", "recorded")]
    assert read.evaluations[0].target == MessageTarget(
        message_id=answers[1], thread_id="t1", run_id="r1"
    )
    connect("reviewer:grace", workspace).submit_review(
        TurnTarget(run_id="r1"), "review_verdict", {"verdict": "pass"}, config_id="review_verdict"
    )
    verdicts = system.run("r1").verdicts
    assert [
        (v.feedback_type, v.target, v.value, v.label, v.source, v.evaluator, v.rater)
        for v in verdicts
    ] == [
        (
            "answer_length",
            read.evaluations[0].target,
            {"characters": 11, "within_limit": True},
            None,
            "SCORE_SOURCE_HARNESS",
            "answer_length@1",
            "evaluator:answer_length@1",
        ),
        (
            "review_verdict",
            TurnTarget(run_id="r1"),
            {"verdict": "pass", "note": ""},
            "pass",
            "SCORE_SOURCE_HUMAN",
            None,
            "reviewer:grace",
        ),
    ]
    eventually(lambda: len(list(system.ledger())), lambda n: n >= 3)
    first = system.ledger_page(limit=2)
    assert len(first.entries) == 2 and first.next_cursor is not None
    rest = system.ledger_page(limit=2, cursor=first.next_cursor)
    assert len(rest.entries) == 1 and rest.next_cursor is None
    every = list(system.ledger(page_size=1))
    assert every == [*first.entries, *rest.entries]
    assert {e.target.run_id for e in every if isinstance(e.target, MessageTarget)} == {
        "r0",
        "r1",
        "r2",
    }
    only = list(system.ledger(run_id="r2", state="recorded"))
    assert [e.target for e in only] == [
        MessageTarget(message_id=answers[2], thread_id="t2", run_id="r2")
    ]
    assert list(system.ledger(state="failed")) == []


def test_threads_and_runs_list_a_page_at_a_time_with_their_filters_and_summaries(connect, unique):
    workspace = f"lists-{unique}"
    agent, system = connect("agent", workspace), connect("system", workspace)
    for i in range(3):
        report(agent, f"t{i}", f"r{i}", end=i != 1)
    assert [t.thread_id for t in system.threads(page_size=2)] == ["t0", "t1", "t2"]
    first = system.threads_page(limit=2)
    assert len(first.threads) == 2 and first.next_cursor is not None
    assert [r.run.run_id for r in system.runs(page_size=1)] == ["r2", "r1", "r0"]
    assert [r.run.run_id for r in system.runs(status="running")] == ["r1"]
    assert [r.run.run_id for r in system.runs(thread_id="t0")] == ["r0"]
    assert [r.run.run_id for r in system.runs(trace_id=TRACE)] == ["r2", "r1", "r0"]
    # By trace, each run comes with its steps: none for runs reported through the API.
    assert [(r.steps, r.steps_omitted) for r in system.runs(trace_id=TRACE)] == [([], 0)] * 3
    assert [r.steps for r in system.runs(thread_id="t0")] == [None]
    assert list(system.runs(trace_id="cd" * 16)) == []
    ended = eventually(
        lambda: list(system.runs(ended_from="2000-01-01T00:00:00Z")),
        lambda runs: all(r.evaluations.recorded >= 1 for r in runs),
    )
    assert [r.run.run_id for r in ended] == ["r2", "r0"]
    assert ended[0].evaluations.failed == 0
