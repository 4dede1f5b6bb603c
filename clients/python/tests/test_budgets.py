"""A workspace's own budgets through the real API, sync and async: set, listed with their
period's spend, removed, every change kept; and the typed refusals. Enforcement itself is the
TypeScript suite's (test/activities/budgets.test.ts, test/costs/)."""

from __future__ import annotations

import pytest

from evalflow_client import AsyncEvalflowClient, ForbiddenError, NotFoundError


def test_a_budget_is_set_listed_removed_and_audited(connect, unique):
    admin = connect("admin", f"budgets-{unique}")
    listed = admin.set_budget("daily", "answer_length", "day", 2.5, "skip")
    [budget] = [b for b in listed if b.budget_id == "daily"]
    assert (budget.source, budget.limit_usd, budget.on_exhausted, budget.spent_usd) == (
        "workspace",
        2.5,
        "skip",
        0,
    )
    assert [b.budget_id for b in admin.budgets()] == [b.budget_id for b in listed]
    assert all(b.budget_id != "daily" for b in admin.delete_budget("daily"))
    changes = admin.budget_changes("daily")
    assert [(c.change, c.settings is None) for c in changes] == [(1, False), (2, True)]
    assert changes[0].settings is not None and changes[0].settings.period == "day"


def test_budget_refusals_are_typed(connect, unique):
    workspace = f"budgets-refused-{unique}"
    with pytest.raises(NotFoundError):
        connect("admin", workspace).set_budget("b", "nobody", "day", 1, "skip")
    with pytest.raises(ForbiddenError):
        connect("agent", workspace).set_budget("b", "answer_length", "day", 1, "skip")
    with pytest.raises(NotFoundError):
        connect("admin", workspace).delete_budget("b")


@pytest.mark.anyio
async def test_budgets_async(evalflow, unique):
    async with AsyncEvalflowClient(
        evalflow.url, evalflow.key("admin", f"budgets-{unique}")
    ) as client:
        listed = await client.set_budget("weekly", "answer_length", "week", 1, "defer")
        assert [b.period for b in listed if b.budget_id == "weekly"] == ["week"]
        assert [c.change for c in await client.budget_changes("weekly")] == [1]
        assert all(b.budget_id != "weekly" for b in await client.delete_budget("weekly"))
