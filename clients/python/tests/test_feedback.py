"""Ratings, feedback, reviews, scores, score configs and the score summary, each through the real
API with the principal that may send it."""

from __future__ import annotations

from datetime import datetime, timezone

from conftest import eventually
from test_lifecycle import report

from evalflow_client import (
    ConflictError,
    ForbiddenError,
    InvalidStateError,
    MessageTarget,
    NotFoundError,
    RejectionError,
    TurnTarget,
    UnauthenticatedError,
    ValidationFailedError,
)


def test_a_user_rates_replaces_and_deletes_their_own_rating_while_others_stay(connect, unique):
    workspace = f"rate-{unique}"
    agent, system = connect("agent", workspace), connect("system", workspace)
    # The run stays open: an ended run's answer is judged by answer_length, and a verdict that
    # lands before the conversation is read would count among the feedback asserted below.
    answer = report(agent, "t", "r", end=False)
    ada = system.with_key(system.create_user_token("ada", name="Ada").token)
    bob = system.with_key(system.create_user_token("bob").token)
    first = ada.rate_message("t", answer, "helpfulness", {"helpful": True, "stars": 4})
    assert first.is_update is False
    assert [(f.rater, f.value) for f in first.rated_message.feedback] == [
        ("user:ada", {"helpful": True, "stars": 4})
    ]
    bob.rate_message("t", answer, "helpfulness", {"helpful": False, "stars": 2})
    replaced = ada.rate_message("t", answer, "helpfulness", {"helpful": True, "stars": 5})
    assert replaced.is_update is True
    assert [f.rater for f in replaced.rated_message.feedback] == ["user:ada", "user:bob"]
    removed = ada.delete_rating("t", answer, "helpfulness")
    assert removed.removed is True
    assert [f.rater for f in removed.rated_message.feedback] == ["user:bob"]
    assert ada.delete_rating("t", answer, "helpfulness").removed is False
    conversation = ada.conversation("t")
    assert [(m.role, m.feedback and len(m.feedback)) for m in conversation.messages] == [
        ("ROLE_USER", None),
        ("ROLE_ASSISTANT", 1),
    ]
    assert conversation.messages[1].feedback[0].source == "SCORE_SOURCE_USER"
    try:
        ada.post_message("t", "ROLE_USER", "hi")
    except ForbiddenError as error:
        assert error.status == 403
    else:
        raise AssertionError("a user token posted a message")


def test_a_user_token_expires_and_is_refused_after(connect):
    system = connect("system")
    token = system.create_user_token("cy", ttl_seconds=1)
    assert token.principal == "user:cy"
    import time

    time.sleep(1.2)
    try:
        system.with_key(token.token).conversation("anything")
    except UnauthenticatedError as error:
        assert error.message == "the credential has expired"
    else:
        raise AssertionError("an expired token was accepted")


def test_an_evaluator_key_gives_feedback_as_its_evaluator_version(connect, unique):
    agent = connect("agent")
    answer = report(agent, f"t-{unique}", f"r-{unique}")
    judge = connect("evaluator:answer_length@1")
    given = judge.give_feedback(
        "answer_length",
        MessageTarget(message_id=answer, thread_id=f"t-{unique}", run_id=f"r-{unique}"),
        {"characters": 11, "within_limit": True},
    )
    assert len(given.event_ids) == 1
    feedback = connect("system").conversation(f"t-{unique}").messages[1].feedback or []
    assert any(
        f.id == given.event_ids[0] and f.rater == "evaluator:answer_length@1" for f in feedback
    )


def test_a_reviewer_submits_revises_and_withdraws_in_order_and_a_second_submit_is_refused(
    connect, unique
):
    agent, grace = connect("agent"), connect("reviewer:grace")
    run = f"r-{unique}"
    report(agent, f"t-{unique}", run)
    target = TurnTarget(run_id=run)
    submitted = grace.submit_review(
        target, "review_verdict", {"verdict": "pass"}, config_id="review_verdict"
    )
    assert (submitted.type, submitted.is_update, submitted.position) == ("recorded", False, 0)
    try:
        grace.submit_review(
            target, "review_verdict", {"verdict": "fail"}, config_id="review_verdict"
        )
    except RejectionError as error:
        assert error.status == 409
    else:
        raise AssertionError("a second submit was not refused")
    revised = grace.revise_review(
        {"kind": "turn", "runId": run},
        "review_verdict",
        {"verdict": "fail", "note": "on reflection"},
        config_id="review_verdict",
    )
    assert (revised.is_update, revised.position) == (True, 2)
    withdrawn = grace.withdraw_review(target, "review_verdict")
    assert withdrawn.removed is True
    try:
        grace.submit_review(target, "review_verdict", {"verdict": "pass"}, config_id="helpfulness")
    except ValidationFailedError as error:
        assert "score config review_verdict" in error.message
        assert error.errors == []
    else:
        raise AssertionError("a review against the wrong config was accepted")


def test_scores_on_traces_are_written_by_a_harness_and_a_reviewer_and_the_rest_refused(
    connect, unique
):
    system, grace = connect("system"), connect("reviewer:grace")
    trace = unique.ljust(32, "0")
    written = system.record_score(trace, "latency_ok", True, comment="p95")
    assert written.score_name == "latency_ok"
    human = grace.record_score(
        trace, "helpfulness.stars", 4, source="SCORE_SOURCE_HUMAN", config_id="helpfulness.stars"
    )
    assert len(human.event_ids) == 1
    try:
        grace.record_score(
            trace, "x", 1, source="SCORE_SOURCE_HUMAN", config_id=f"missing-{unique}"
        )
    except NotFoundError as error:
        assert (error.entity, error.id) == ("score config", f"missing-{unique}")
    else:
        raise AssertionError("a score against a missing config was accepted")
    try:
        system.record_score("not-a-trace", "x", 1)
    except ValidationFailedError as error:
        assert error.status == 422
    else:
        raise AssertionError("a score on a malformed trace id was accepted")


def test_score_configs_are_listed_created_once_and_retired(connect, unique):
    admin = connect("admin")
    names = [c.name for c in admin.score_configs()]
    assert {"helpfulness.stars", "review_verdict.verdict"} <= set(names)
    name = f"custom{unique}.quality"
    created = admin.create_score_config(name, "NUMERIC", min_value=0, max_value=1)
    assert (created.config_id, created.data_type, created.min_value, created.is_archived) == (
        name,
        "NUMERIC",
        0,
        False,
    )
    try:
        admin.create_score_config(name, "NUMERIC")
    except ConflictError:
        pass
    else:
        raise AssertionError("a config was created twice")
    archived = admin.archive_score_config(name)
    assert [(c.name, c.is_archived) for c in archived] == [(name, True)]
    assert name not in [c.name for c in admin.score_configs()]
    assert name in [c.name for c in admin.score_configs(include_archived=True)]
    try:
        connect("reviewer:grace").record_score(
            "ef" * 16, name, 1, source="SCORE_SOURCE_HUMAN", config_id=name
        )
    except InvalidStateError as error:
        assert error.message == f"score config {name} is archived"
    else:
        raise AssertionError("a score against an archived config was accepted")


def test_the_summary_keeps_each_population_apart(connect, unique):
    workspace = f"summary-{unique}"
    started = datetime.now(timezone.utc).date().isoformat()
    agent, system = connect("agent", workspace), connect("system", workspace)
    answer = report(agent, "t", "r")
    for user, stars in (("ada", 4), ("bob", 2)):
        rater = system.with_key(system.create_user_token(user).token)
        rater.rate_message("t", answer, "helpfulness", {"helpful": stars > 3, "stars": stars})
    summary = eventually(
        lambda: system.score_summary(),
        lambda s: any(g.source == "SCORE_SOURCE_HARNESS" for g in s.groups),
    )
    stars = next(g for g in summary.groups if g.name == "helpfulness.stars")
    assert (stars.source, stars.producer, stars.count, stars.mean) == (
        "SCORE_SOURCE_USER",
        None,
        2,
        3,
    )
    helpful = next(g for g in summary.groups if g.name == "helpfulness.helpful")
    assert helpful.distribution == {"true": 1, "false": 1}
    harness = [g for g in summary.groups if g.source == "SCORE_SOURCE_HARNESS"]
    assert {g.producer for g in harness} == {"answer_length@1"}
    users = system.score_summary(source="SCORE_SOURCE_USER", name="helpfulness.stars")
    assert [(g.name, g.count) for g in users.groups] == [("helpfulness.stars", 2)]
    assert system.score_summary(from_="2999-01-01T00:00:00Z").groups == []
    # Split per day: both ratings were given on the test's day (or days, across a midnight).
    per_day = system.score_summary(source="SCORE_SOURCE_USER", name="helpfulness.stars", per="day")
    today = datetime.now(timezone.utc).date().isoformat()
    assert sum(g.count for g in per_day.groups) == 2
    assert {g.day for g in per_day.groups} <= {started, today}
    assert users.groups[0].day is None
