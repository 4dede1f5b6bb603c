"""Retries and idempotency against the real API, through a proxy that fails on purpose: every try
of a write carries the same Idempotency-Key, so the API records it once; waits honour Retry-After;
refusals are never retried."""

from __future__ import annotations

import httpx
import pytest
from faults import answer, drop_after_forwarding

from evalflow_client import (
    NO_RETRIES,
    ConflictError,
    EvalflowClient,
    EvalflowConnectionError,
    NotFoundError,
    RateLimitedError,
    RetryPolicy,
    UnavailableError,
)
from evalflow_client.retry import parse_retry_after

FAST = RetryPolicy(attempts=4, base_delay=0.05, max_delay=0.2)


def thread_event_types(client: EvalflowClient, thread: str, until: str) -> list[str]:
    """The thread's event types from its first, up to the first of type ``until``."""
    with client.events(thread_id=thread, after=0) as stream:
        seen = []
        for event in stream:
            seen.append(event.type)
            if event.type == until:
                return seen
    raise AssertionError("the stream ended")


def test_a_write_whose_answer_was_lost_is_retried_with_its_key_and_recorded_once(
    evalflow, proxy, unique
):
    workspace = f"retry-{unique}"
    agent = EvalflowClient(proxy.url, evalflow.key("agent", workspace), retry=FAST)
    agent.create_thread("t")
    proxy.plan("/v1/threads/t/runs", drop_after_forwarding())
    started = agent.start_run("t", "r")
    tries = proxy.requests("/v1/threads/t/runs")
    assert [(t.status, t.replayed) for t in tries] == [(201, False), (201, True)]
    keys = {t.headers["idempotency-key"] for t in tries}
    assert len(keys) == 1 and keys != {""}
    assert started.run_id == "r" and started.resumed is False
    # The second try was answered from the first: the run started once.
    agent.post_message("t", "ROLE_USER", "done", run_id="r")
    assert thread_event_types(agent, "t", "message_posted") == [
        "thread_created",
        "run_started",
        "message_posted",
    ]
    agent.close()


def test_a_server_fault_is_retried_after_its_retry_after_and_each_read_sends_no_key(
    evalflow, proxy
):
    system = EvalflowClient(proxy.url, evalflow.key("system"), retry=FAST)
    proxy.plan(
        "/v1/evaluation-rules",
        answer(503, b'{"type":"unavailable","message":"retry"}', retry_after="1"),
    )
    proxy.plan("/v1/evaluation-rules", answer(500, b"oops"))
    rules = system.rules()
    assert [r.evaluator for r in rules] == ["answer_length@1", "artifact_schema@1", "resolution@1"]
    tries = proxy.requests("/v1/evaluation-rules")
    assert len(tries) == 3
    assert tries[1].at - tries[0].at >= 1.0  # Retry-After: 1
    assert all("idempotency-key" not in t.headers for t in tries)
    system.close()


def test_a_rate_limit_is_waited_out_and_raised_typed_when_the_tries_run_out(evalflow, proxy):
    system = EvalflowClient(proxy.url, evalflow.key("system"), retry=FAST)
    limited = b'{"type":"rate_limited","message":"more than 1200 requests a minute from this key"}'
    proxy.plan("/v1/score-configs", *[answer(429, limited, retry_after="0")] * 2)
    assert system.score_configs()
    proxy.plan("/v1/score-configs", *[answer(429, limited, retry_after="0")] * 4)
    with pytest.raises(RateLimitedError) as raised:
        system.score_configs()
    assert (raised.value.status, raised.value.retry_after) == (429, 0)
    assert raised.value.message == "more than 1200 requests a minute from this key"
    # A Retry-After beyond the policy's patience is not waited for at all.
    proxy.plan("/v1/score-configs", answer(503, b"{}", retry_after="3600"))
    with pytest.raises(UnavailableError):
        system.score_configs()
    system.close()


def test_a_refusal_is_final_and_a_key_reused_for_another_request_is_a_conflict(
    evalflow, proxy, unique
):
    agent = EvalflowClient(proxy.url, evalflow.key("agent"), retry=FAST)
    with pytest.raises(NotFoundError):
        agent.end_run(f"nope-{unique}")
    assert len(proxy.requests(f"/v1/runs/nope-{unique}")) == 1
    agent.create_thread(f"a-{unique}", idempotency_key=f"k-{unique}")
    assert (
        agent.create_thread(f"a-{unique}", idempotency_key=f"k-{unique}").thread_id == f"a-{unique}"
    )
    with pytest.raises(ConflictError) as raised:
        agent.create_thread(f"b-{unique}", idempotency_key=f"k-{unique}")
    assert raised.value.message == f"Idempotency-Key k-{unique} was used for a different request"
    agent.close()


def test_a_refusal_without_the_apis_body_still_has_a_type_and_its_text(evalflow, proxy):
    system = EvalflowClient(proxy.url, evalflow.key("system"), retry=NO_RETRIES)
    proxy.plan("/v1/evaluation-rules", answer(502, b"<html>bad gateway</html>"))
    with pytest.raises(UnavailableError) as raised:
        system.rules()
    assert (raised.value.status, raised.value.message) == (502, "<html>bad gateway</html>")
    assert len(proxy.requests("/v1/evaluation-rules")) == 1
    system.close()


def test_an_unreachable_api_is_a_connection_error_after_every_try():
    with EvalflowClient("http://127.0.0.1:9", "efk_x", retry=FAST) as client:
        with pytest.raises(EvalflowConnectionError) as raised:
            client.health()
    assert isinstance(raised.value.__cause__, httpx.ConnectError)
    assert "after 4 tries" in str(raised.value)


def test_the_backoff_doubles_under_full_jitter_and_stops_after_the_last_try():
    policy = RetryPolicy(attempts=4, base_delay=1, max_delay=3, max_retry_after=10)
    assert [policy.delay(n, rand=lambda: 1.0) for n in range(4)] == [1, 2, 3, None]
    assert [policy.delay(n, rand=lambda: 0.0) for n in range(3)] == [0, 0, 0]
    assert policy.delay(0, retry_after=5, rand=lambda: 0.5) == 5.5
    assert policy.delay(0, retry_after=11) is None
    with pytest.raises(ValueError):
        RetryPolicy(attempts=0)


def test_retry_after_reads_seconds_and_http_dates():
    from datetime import datetime, timezone

    now = datetime(2026, 1, 1, 12, 0, 0, tzinfo=timezone.utc)
    assert parse_retry_after("7") == 7
    assert parse_retry_after("Thu, 01 Jan 2026 12:00:30 GMT", now) == 30
    assert parse_retry_after("Thu, 01 Jan 2026 11:00:00 GMT", now) == 0
    assert parse_retry_after("soon") is None
    assert parse_retry_after(None) is None
