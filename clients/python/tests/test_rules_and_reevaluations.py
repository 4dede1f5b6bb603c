"""Evaluation rules, re-evaluations and backfills: started, watched and controlled."""

from __future__ import annotations

import pytest
from conftest import eventually

from evalflow_client import (
    ArtifactSelector,
    BackfillSelection,
    ForbiddenError,
    InvalidStateError,
    JudgeVersions,
    MessageTarget,
    NotFoundError,
    RecordedJudgeVersion,
    Target,
    ValidationFailedError,
)


def test_the_rules_in_force_come_from_the_config_until_an_admin_sets_the_workspaces_own(
    connect, unique
):
    workspace = f"rules-{unique}"
    system, admin = connect("system", workspace), connect("admin", workspace)
    assert [(r.evaluator, r.origin, r.set_by, r.idle_for) for r in system.rules()] == [
        ("answer_length@1", "config", None, None),
        ("artifact_schema@1", "config", None, None),
        ("resolution@1", "config", None, "30m"),
    ]
    with pytest.raises(ForbiddenError):
        system.set_rule("answer_length@1", ["message"], sample_rate=0.5)
    written = admin.set_rule(
        "answer_length@1", ["message"], sample_rate=0.5, artifact_kinds=["report"]
    )
    assert len(written.event_ids) == 1
    rule = admin.rules()[0]
    assert (rule.evaluator, rule.sample_rate, rule.origin, rule.set_by) == (
        "answer_length@1",
        0.5,
        "workspace",
        "system:admin",
    )
    assert rule.filter.artifact_kinds == ["report"] and rule.set_at is not None
    with pytest.raises(NotFoundError):
        admin.set_rule("nope@1", ["message"])


def test_a_thread_rule_takes_an_idle_time_and_refuses_one_that_is_no_duration(connect, unique):
    admin = connect("admin", f"rules-{unique}")
    admin.set_rule("resolution@1", ["thread"], idle_for="2h")
    rule = next(r for r in admin.rules() if r.evaluator == "resolution@1")
    assert (rule.targets, rule.idle_for, rule.origin) == (["thread"], "2h", "workspace")
    with pytest.raises(ValidationFailedError) as refused:
        admin.set_rule("resolution@1", ["thread"], idle_for="two hours")
    assert "not 'two hours'" in str(refused.value)
    with pytest.raises(ValidationFailedError):
        admin.set_rule("answer_length@1", ["message"], idle_for="2h")


def test_a_reevaluation_judges_the_selected_versions_and_refuses_control_once_finished(
    connect, unique
):
    system = connect("system", f"batch-{unique}")
    for artifact in ("a", "b"):
        system.put_artifact(artifact, "report", {"title": artifact})
    system.put_artifact("c", "note", {"text": "not a report"})
    started = system.start_reevaluation(["artifact_schema@1"], ArtifactSelector(kind="report"))
    done = eventually(lambda: system.reevaluation(started.id), lambda p: p.done == 2)
    assert (done.total, done.done, done.recorded, done.failed, done.cancelled) == (
        2,
        2,
        2,
        0,
        False,
    )
    with pytest.raises(InvalidStateError) as raised:
        system.pause_reevaluation(started.id)
    assert raised.value.message == f"reevaluation {started.id} has finished"
    with pytest.raises(ValidationFailedError):
        system.start_reevaluation(["nope@1"])
    with pytest.raises(NotFoundError) as missing:
        system.reevaluation(f"never-{unique}")
    assert (missing.value.entity, missing.value.id) == ("reevaluation", f"never-{unique}")


def test_a_reevaluation_is_paused_resumed_and_cancelled_and_its_retry_names_the_same_batch(
    connect, unique
):
    system = connect("system", f"control-{unique}")
    for i in range(6):
        system.put_artifact(f"doc{i}", "report", {"title": str(i)})
    key = f"batch-{unique}"
    started = system.start_reevaluation(["artifact_schema@1"], concurrency=1, idempotency_key=key)
    again = system.start_reevaluation(["artifact_schema@1"], concurrency=1, idempotency_key=key)
    assert again.id == started.id
    assert system.pause_reevaluation(started.id).paused is True
    assert system.resume_reevaluation(started.id).paused is False
    finished = eventually(lambda: system.reevaluation(started.id), lambda p: p.done == 6)
    assert (finished.total, finished.recorded) == (6, 6)
    # Paused straight after its start, a batch cannot finish before it is cancelled.
    other = system.start_reevaluation(["artifact_schema@1"], concurrency=1)
    assert system.pause_reevaluation(other.id).paused is True
    assert system.cancel_reevaluation(other.id).cancelled is True


def test_a_backfill_of_messages_is_previewed_then_judged_within_its_budget(connect, unique):
    agent = connect("agent", f"backfill-{unique}")
    system = connect("system", f"backfill-{unique}")
    agent.create_thread("t")
    agent.start_run("t", "r")
    for message_id in ("q", "a"):
        agent.post_message("t", "ROLE_ASSISTANT", "hello", message_id=message_id, run_id="r")
    selection = BackfillSelection(kind="message", thread_ids=["t"])
    preview = system.preview_reevaluation(["answer_length@1"], selection=selection)
    # Never judged in this workspace and no declared estimate: its cost unknown, not zero, and its
    # duration the default, said to be one.
    assert (preview.targets, preview.cost_usd, preview.duration_basis) == (2, None, "default")
    assert preview.duration_ms > 0
    assert (preview.versions[0].recorded_attempts, preview.versions[0].duration_basis) == (
        0,
        "default",
    )
    assert preview.versions[0].evaluator == "answer_length@1"
    assert preview.versions[0].cost_basis == "unknown"
    started = system.start_reevaluation(["answer_length@1"], selection=selection, max_cost_usd=5)
    done = eventually(lambda: system.reevaluation(started.id), lambda p: p.finished)
    assert (done.total, done.recorded, done.spent_usd, done.max_cost_usd, done.paused_by) == (
        2,
        2,
        0,
        5,
        None,
    )
    with pytest.raises(InvalidStateError):
        system.set_reevaluation_budget(started.id, 10)
    with pytest.raises(ValidationFailedError):
        system.start_reevaluation(
            ["answer_length@1"], selection=BackfillSelection(kind="turn", sample_fraction=0)
        )


def test_a_backfill_of_its_own_targets_counts_only_those_stored_and_of_its_kind(connect, unique):
    agent = connect("agent", f"own-{unique}")
    system = connect("system", f"own-{unique}")
    agent.create_thread("t")
    agent.start_run("t", "r")
    agent.post_message("t", "ROLE_ASSISTANT", "hello", message_id="a", run_id="r")
    targets: list[Target] = [
        MessageTarget(thread_id="t", message_id=m) for m in ("a", "never-posted")
    ]
    selection = BackfillSelection(kind="message", targets=targets)
    assert system.preview_reevaluation(["answer_length@1"], selection=selection).targets == 1
    with pytest.raises(ValidationFailedError):
        system.preview_reevaluation(
            ["answer_length@1"], selection=BackfillSelection(kind="turn", targets=targets)
        )


def test_tuning_a_judge_the_app_does_not_deploy_is_not_found(connect, unique):
    admin = connect("admin", f"tune-{unique}")
    with pytest.raises(NotFoundError):
        admin.tune_judge("llm_judge@1", "reviewers:review.passed", seed=7)


def test_a_backtest_of_a_version_never_recorded_is_not_found(connect, unique):
    reader = connect("reviewer:grace", f"backtest-{unique}")
    with pytest.raises(NotFoundError):
        reader.judge_backtest("llm_judge@tuned-1", "reviewers:review.passed")


def test_a_judge_version_never_recorded_is_not_found_whole(connect, unique):
    reader = connect("reviewer:grace", f"version-{unique}")
    with pytest.raises(NotFoundError):
        reader.judge_version("llm_judge@tuned-1")


def test_a_recorded_judge_version_reads_whole_in_snake_case():
    version = RecordedJudgeVersion.model_validate(
        {
            "id": "llm_judge@tuned-1",
            "model": "judge-model",
            "feedbackType": "judge_verdict",
            "tunedFrom": "llm_judge@1",
            "rubric": "Is the answer right?",
            "recordedBy": "system:cli",
            "recordedAt": "2026-12-05T09:00:00.000Z",
            "examples": [
                {
                    "target": "message:t/m1",
                    "text": "assistant: answer 1",
                    "reviewersLabel": "false",
                    "judgeLabel": "true",
                    "reviewers": [{"raterId": "reviewer:ana", "label": "false", "note": None}],
                }
            ],
            "heldOut": ["message:t/m2"],
        }
    )
    example = version.examples[0]
    assert (example.reviewers_label, example.reviewers[0].rater_id) == ("false", "reviewer:ana")
    assert (version.tuned_from, version.held_out) == ("llm_judge@1", ["message:t/m2"])


def test_judge_versions_list_what_the_app_declares_and_nothing_recorded_elsewhere(connect, unique):
    # The test app declares no LLM judge, and nothing is recorded in a fresh workspace.
    reader = connect("reviewer:grace", f"judges-{unique}")
    assert reader.judge_versions() == []


def test_a_recorded_judge_version_reads_in_snake_case():
    versions = JudgeVersions.model_validate(
        {
            "versions": [
                {
                    "id": "llm_judge@tuned-1",
                    "source": "recorded",
                    "model": "judge-model",
                    "feedbackType": "judge_verdict",
                    "tunedFrom": "llm_judge@1",
                    "examples": 4,
                    "heldOut": 6,
                    "recordedAt": "2026-12-05T09:00:00.000Z",
                }
            ]
        }
    ).versions
    assert [
        (v.id, v.source, v.feedback_type, v.tuned_from, v.examples, v.held_out) for v in versions
    ] == [("llm_judge@tuned-1", "recorded", "judge_verdict", "llm_judge@1", 4, 6)]
