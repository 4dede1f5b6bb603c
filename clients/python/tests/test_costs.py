"""What judging cost (``GET /v1/costs``) through the real API, sync and async: the shape, the
days and groupings sent as the API takes them, and the typed refusals. The sums themselves are
checked in the TypeScript suite (test/api/costs.temporal.test.ts) on usage recorded on known
days; this app's evaluators report none, so a fresh workspace's spend is nothing, and zero."""

from __future__ import annotations

from datetime import date

import pytest

from evalflow_client import (
    AsyncEvalflowClient,
    ForbiddenError,
    ValidationFailedError,
)


def test_costs_of_a_workspace_are_read_grouped_and_filtered(connect, unique):
    workspace = f"costs-{unique}"
    reader = connect("reviewer:grace", workspace)
    spent = reader.costs()
    assert (spent.by, spent.workspace, spent.from_, spent.to) == (
        ["version", "day"],
        workspace,
        None,
        None,
    )
    assert spent.rows == []
    assert (spent.total.evaluations, spent.total.cost_usd, spent.total.unpriced_reports) == (
        0,
        0,
        0,
    )
    grouped = reader.costs(
        by=["evaluator", "model"],
        from_=date(2026, 5, 1),
        to="2026-05-31",
        evaluator="answer_length",
    )
    assert (grouped.by, grouped.from_, grouped.to) == (
        ["evaluator", "model"],
        "2026-05-01",
        "2026-05-31",
    )


def test_costs_refuse_a_bad_evaluator_and_another_workspace(connect, unique):
    reader = connect("reviewer:grace", f"costs-{unique}")
    with pytest.raises(ValidationFailedError):
        reader.costs(evaluator="a@b@c")
    with pytest.raises(ValidationFailedError):
        reader.costs(from_="2026-05-03", to="2026-05-01")
    with pytest.raises(ForbiddenError):
        reader.costs(workspace="someone-else")
    system = connect("system", f"costs-{unique}")
    assert system.costs(by=["workspace"], workspace="someone-else").workspace == "someone-else"


@pytest.mark.anyio
async def test_the_async_client_reads_costs_too(evalflow, unique):
    (key,) = evalflow.keys(f"costs-{unique}", "system")
    async with AsyncEvalflowClient(evalflow.url, key) as system:
        every = await system.costs(by=["workspace", "day"])
        assert every.workspace is None and every.by == ["workspace", "day"]
        with pytest.raises(ValidationFailedError):
            await system.costs(evaluator="a@b@c")
