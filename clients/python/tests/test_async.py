"""The async client against the real API: the same routes awaited, concurrent calls sharing one
connection pool, and the same typed refusals."""

from __future__ import annotations

import inspect

import anyio
import pytest

from evalflow_client import (
    AsyncEvalflowClient,
    EvalflowClient,
    LedgerEntry,
    NotFoundError,
    TurnTarget,
)


@pytest.mark.anyio
async def test_a_host_reports_rates_and_reviews_with_the_async_client(evalflow, unique):
    workspace = f"async-{unique}"
    agent_key, system_key, reviewer_key = evalflow.keys(
        workspace, "agent", "system", "reviewer:grace"
    )
    async with AsyncEvalflowClient(evalflow.url, agent_key) as agent:
        await agent.create_thread("t")
        await agent.start_run("t", "r", trace_id="ab" * 16)
        async with anyio.create_task_group() as group:
            for i in range(5):
                group.start_soon(agent.post_message, "t", "ROLE_USER", f"question {i}")
        answer = await agent.post_message("t", "ROLE_ASSISTANT", "An answer.", run_id="r")
        await agent.end_run("r")
        system = agent.with_key(system_key)
        token = await system.create_user_token("ada")
        rated = await agent.with_key(token.token).rate_message(
            "t", answer.message_id, "helpfulness", {"helpful": True, "stars": 5}
        )
        assert [f.rater for f in rated.rated_message.feedback] == ["user:ada"]
        review = await agent.with_key(reviewer_key).submit_review(
            TurnTarget(run_id="r"),
            "review_verdict",
            {"verdict": "pass"},
            config_id="review_verdict",
        )
        assert review.position == 0
        conversation = await system.conversation("t")
        assert len(conversation.messages) == 6
        with pytest.raises(NotFoundError):
            await system.run("nope")
        ledger: list[LedgerEntry] = []
        with anyio.fail_after(60):
            while not ledger:
                ledger = [entry async for entry in system.ledger(run_id="r")]
                await anyio.sleep(0.25)
        assert [e.evaluator for e in ledger] == ["answer_length@1"]
        # What judging it used: the attempts recorded, and no usage (answer_length calls no model).
        usage = ledger[0].usage
        assert usage is not None and usage.attempts >= 1
        assert (usage.input_tokens, usage.cost_usd, usage.unpriced_reports) == (0, 0, 0)


def test_the_async_client_has_every_method_of_the_sync_client_with_the_same_parameters():
    def methods(cls: type) -> dict[str, inspect.Signature]:
        return {
            name: inspect.signature(member)
            for name, member in vars(cls).items()
            if callable(member) and not name.startswith("_")
        }

    sync, concurrent = methods(EvalflowClient), methods(AsyncEvalflowClient)
    assert sorted(sync) == sorted(concurrent)
    # a stream, async iterators over pages, a new client
    not_awaited = {"events", "ledger", "threads", "runs", "with_key"}
    for name, signature in sync.items():
        assert list(signature.parameters) == list(concurrent[name].parameters), name
        awaited = inspect.iscoroutinefunction(getattr(AsyncEvalflowClient, name))
        assert awaited == (name not in not_awaited), name
