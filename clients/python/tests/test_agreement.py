"""Agreement over stored verdicts, its disagreements sent to a queue, and promotions on its
evidence, through the real API: an evaluator version's verdicts against the users' ratings."""

from __future__ import annotations

import pytest
from test_lifecycle import report

from evalflow_client import (
    InvalidStateError,
    MessageTarget,
    NotFoundError,
    PromotionEvidence,
    ValidationFailedError,
)

# Per answer: answer_length@1's within_limit, and the user's helpful; they differ on two.
VERDICTS = [(True, True)] * 6 + [(False, False)] * 4 + [(True, False), (False, True)]


def judged(connect, unique: str) -> str:
    """A workspace of twelve answers, each judged by answer_length@1 and rated by a user."""
    workspace = f"agree-{unique}"
    agent, system = connect("agent", workspace), connect("system", workspace)
    judge = connect("evaluator:answer_length@1", workspace)
    for i, (within, helpful) in enumerate(VERDICTS):
        thread, run = f"t{i}", f"r{i}"
        answer = report(agent, thread, run, end=False)
        target = MessageTarget(message_id=answer, thread_id=thread, run_id=run)
        judge.give_feedback("answer_length", target, {"characters": 11, "within_limit": within})
        user = system.with_key(system.create_user_token(f"u{i}").token)
        user.rate_message(thread, answer, "helpfulness", {"helpful": helpful, "stars": 3})
    return workspace


def test_agreement_gives_kappa_with_its_interval_the_matrix_and_the_disagreements(connect, unique):
    workspace = judged(connect, unique)
    reader = connect("reviewer:grace", workspace)
    found = reader.agreement("answer_length@1:within_limit", "users:helpfulness.helpful")
    assert (found.a.side, found.b.side, found.kind) == (
        "answer_length@1:within_limit",
        "users:helpfulness.helpful",
        "categorical",
    )
    figures = found.categorical
    assert figures is not None
    assert (figures.matched, figures.labels, figures.confusion) == (
        12,
        ["false", "true"],
        [[4, 1], [1, 6]],
    )
    # scikit-learn's cohen_kappa_score of these labels: 1 - 12·2 / (144 - (5·5 + 7·7)) = 0.657…
    assert abs((figures.kappa.value or 0) - (1 - 24 / 70)) < 1e-12
    assert figures.kappa_interval.level == 0.95
    assert [label.rate_a.value for label in figures.per_label] == [5 / 12, 7 / 12]
    assert found.disagreements.total == 2
    assert {d.target_key.split("/")[0] for d in found.disagreements.listed} == {
        "message:t10",
        "message:t11",
    }
    mapped = reader.agreement(
        "answer_length@1:within_limit",
        "users:helpfulness.helpful",
        mapping={"true": "false", "false": "true"},
        limit=0,
    )
    assert mapped.mapping == {"true": "false", "false": "true"}
    assert mapped.disagreements.total == 2 and mapped.disagreements.listed == []
    try:
        reader.agreement("answer_length@9:within_limit", "users")
    except NotFoundError as error:
        assert error.body.id == "answer_length@9"
    else:
        raise AssertionError("an undeployed version was compared")


def test_disagreements_go_to_a_queue_that_takes_their_kind(connect, unique):
    workspace = judged(connect, unique)
    system = connect("system", workspace)
    try:
        system.queue_disagreements(
            "triage", "answer_length@1:within_limit", "users:helpfulness.helpful"
        )
    except ValidationFailedError as error:
        assert "review queue triage takes turn targets" in error.message
    else:
        raise AssertionError("message disagreements were queued in a queue of turns")


def test_a_promotion_is_refused_with_its_evidence_and_recorded_when_forced(connect, unique):
    workspace = judged(connect, unique)
    admin = connect("admin", workspace)
    try:
        admin.promote(
            "answer_length@1",
            against="users:helpfulness.helpful",
            field="within_limit",
            min_kappa=0.9,
            min_matched=10,
        )
    except InvalidStateError as error:
        assert error.status == 409
        evidence = error.body.evidence
        assert evidence is not None
        assert (evidence.compared, evidence.matched) == ("answer_length@1:within_limit", 12)
        assert evidence.against == "users:helpfulness.helpful"
    else:
        raise AssertionError("short evidence promoted a version")
    forced = admin.promote(
        "answer_length@1",
        against="users:helpfulness.helpful",
        field="within_limit",
        min_kappa=0.9,
        min_matched=10,
        force=True,
    )
    assert forced.forced is True
    assert forced.shortfalls == ["κ 0.657 is below 0.9"]
    rules = {rule.evaluator: rule for rule in admin.rules()}
    assert (rules["answer_length@1"].mode, rules["answer_length@1"].set_by) == (
        "live",
        "system:admin",
    )


def test_a_promotion_on_a_backtest_needs_a_tuned_version(connect, unique):
    admin = connect("admin", judged(connect, unique))
    with pytest.raises(ValidationFailedError) as refused:
        admin.promote(
            "answer_length@1",
            against="users:helpfulness.helpful",
            field="within_limit",
            min_kappa=0.5,
            min_matched=10,
            backtest=True,
        )
    assert "declared in code, so it has no held-out targets" in refused.value.message


def test_a_backtest_in_a_promotions_evidence_reads_in_snake_case():
    figures = {"compared": "llm_judge@1:passed", "matched": 12, "kappa": 0.0}
    evidence = PromotionEvidence.model_validate(
        {
            **figures,
            "compared": "llm_judge@tuned-1:passed",
            "interval": {"low": 0.5, "high": 1.0, "level": 0.95},
            "rawAgreement": 0.92,
            "against": "reviewers:review.passed",
            "mapping": {},
            "asOfSeq": 81,
            "replaced": {**figures, "interval": None, "rawAgreement": 0.67},
            "backtest": {
                "heldOut": 12,
                "kappaDifference": 0.82,
                "differenceInterval": None,
                "mcnemarP": 0.375,
            },
        }
    )
    assert evidence.backtest is not None
    assert (evidence.backtest.held_out, evidence.backtest.mcnemar_p) == (12, 0.375)
    assert evidence.replaced is not None and evidence.replaced.raw_agreement == 0.67
