"""The log as server-sent events: in order, from a seq, per thread, and resumed after a cut
stream from the last event id, with nothing missed and nothing seen twice."""

from __future__ import annotations

import itertools

import pytest
from faults import cut_after

from evalflow_client import AsyncEvalflowClient, EvalflowClient, RetryPolicy

FAST = RetryPolicy(attempts=4, base_delay=0.05, max_delay=0.2)


def test_events_arrive_in_order_from_the_start_or_after_a_seq(connect, unique):
    system = connect("system", f"events-{unique}")
    for thread in ("e1", "e2", "e3"):
        system.create_thread(thread)
    with system.events() as stream:
        first = list(itertools.islice(stream, 3))
        assert stream.last_event_id == 3
    assert [(e.seq, e.type, e.event["thread_id"]) for e in first] == [
        (1, "thread_created", "e1"),
        (2, "thread_created", "e2"),
        (3, "thread_created", "e3"),
    ]
    assert first[0].workspace_id == f"events-{unique}"
    assert first[0].actor == {"kind": "system", "name": "api"}
    with system.events(after=2) as stream:
        assert next(stream).seq == 3


def test_a_thread_stream_holds_only_that_threads_events_and_waits_for_new_ones(connect, unique):
    system = connect("system", f"thread-events-{unique}")
    system.create_thread("a")
    system.create_thread("b")
    with system.events(thread_id="b") as stream:
        assert next(stream).event == {"type": "thread_created", "thread_id": "b", "title": None}
        system.post_message("a", "ROLE_USER", "not b's")
        system.post_message("b", "ROLE_USER", "b's")
        posted = next(stream)
    assert (posted.type, posted.thread_id, posted.event["content"]) == (
        "message_posted",
        "b",
        "b's",
    )


def test_a_cut_stream_resumes_from_the_last_event_id_with_nothing_missed_or_repeated(
    evalflow, proxy, unique
):
    workspace = f"resume-{unique}"
    direct = EvalflowClient(evalflow.url, evalflow.key("system", workspace))
    for i in range(5):
        direct.create_thread(f"t{i}")
    proxy.plan("/v1/events", cut_after(2), cut_after(1))
    with EvalflowClient(proxy.url, evalflow.key("system", workspace), retry=FAST) as client:
        with client.events() as stream:
            seqs = [event.seq for event in itertools.islice(stream, 5)]
    assert seqs == [1, 2, 3, 4, 5]
    tries = proxy.requests("/v1/events")
    assert [t.headers.get("last-event-id") for t in tries] == [None, "2", "3"]
    direct.close()


@pytest.mark.anyio
async def test_the_async_stream_resumes_too(evalflow, proxy, unique):
    workspace = f"async-resume-{unique}"
    key = evalflow.key("system", workspace)
    async with AsyncEvalflowClient(proxy.url, key, retry=FAST) as client:
        for i in range(3):
            await client.create_thread(f"t{i}")
        proxy.plan("/v1/events", cut_after(1))
        seqs = []
        async with client.events() as stream:
            async for event in stream:
                seqs.append(event.seq)
                if len(seqs) == 3:
                    break
    assert seqs == [1, 2, 3]
    assert [t.headers.get("last-event-id") for t in proxy.requests("/v1/events")] == [None, "1"]
