"""Review queues: set, filled by hand and by a filter, worked through by reviewers under leases,
and a reviewer's sign-in token."""

from __future__ import annotations

import pytest

from evalflow_client import (
    CompletedRuns,
    EvalflowClient,
    InvalidStateError,
    NotFoundError,
    TurnFilter,
    TurnTarget,
    UnauthenticatedError,
    ValidationFailedError,
)


def completed_runs(agent: EvalflowClient, unique: str, count: int) -> list[str]:
    agent.create_thread(f"t-{unique}")
    runs = [f"r{i}-{unique}" for i in range(count)]
    for run in runs:
        agent.start_run(f"t-{unique}", run)
        agent.post_message(f"t-{unique}", "ROLE_ASSISTANT", "an answer", run_id=run)
        agent.end_run(run)
    return runs


def test_a_queue_is_set_filled_once_and_worked_through_by_reviewers_under_leases(connect, unique):
    workspace = f"queues-{unique}"
    agent, admin = connect("agent", workspace), connect("admin", workspace)
    grace, alan = connect("reviewer:grace", workspace), connect("reviewer:alan", workspace)
    runs = completed_runs(agent, unique, 3)

    assert [(q.queue_id, q.origin, q.progress.items) for q in grace.review_queues()] == [
        ("triage", "config", 0)
    ]
    written = admin.set_review_queue(
        "pairs",
        "review_verdict",
        target_kinds=["turn"],
        reviewers_per_item=2,
        routing=[CompletedRuns(sample_rate=0.5)],
    )
    assert written.queue.origin == "workspace" and written.queue.set_by == "system:admin"
    assert written.queue.routing == [CompletedRuns(sample_rate=0.5)]
    with pytest.raises(NotFoundError):
        admin.set_review_queue("bad", "nope")

    first = admin.add_to_review_queue("triage", [TurnTarget(run_id=runs[0])])
    assert (first.added, first.already_queued) == (1, 0)
    assert first.items is not None and first.items[0].target == TurnTarget(run_id=runs[0])
    rest = admin.add_to_review_queue("triage", filter=TurnFilter(statuses=["completed"]))
    assert (rest.added, rest.already_queued) == (2, 1)
    with pytest.raises(NotFoundError):
        admin.add_to_review_queue("triage", [{"kind": "turn", "runId": "missing"}])
    with pytest.raises(ValueError):
        admin.add_to_review_queue("triage")

    item = grace.claim("triage")
    assert item is not None and item.target == TurnTarget(run_id=runs[0])
    view = grace.review_item("triage", item.item_id)
    assert view.queue.queue_id == "triage" and view.run is not None
    assert [c.config_id for c in view.score_configs] == [
        "review_verdict.verdict",
        "review_verdict.note",
    ]
    assert grace.heartbeat("triage", item.item_id).lease_expires_at >= item.lease_expires_at
    assert grace.skip("triage", item.item_id).skipped
    second = grace.claim("triage")
    assert second is not None and second.item_id != item.item_id
    assert grace.release("triage", second.item_id).released
    with pytest.raises(InvalidStateError):
        grace.release("triage", second.item_id)

    done = 0
    for reviewer in (grace, alan):
        while (claimed := reviewer.claim("triage")) is not None:
            submitted = reviewer.submit_item(
                "triage", claimed.item_id, {"verdict": "pass"}, config_id="review_verdict"
            )
            assert submitted.done and submitted.review.type == "recorded"
            done += 1
    assert done == 3
    mine = grace.my_reviews("triage")
    assert len(mine) == 3 and all(r.review is not None for r in mine)
    detail = admin.review_queue("triage")
    assert (detail.progress.items_done, detail.progress.pending, detail.progress.skipped) == (
        3,
        0,
        1,
    )
    assert [r.reviewer for r in detail.reviewers] == ["reviewer:grace"]
    with pytest.raises(ValidationFailedError):
        admin.set_review_queue("pairs", "review_verdict", reviewers_per_item=0)

    archived = admin.archive_review_queue("pairs")
    assert archived.queue.archived
    with pytest.raises(InvalidStateError):
        grace.claim("pairs")


def test_a_reviewer_signs_in_with_a_short_lived_token_that_acts_as_them(connect, evalflow, unique):
    workspace = f"sign-in-{unique}"
    system = connect("system", workspace)
    signed = system.reviewer_sign_in("grace", expires_in_seconds=600)
    assert signed.principal == "reviewer:grace" and signed.path == f"/ui/#token={signed.token}"
    with system.with_key(signed.token) as grace:
        assert [q.queue_id for q in grace.review_queues()] == ["triage"]
        assert grace.claim("triage") is None
    with EvalflowClient(evalflow.url, "esi_" + "0" * 32 + "_" + "A" * 32) as nobody:
        with pytest.raises(UnauthenticatedError):
            nobody.review_queues()
